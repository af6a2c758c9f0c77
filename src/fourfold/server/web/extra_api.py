"""What the browser app needs from the server beyond the core API (``/api``).

- ``GET /api/tables/{id}/screen``: the whole screen of a page, which asks for it when
  it opens, after reconnecting and when it sees a gap in the versions (otherwise each
  event carries its own screen: server/web/screens.py): the caller's state (as
  ``GET /api/tables/{id}``), the moves so far in notation (from the caller's own
  record), the picture of the caller's view with the last move marked, the legal moves
  as structured choices, and whether hints may be asked for.
- ``GET /api/tables/{id}/picture?ply=N``: the picture after ``N`` plies (replays).
- ``GET /api/tables/{id}/replay``: every position of the game, for stepping through it
  and opening one as a new game; ``POST .../replay`` moves the table's shared replay.
- ``GET /api/tables/{id}/hint``: the solver's values (or the strongest bot's choice),
  from the caller's view, only when every other seat is a bot.
- ``GET /api/games/{game}/rules`` and ``GET /api/games/{game}/picture``: the rules text
  and a picture of each variant's start.

Past positions of a game with hidden cards are shown only once it is over (then
every card is face up anyway); a perfect-information game shows them at any time.
Every picture is drawn from a view, never from the referee's state.
"""

from __future__ import annotations

import asyncio
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from fourfold.core.errors import FourfoldError
from fourfold.core.game import View
from fourfold.core.match import Match
from fourfold.core.registry import game_names, get_spec
from fourfold.server.access import (
    ApiError,
    Caller,
    Credentials,
    Seated,
    Watcher,
    caller_of,
    charge,
    token_of,
)
from fourfold.server.hints import hint_for
from fourfold.server.jobs import JobPool
from fourfold.server.limits import address_key
from fourfold.server.live import LiveTable, dumps
from fourfold.server.protocol import refusal_status, seats_json, state_json
from fourfold.server.tokens import token_hash
from fourfold.server.web.finished import Finished
from fourfold.server.web.replay_positions import ReplayPositions
from fourfold.server.web.screens import hints_allowed as _hints_allowed
from fourfold.server.web.screens import page_facts, seat_names
from fourfold.table import History, TableError
from fourfold.wire.choices import choices_json

router = APIRouter(prefix="/api", tags=["browser app"])

#: the shared replay's ply per finished table (in memory, bounded: a replay is a
#: passing thing)
_shared = ReplayPositions()
#: finished tables' past positions and replays, worked out once (not per request)
_histories: Finished[History] = Finished()
_replays: Finished[dict[str, Any]] = Finished()


