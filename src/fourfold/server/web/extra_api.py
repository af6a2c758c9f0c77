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
import threading
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from fourfold.core.errors import FourfoldError
from fourfold.core.game import View
from fourfold.core.registry import game_names, get_spec
from fourfold.server.api import ApiError, Credentials, _limit, hub_of
from fourfold.server.hints import hint_for
from fourfold.server.jobs import JobPool
from fourfold.server.limits import address_key
from fourfold.server.live import LiveTable, dumps
from fourfold.server.protocol import state_json
from fourfold.server.tokens import token_hash
from fourfold.server.web.screens import hints_allowed as _hints_allowed
from fourfold.server.web.screens import page_facts
from fourfold.wire.choices import choices_json

router = APIRouter(prefix="/api", tags=["browser app"])

#: the shared replay's ply per finished table (in memory: a replay is a passing thing)
_shared: dict[str, int] = {}
_shared_lock = threading.Lock()


def _token(credentials: Any) -> str | None:
    if credentials is None or not credentials.credentials:
        return None
    return str(credentials.credentials)[:200]


def _live(request: Request, table_id: str, credentials: Any) -> tuple[LiveTable, int | None]:
    """The table and the caller's seat (``None``: a spectator); 403 for a bad token."""
    token = _token(credentials)
    _limit(request, token)
    return _find(request, table_id, token)


def _find(request: Request, table_id: str, token: str | None
          ) -> tuple[LiveTable, int | None]:
    live = hub_of(request).get(table_id[:64])
    if live is None:
        raise ApiError(404, f"there is no table {table_id[:40]!r}")
    if token is None:
        return live, None
    digest = token_hash(token)
    seat = live.seat_for(digest)
    if seat is None:
        raise ApiError(403, "this token holds no seat at this table")
    request.app.state.limits.admit(digest)
    return live, seat


def _svg(text: str) -> Response:
    return Response(text, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


def _past_visible(live: LiveTable) -> bool:
    return live.table.outcome is not None or live.game.info.spec.perfect_information


def _current(live: LiveTable, seat: int | None
             ) -> tuple[dict[str, Any], list[str], str, View]:
    """The state, the moves, the picture and the view, taken at one version."""
    from fourfold.render.svg import draw_svg

    table = live.table
    for _ in range(5):
        state = state_json(live, seat)
        match = table.match
        last = match.moves[-1] if match.moves else None
        moves = list(match.record_for(seat).moves)
        event = table.snapshot(seat)
        picture = draw_svg(live.game, event.view, last_move=last, outcome=table.outcome)
        if event.version == state["version"] == table.version:
            break
    return state, moves, str(picture), event.view


@router.get("/tables/{table_id}/screen", summary="Everything a page shows, at one version")
def get_screen(table_id: str, request: Request, credentials: Credentials) -> dict[str, Any]:
    live, seat = _live(request, table_id, credentials)
    state, moves, picture, view = _current(live, seat)
    return {"type": "screen", "state": state, "moves": moves, "svg": picture,
            "choices": choices_json(live.game, view),
            "hints": _hints_allowed(live, seat) and state["outcome"] is None,
            "past_visible": _past_visible(live),
            **page_facts(live, view),
            "shared_ply": _shared.get(live.id)}


@router.get("/tables/{table_id}/picture", summary="The picture as you see it (or after ply N)",
            responses={200: {"content": {"image/svg+xml": {}}}})
def get_picture(table_id: str, request: Request, credentials: Credentials,
                ply: Annotated[int | None, Query(ge=0, le=100_000)] = None) -> Response:
    from fourfold.render.svg import draw_svg

    live, seat = _live(request, table_id, credentials)
    if ply is None:
        return _svg(_current(live, seat)[2])
    if not _past_visible(live):
        raise ApiError(409, "earlier positions of a game with hidden cards are shown once"
                            " it is over")
    match = live.table.match
    if ply > len(match.moves):
        raise ApiError(422, f"the game has {len(match.moves)} plies, not {ply}")
    game = live.game
    state = match.states[ply]
    last = match.moves[ply - 1] if ply else None
    ended = match.declared if ply == len(match.moves) else None
    view = game.revealed_view(state, seat) if live.table.outcome is not None \
        else game.view(state, seat)
    return _svg(str(draw_svg(game, view, last_move=last, outcome=ended)))


@router.get("/tables/{table_id}/replay", summary="Every position, for stepping through")
def get_replay(table_id: str, request: Request, credentials: Credentials) -> dict[str, Any]:
    live, seat = _live(request, table_id, credentials)
    if not _past_visible(live):
        raise ApiError(409, "the replay of a game with hidden cards opens once it is over")
    match = live.table.match
    game = live.game
    plies = []
    for i, state in enumerate(match.states):
        plies.append({"ply": i, "move": match.notation[i - 1] if i else None,
                      "position": game.format_position(state),
                      "to_move": None if game.outcome(state) else game.to_move(state),
                      "by": game.to_move(match.states[i - 1]) if i else None})
    outcome = live.table.outcome
    return {"type": "replay", "id": live.id, "game": game.name,
            "variant": game.info.variant, "options": dict(game.info.option_strings()),
            "players": list(match.players), "finished": outcome is not None,
            "outcome": None if outcome is None else {
                "result": outcome.result.value, "winner": outcome.winner,
                "reason": outcome.reason},
            "plies": plies, "shared_ply": _shared.get(live.id), "you": seat}


class SharedStep(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    ply: int = Field(ge=0, le=100_000)


@router.post("/tables/{table_id}/replay", summary="Move the table's shared replay")
def post_replay(table_id: str, body: SharedStep, request: Request,
                credentials: Credentials) -> dict[str, Any]:
    live, seat = _live(request, table_id, credentials)
    if seat is None:
        raise ApiError(403, "only a seat at this table moves its shared replay")
    if live.table.outcome is None:
        raise ApiError(409, "the shared replay opens once the game is over")
    if body.ply > len(live.table.match.moves):
        raise ApiError(422, f"the game has {len(live.table.match.moves)} plies, not"
                            f" {body.ply}")
    with _shared_lock:
        _shared[live.id] = body.ply
    live.broadcast(dumps({"type": "replay", "ply": body.ply, "seat": seat}))
    return {"ok": True, "ply": body.ply}


@router.get("/tables/{table_id}/hint", summary="Hints, in games against bots only")
async def get_hint(table_id: str, request: Request, credentials: Credentials
                   ) -> JSONResponse:
    """The checks run on a worker thread, the solver in the bounded job pool
    (server/jobs.py): one hint at a time per seat and per address, 429 or 503 with
    ``Retry-After`` past that."""
    token = _token(credentials)
    _limit(request, token)
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
    live, seat = _find(request, table_id, token)
    if seat is None:
        raise ApiError(403, "hints are for a seat's holder: send your token")
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
    from fourfold.core.registry import load
    from fourfold.render.svg import draw_svg

    _spec(game)
    try:
        configured = load(game, variant)
    except FourfoldError as error:
        raise ApiError(422, str(error)) from None
    state = configured.initial_state(1)
    return _svg(str(draw_svg(configured, configured.view(state, None))))