def _svg(text: str) -> Response:
    return Response(text, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


def _history(live: LiveTable, seat: int | None) -> History:
    """The past positions ``seat`` may see (the table's rule); 409 while hidden. A
    finished table's are worked out once (server/web/finished.py)."""
    try:
        if live.table.outcome is not None:
            return _histories.get((live.id, live.table.version, seat),
                                  lambda: live.table.history_for(seat))
        return live.table.history_for(seat)
    except TableError as error:
        raise ApiError(refusal_status(error), error.reason) from None


def _current(live: LiveTable, seat: int | None
             ) -> tuple[dict[str, Any], list[str], str, View]:
    """The state, the moves, the picture and the view, from one snapshot."""
    from fourfold.render.svg import draw_svg

    snapshot = live.table.snapshot(seat)
    state = state_json(live, seat, snapshot)
    picture = draw_svg(live.game, snapshot.view, last_move=snapshot.last_move,
                       outcome=snapshot.outcome, names=seat_names(live))
    return state, list(snapshot.moves), str(picture), snapshot.view


@router.get("/tables/{table_id}/screen", summary="Everything a page shows, at one version")
def get_screen(table_id: str, caller: Watcher) -> dict[str, Any]:
    live, seat = caller.live, caller.seat
    state, moves, picture, view = _current(live, seat)
    return {"type": "screen", "state": state, "moves": moves, "svg": picture,
            "choices": choices_json(live.game, view),
            "hints": _hints_allowed(live, seat) and state["outcome"] is None,
            "past_visible": live.table.shows_the_past(),
            **page_facts(live, view),
            "shared_ply": _shared.get(live.id)}


@router.get("/tables/{table_id}/picture", summary="The picture as you see it (or after ply N)",
            responses={200: {"content": {"image/svg+xml": {}}}})
def get_picture(table_id: str, caller: Watcher,
                ply: Annotated[int | None, Query(ge=0, le=100_000)] = None) -> Response:
    from fourfold.render.svg import draw_svg

    live, seat = caller.live, caller.seat
    if ply is None:
        return _svg(_current(live, seat)[2])
    history = _history(live, seat)
    plies = len(history.plies) - 1
    if ply > plies:
        raise ApiError(422, f"the game has {plies} plies, not {ply}")
    game = live.game
    here = history.plies[ply]
    last = None
    if ply:
        try:  # the move read from the view it was made on, to mark it
            last = game.view_parse_move(history.plies[ply - 1].view, here.move or "")
        except (FourfoldError, ValueError, KeyError, IndexError):
            last = None
    ended = history.declared if ply == plies else None
    return _svg(str(draw_svg(game, here.view, last_move=last, outcome=ended,
                             names=seat_names(live))))


@router.get("/tables/{table_id}/replay", summary="Every position, for stepping through")
def get_replay(table_id: str, caller: Watcher) -> dict[str, Any]:
    live, seat = caller.live, caller.seat
    if live.table.outcome is not None:  # it never changes: worked out once
        body = _replays.get((live.id, live.table.version, seat),
                            lambda: _replay(live, seat))
    else:
        body = _replay(live, seat)
    return {**body, "shared_ply": _shared.get(live.id), "you": seat}


def _replay(live: LiveTable, seat: int | None) -> dict[str, Any]:
    """The replay's answer, but for the caller's ``you`` and the shared replay's ply."""
    history = _history(live, seat)
    game = live.game
    outcome = history.outcome
    positions = [game.view_position(p.view) for p in history.plies]
    if outcome is not None and len(history.plies) == live.table.plies + 1:
        # a finished game hides nothing: its positions are the referee's, replayed from
        # its record as the analysis does, so that one can be opened as a new game
        replayed = Match.from_record(live.table.referee_record())
        if len(replayed.states) == len(positions):
            positions = [game.format_position(state) for state in replayed.states]
    plies = [{"ply": p.ply, "move": p.move, "position": position, "to_move": p.to_move,
              "by": p.by} for p, position in zip(history.plies, positions, strict=True)]
    return {"type": "replay", "id": live.id, "game": game.name,
            "variant": game.info.variant, "options": dict(game.info.option_strings()),
            "players": list(history.players), "seats": seats_json(live),
            "finished": outcome is not None,
            "outcome": None if outcome is None else {
                "result": outcome.result.value, "winner": outcome.winner,
                "reason": outcome.reason},
            "plies": plies}


class SharedStep(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    ply: int = Field(ge=0, le=100_000)


@router.post("/tables/{table_id}/replay", summary="Move the table's shared replay")
def post_replay(table_id: str, body: SharedStep, caller: Seated) -> dict[str, Any]:
    live, seat = caller.live, caller.seat
    if live.table.outcome is None:
        raise ApiError(409, "the shared replay opens once the game is over")
    plies = live.table.plies
    if body.ply > plies:
        raise ApiError(422, f"the game has {plies} plies, not {body.ply}")
    _shared.set(live.id, body.ply)
    live.broadcast(dumps({"type": "replay", "ply": body.ply, "seat": seat}))
    return {"ok": True, "ply": body.ply}


@router.get("/tables/{table_id}/hint", summary="Hints, in games against bots only")
async def get_hint(table_id: str, request: Request, credentials: Credentials
                   ) -> JSONResponse:
    """The checks run on a worker thread, the solver in the bounded job pool
    (server/jobs.py): one hint at a time per seat and per address, 429 or 503 with
    ``Retry-After`` past that."""
    token = token_of(credentials)
    charge(request, token)
    host = request.client.host if request.client else None
    owners = ["s:" + token_hash(token or ""), address_key(host)]
    jobs: JobPool = request.app.state.jobs
    jobs.check(owners)  # a flood is refused here, on the loop, before any work
    live, seat, view = await run_in_threadpool(_hint_request, request, table_id, token)
    args = (live.game, seat, view, live.table.version, live.seed)
    future = jobs.submit(owners, lambda: jobs.compute(hint_for, *args))
    return JSONResponse(await asyncio.wrap_future(future))


def _hint_request(request: Request, table_id: str, token: str | None
                  ) -> tuple[LiveTable, int, Any]:
    caller: Caller = caller_of(request, table_id, token)
    live, seat = caller.live, caller.seat
    if seat is None:
        raise ApiError(403, "hints are for a seat's holder: send your token")
    if request.app.state.daily.is_daily(live.id):
        raise ApiError(403, "no hints at a table of the daily deal: its players race the"
                            " other tables on their own")
    if not _hints_allowed(live, seat):
        raise ApiError(403, "hints are only for games against bots, never between people")
    table = live.table
    if table.outcome is not None:
        raise ApiError(409, "the game is over: see the analysis instead")
    game = live.game
    view = table.snapshot(seat).view
    if not game.view_legal_moves(view):
        raise ApiError(409, "it is not your turn")
    return live, seat, view


# -- games -----------------------------------------------------------------------------------

def _spec(game: str) -> Any:
    if game not in game_names():
        raise ApiError(404, f"there is no game {game[:40]!r}; the games are "
                            + ", ".join(game_names()))
    return get_spec(game)


@router.get("/games/{game}/rules", summary="A game's rules text (Markdown) and rulings")
def get_rules(game: str, variant: Annotated[str | None, Query(max_length=40)] = None
              ) -> dict[str, Any]:
    spec = _spec(game)
    names = [v.name for v in spec.variants if not v.unavailable]
    if variant is not None and variant not in names:
        raise ApiError(422, f"{game} has no variant {variant!r}; its variants are "
                            + ", ".join(names))
    text = spec.rules_text(variant)
    rulings = [p.strip() for p in text.split("\n\n") if p.lstrip().startswith("**Ruling")]
    return {"type": "rules", "game": game, "title": spec.title, "variant": variant,
            "variants": names, "text": text, "rulings": rulings}


@router.get("/games/{game}/picture", summary="A variant's start position as a picture",
            responses={200: {"content": {"image/svg+xml": {}}}})
def get_start_picture(game: str, variant: Annotated[str | None, Query(max_length=40)] = None
                      ) -> Response:
    _spec(game)
    try:
        return _svg(_start_picture(game, variant))
    except FourfoldError as error:
        raise ApiError(422, str(error)) from None


@lru_cache(maxsize=64)
def _start_picture(game: str, variant: str | None) -> str:
    """A variant's start, drawn once (tens of milliseconds each time otherwise); only
    known variants are kept (a refused one raises, and is not cached)."""
    from fourfold.core.registry import load
    from fourfold.render.svg import draw_svg

    configured = load(game, variant)
    state = configured.initial_state(1)
    return str(draw_svg(configured, configured.view(state, None)))
