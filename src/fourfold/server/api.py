"""The REST API (``/api``): tables, moves, offers, records, imports, analysis.

Every handler is a plain function (FastAPI runs it on a worker thread), so a save to
the database never blocks the event loop. A refused request changes nothing and says
why in words: ``{"type": "refused", "status": 409, "error": "..."}``.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from fourfold.ai import bot_names, bots_for
from fourfold.core.errors import FourfoldError
from fourfold.core.match import Match
from fourfold.core.record import format_record, parse_record
from fourfold.core.registry import game_names, get_spec, load
from fourfold.core.spec import Utility
from fourfold.server.access import (
    ApiError,
    Caller,
    Seated,
    Watcher,
    charge,
    check_watchable,
    find_table,
    hub_of,
)
from fourfold.server.hub import Hub
from fourfold.server.limits import Allowance, address_key
from fourfold.server.live import LiveTable, dumps
from fourfold.server.protocol import (
    refusal_status,
    seat_url,
    state_json,
)
from fourfold.server.schemas import (
    AnswerBody,
    Created,
    CreateTable,
    Done,
    ImportBody,
    JoinBody,
    Joined,
    MoveBody,
    OfferBody,
    SeatEntry,
    VersionBody,
)
from fourfold.server.specs import (
    BOT,
    HUMAN,
    OPEN,
    SeatSpec,
    check_clock,
    configured_game,
    display_name,
    parse_seat,
)
from fourfold.server.tokens import deal_seed
from fourfold.server.web.controllers import controller_url
from fourfold.table import TableError
from fourfold.wire import record_to_json

#: a game with a bot left this long without a move stops counting against its address
#: (its bot waits for a person and costs nothing)
BOT_TABLE_IDLE_SECONDS = 600.0
#: a table still waiting for players stops counting against its address (for the cap
#: on tables of people and the lobby's) once nothing happened at it for this long: its
#: creator cannot end it (no action is taken before every seat is), so this gives a
#: slot back to someone whose table nobody joined
OPEN_TABLE_IDLE_SECONDS = 3600.0
#: Retry-After of a refusal by a cap (seconds): a slot comes back when a game ends
CAP_RETRY_SECONDS = 30
#: the most moves an imported record may hold: it is replayed move by move, and a
#: rules check may grow with the game's length (a Dao game of 5,600 plies, 66 KB of
#: record, took 9 s to replay: its repetition count walks the whole history)
MAX_IMPORT_PLIES = 500


@dataclass(frozen=True)
class _Counted:
    """What the caps on tables per address ask of a table."""

    unfinished: bool
    playing: bool
    updated_at: float


def _counted(hub: Hub, table_id: str) -> _Counted | None:
    """The table as this instance holds it, or as stored when it is not held here (or
    its copy is stale): with several instances, an address's tables may be run by any
    of them, and each counts against it wherever it asks (server/shared_limits.py)."""
    live = hub.find(table_id)
    if live is not None and not live.stale:
        return _Counted(live.status in ("open", "live") and live.table.outcome is None,
                        live.playing, live.updated_at)
    row = hub.repo.load(table_id)
    if row is None:
        return None
    return _Counted(row.status in ("open", "live"),
                    all(SeatSpec.from_json(s).kind != OPEN for s in row.seats), row.updated_at)


def _waiting(table: _Counted, now: float) -> bool:
    """A table with an open seat that still counts (see ``OPEN_TABLE_IDLE_SECONDS``)."""
    return not table.playing and now - table.updated_at < OPEN_TABLE_IDLE_SECONDS


def _too_many_tables(creations: Allowance) -> ApiError:
    return ApiError(429, f"too many new tables from your address: at most"
                         f" {creations.rate * 60:g} a minute (so that no one can fill the"
                         " server); wait a few seconds",
                    retry_after=max(1, math.ceil(1 / creations.rate)))


def _people_alive(hub: Hub) -> Callable[[str], bool]:
    """Does a table still count for the cap on tables of people (unfinished, and if
    still waiting for players, changed in the last hour)?"""
    def alive(table_id: str) -> bool:
        table = _counted(hub, table_id)
        return table is not None and table.unfinished and (
            table.playing or _waiting(table, time.time()))

    return alive


def _people_refusal(limit: int) -> str:
    return (f"you already have {limit} unfinished games between people here (at most"
            f" {limit} at once from one address, so that no one can fill the server):"
            " finish or resign one first; a table nobody joined stops counting an hour"
            " after its last change")


@contextmanager
def _table_slots(request: Request, specs: list[SeatSpec], *, private: bool
                 ) -> Iterator[Callable[[str], None]]:
    """While a table is made (created, imported, rematched, a daily deal's): hold the
    slots its client address's caps give it, refusing with 429 when one is full, and
    charge its address's allowance of new tables. Yields the function that ties the
    slots to the new table's id. The caps (per address, ``TableSlots``):

    - a table with a bot seat: one of ``--max-bot-tables-per-address`` (unfinished
      games with a bot that moved in the last ten minutes);
    - a table of people only: one of ``--max-tables-per-address`` (unfinished games;
      one still waiting for players counts for an hour after its last change; a seat
      taken at someone else's table counts too, ``post_join``);
    - a public table of people only (a row of the lobby, which lists the latest
      changed first): one of ``--max-lobby-tables-per-address`` (unfinished tables
      changed in the last hour);
    - every new table: ``--tables-per-minute`` (a table made and resigned at once
      costs no slot, but still a row and memory until it is forgotten).
    """
    hub = hub_of(request)
    state = request.app.state
    host = request.client.host if request.client else None
    key = address_key(host)

    def bots_alive(table_id: str) -> bool:
        table = _counted(hub, table_id)
        return (table is not None and table.unfinished
                and time.time() - table.updated_at < BOT_TABLE_IDLE_SECONDS)

    people_alive = _people_alive(hub)

    def lobby_alive(table_id: str) -> bool:  # the lobby's top rows: changed lately
        table = _counted(hub, table_id)
        return table is not None and table.unfinished and \
            time.time() - table.updated_at < OPEN_TABLE_IDLE_SECONDS

    caps: list[tuple[Any, Callable[[str], bool], str]] = []
    has_bot = any(s.kind == BOT for s in specs)
    if has_bot:
        limit = state.bot_tables.limit
        idle = round(BOT_TABLE_IDLE_SECONDS / 60)
        caps.append((state.bot_tables, bots_alive,
                     f"you already have {limit} unfinished games with bots here (at most"
                     f" {limit} at once from one address, so that no one can keep every"
                     f" bot busy): finish or resign one first (a game left for {idle}"
                     " minutes stops counting)"))
    else:
        limit = state.people_tables.limit
        caps.append((state.people_tables, people_alive, _people_refusal(limit)))
    if not private and not has_bot:  # a row of the lobby while it is unfinished
        # (a game with a bot is bounded by the cap on games with bots: a player who
        # starts a few games against bots never reads that the lobby is full)
        limit = state.lobby_tables.limit
        caps.append((state.lobby_tables, lobby_alive,
                     f"you already have {limit} tables in the lobby (at most {limit} from one"
                     " address, so that the lobby shows everyone's): make this one private"
                     " and send its link, or finish one first (a table leaves this count"
                     " an hour after its last change)"))
    slots = []
    try:
        for cap, alive, refusal in caps:
            slot = cap.reserve(key, alive)
            if slot is None:
                raise ApiError(429, refusal, retry_after=CAP_RETRY_SECONDS)
            slots.append(slot)
        creations: Allowance = state.creations
        if not creations.allow(key):
            raise _too_many_tables(creations)

        def bind(table_id: str) -> None:
            for slot in slots:
                slot.bind(table_id)

        yield bind
    finally:
        for slot in slots:
            slot.release()


def _acting(caller: Caller) -> tuple[LiveTable, int]:
    """A seat's holder about to act: the table must be open to actions."""
    live, seat = caller.live, caller.seat
    assert seat is not None  # ``Seated``
    try:
        live.act(lambda _: live.check_open())
    except TableError as error:
        raise ApiError(refusal_status(error), error.reason) from None
    return live, seat


def _done(live: LiveTable, seat: int, text: str) -> dict[str, Any]:
    return {"ok": True, "text": text, "state": state_json(live, seat)}


def _refused(error: TableError) -> ApiError:
    return ApiError(refusal_status(error), error.reason)


def _seat_specs(game: Any, entries: list[str | SeatEntry]) -> list[SeatSpec]:
    if len(entries) != game.num_players:
        raise ApiError(422, f"{game.name} has {game.num_players} seats; 'seats' lists"
                            f" {len(entries)}")
    specs = []
    for p, entry in enumerate(entries):
        player, name = (entry, None) if isinstance(entry, str) else (entry.player, entry.name)
        specs.append(parse_seat(game, p, player, name))
    return specs


def _new_row(hub: Hub, match: Match[Any, Any], specs: list[SeatSpec], *, private: bool,
             seed: int | None, known_deal: bool, clock: Any, version: int = 0,
             rematch_of: str | None = None) -> dict[str, Any]:
    """A new table's row. ``seed``: the deal's seed if its creator chose one;
    ``known_deal``: the creator chose the deal (never ranked). The bots' choices and
    their pauses get streams of their own (``Minter``), never the deal's."""
    game = match.game
    now = time.time()
    if match.outcome is not None:
        status = "finished"
    else:
        status = "open" if any(s.kind == OPEN for s in specs) else "live"
    return {
        "id": hub.minter.table_id(), "game": game.name, "variant": game.info.variant,
        "options": dict(game.info.option_strings()), "status": status, "private": private,
        "version": version, "record": format_record(match.referee_record()),
        "seats": [s.to_json() for s in specs], "seed": seed,
        "clock_base": None if clock is None else clock.base,
        "clock_increment": None if clock is None else clock.increment,
        "clock_left": (), "shared_elapsed": 0.0, "clock_saved_at": now, "created_at": now,
        "updated_at": now, "rematch_of": rematch_of, "rematch_id": None,
        "known_deal": known_deal, "bot_seed": hub.minter.bot_seed(),
        "pause_seed": hub.minter.pause_seed(),
    }


def _created(live: LiveTable, tokens: dict[int, str], you: int | None = None
             ) -> dict[str, Any]:
    return {"id": live.id, "url": seat_url(live), "you": you,
            "seats": [{"seat": p, "token": tokens.get(p),
                       "url": seat_url(live, tokens.get(p))} for p in range(len(live.seats))]}


router = APIRouter(prefix="/api")


@router.get("/health", summary="Is the server up")
def health() -> dict[str, Any]:
    return {"ok": True}


@functools.cache
def _bots_of(name: str, variant: str) -> tuple[str, ...]:
    """The bots that can take a seat of the variant (with its default options)."""
    return tuple(bots_for(load(name, variant)))


def warm_lobby() -> None:
    """Work out every variant's bots ahead of the first ``GET /api/games`` (the server's
    warm-up): making each bot once to see whether it plays the game took about 1.6 s of
    CPU, which the first visitor of a new process waited for."""
    for name in game_names():
        for variant in get_spec(name).variants:
            if not variant.unavailable:
                _bots_of(name, variant.name)


@router.get("/games", summary="Games, variants, options and bots")
def games() -> dict[str, Any]:
    listing = []
    for name in game_names():
        spec = get_spec(name)
        listing.append({
            "game": name, "title": spec.title, "players": spec.num_players,
            "variants": [{"variant": v.name, "summary": v.summary,
                          "browser": controller_url(spec, v.name),
                          "bots": list(_bots_of(name, v.name)),
                          "options": [{"option": o.name, "default": o.format(o.default),
                                       "choices": list(o.choices), "help": o.help}
                                      for o in spec.options + v.options]}
                         for v in spec.variants if not v.unavailable]})
    return {"games": listing, "bots": bot_names()}


@router.post("/tables", status_code=201, response_model=Created,
             summary="Create a table")
def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
    charge(request, None)
    hub = hub_of(request)
    try:
        game = configured_game(body.game, body.variant, dict(body.options))
        if body.seed is not None and body.setup is not None:
            raise ApiError(422, "give a seed or a setup, not both")
        # the deal is a secret (``secrets``) unless the creator chose it
        known_deal = body.seed is not None or body.setup is not None
        start = game.parse_position(body.setup) if body.setup is not None else \
            game.initial_state(body.seed if body.seed is not None else deal_seed())
        specs = _seat_specs(game, body.seats)
        clock = None if body.clock is None else check_clock(game, body.clock.base,
                                                            body.clock.increment)
        match: Match[Any, Any] = Match(game, start, [s.name for s in specs])
        with _table_slots(request, specs, private=body.private) as bind:
            row = _new_row(hub, match, specs, private=body.private, seed=body.seed,
                           known_deal=known_deal, clock=clock)
            tokens = {p: hub.minter.token() for p, s in enumerate(specs) if s.kind == HUMAN}
            live = hub.add(row, tokens, match)
            bind(live.id)
    except FourfoldError as error:
        raise ApiError(422, str(error)) from None
    return _created(live, tokens)


@router.get("/lobby", summary="Tables anyone may join or watch")
def lobby(request: Request) -> dict[str, Any]:
    charge(request, None)
    rows = hub_of(request).repo.lobby(200)
    return {"tables": [{
        "id": r.id, "url": f"/t/{r.id}", "game": r.game, "variant": r.variant,
        "options": r.options, "status": r.status, "version": r.version,
        "seats": [{"seat": p, "name": s["name"], "kind": s["kind"], "bot": s["bot"]}
                  for p, s in enumerate(r.seats)],
        "open_seats": [p for p, s in enumerate(r.seats) if s["kind"] == OPEN],
        "clock": None if r.clock_base is None else {"base": r.clock_base,
                                                    "increment": r.clock_increment},
        "known_deal": r.known_deal, "updated_at": r.updated_at} for r in rows]}


@router.get("/tables/{table_id}", summary="The table as your seat (or a spectator) sees it")
def get_table(table_id: str, caller: Watcher) -> dict[str, Any]:
    return state_json(caller.live, caller.seat)


@router.post("/tables/{table_id}/moves", response_model=Done, summary="Make a move")
def post_move(table_id: str, body: MoveBody, caller: Seated
              ) -> dict[str, Any]:
    live, seat = _acting(caller)
    try:
        text = live.act(lambda table: table.play(seat, body.move, body.version))
    except TableError as error:
        raise _refused(error) from None
    return _done(live, seat, f"played {text}")


@router.post("/tables/{table_id}/resign", response_model=Done, summary="Resign")
def post_resign(table_id: str, body: VersionBody, caller: Seated
                ) -> dict[str, Any]:
    live, seat = _acting(caller)
    try:
        live.act(lambda table: table.resign(seat, body.version))
    except TableError as error:
        raise _refused(error) from None
    return _done(live, seat, "resigned")


@router.post("/tables/{table_id}/offer", response_model=Done,
             summary="Offer a draw or ask to undo")
def post_offer(table_id: str, body: OfferBody, caller: Seated) -> dict[str, Any]:
    live, seat = _acting(caller)
    try:
        text = live.act(lambda table: table.offer(seat, body.offer, body.version))
    except TableError as error:
        raise _refused(error) from None
    return _done(live, seat, text)


@router.post("/tables/{table_id}/answer", response_model=Done, summary="Answer an offer")
def post_answer(table_id: str, body: AnswerBody, caller: Seated
                ) -> dict[str, Any]:
    live, seat = _acting(caller)
    try:
        text = live.act(lambda table: table.answer(seat, body.accept))
    except TableError as error:
        raise _refused(error) from None
    return _done(live, seat, text)


@router.post("/tables/{table_id}/join", response_model=Joined, status_code=201,
             summary="Take an open seat")
def post_join(table_id: str, request: Request, body: JoinBody | None = None
              ) -> dict[str, Any]:
    charge(request, None)
    data = body or JoinBody()
    hub = hub_of(request)
    live = find_table(hub, table_id)
    # a seat taken is a game played: it counts against the joiner's address like a
    # table it made, or one address could sit at every open table and stall them all
    host = request.client.host if request.client else None
    caps = request.app.state.people_tables
    slot = caps.reserve(address_key(host), _people_alive(hub))
    if slot is None:
        raise ApiError(429, _people_refusal(caps.limit), retry_after=CAP_RETRY_SECONDS)
    try:
        name = display_name(data.name) if data.name else None
        # a daily table keeps who took each seat (its leaderboard's checks, server/daily),
        # saved in the join's own transaction: the seat and its address, or neither
        noted = request.app.state.daily.join_rows(live.id, address_key(host))
        seat, token = live.join(data.seat, name, noted)
        slot.bind(live.id)
    except TableError as error:
        if error.kind == "save":
            raise ApiError(503, f"the seat was not taken (it is still open): {error.reason};"
                                " try again in a moment") from None
        raise _refused(error) from None
    except FourfoldError as error:
        raise ApiError(422, str(error)) from None
    finally:
        slot.release()
    return {"seat": seat, "token": token, "url": seat_url(live, token)}


@router.post("/tables/{table_id}/rematch", response_model=Created, status_code=201,
             summary="The same people again: sides swapped, or the same seats and a new"
             " deal in a cooperative game")
def post_rematch(table_id: str, request: Request, caller: Seated) -> dict[str, Any]:
    hub = hub_of(request)
    live, seat = caller.live, caller.seat
    assert seat is not None
    if live.table.outcome is None:
        raise ApiError(409, "a rematch is for a finished game")
    n = len(live.seats)
    # sides swap in a contest; a team plays again from the same seats, with a new deal
    shift = 0 if live.game.info.spec.utility is Utility.COOPERATIVE else 1
    with live.lock:
        if live.rematch_id is None:
            game = live.game
            specs = [live.seats[(q + shift) % n] for q in range(n)]
            match: Match[Any, Any] = Match(game, game.initial_state(deal_seed()),
                                           [s.name for s in specs])
            with _table_slots(request, specs, private=live.private) as bind:
                row = _new_row(hub, match, specs, private=live.private, seed=None,
                               known_deal=False, clock=live.clock, rematch_of=live.id)
                hashes = {(p - shift) % n: digest for digest, p in live.tokens.items()}
                hub.repo.create(row, hashes)
                live.rematch_id = hub.repo.set_rematch(live.id, row["id"])
                bind(live.rematch_id)
            live.broadcast(dumps({"type": "rematch", "id": live.rematch_id,
                                  "url": f"/t/{live.rematch_id}"}))
    new = find_table(hub, live.rematch_id)
    new.timer.soon()
    return {"id": new.id, "url": seat_url(new), "you": (seat - shift) % n,
            "seats": [{"seat": p, "token": None, "url": seat_url(new)} for p in range(n)]}


@router.get("/tables/{table_id}/record", summary="The record, as you may see it",
            responses={200: {"content": {"text/plain": {}, "application/json": {}}}})
def get_record(table_id: str, caller: Watcher,
               format: Annotated[str, Query(pattern="^(text|json)$")] = "text"
               ) -> Response:
    live = caller.live
    record = live.table.record_for(caller.seat)
    if format == "json":
        return JSONResponse(record_to_json(record))
    return PlainTextResponse(format_record(record), headers={
        "Content-Disposition": f'attachment; filename="fourfold-{live.id}.txt"'})


@router.get("/tables/{table_id}/svg", summary="A picture of the table as you see it",
            responses={200: {"content": {"image/svg+xml": {}}}})
def get_svg(table_id: str, caller: Watcher) -> Response:
    from fourfold.render.svg import draw_svg
    from fourfold.server.web.screens import seat_names

    live = caller.live
    snapshot = live.table.snapshot(caller.seat)
    picture = draw_svg(live.game, snapshot.view, outcome=snapshot.outcome,
                       names=seat_names(live))
    return Response(str(picture), media_type="image/svg+xml")


@router.get("/tables/{table_id}/analysis", summary="Solver values of a finished game")
def get_analysis(table_id: str, request: Request) -> JSONResponse:
    from fourfold.server.analysis import analyse
    from fourfold.server.jobs import long_owner

    charge(request, None)
    live = find_table(hub_of(request), table_id)
    check_watchable(request.app.state, live)  # asked without a token: as a spectator
    host = request.client.host if request.client else None
    status, body = analyse(hub_of(request), live, request.app.state.jobs,
                           [long_owner(host)])
    return JSONResponse(body, status_code=status)


@router.post("/import", response_model=Created, status_code=201,
             summary="Make a table from a record",
             openapi_extra={"requestBody": {"content": {
                 "text/plain": {"schema": {"type": "string"}},
                 "application/json": {"schema": ImportBody.model_json_schema()}}}})
async def post_import(request: Request) -> JSONResponse:
    from starlette.concurrency import run_in_threadpool

    raw = await request.body()
    return await run_in_threadpool(_import, request, raw)


def _import(request: Request, raw: bytes) -> JSONResponse:
    charge(request, None)
    hub = hub_of(request)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(422, "the record is not UTF-8 text") from None
    seats: list[str | SeatEntry] | None = None
    private = False
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            body = ImportBody.model_validate_json(text)
        except ValueError as error:
            raise ApiError(422, _first_error(error)) from None
        text, seats, private = body.record, body.seats, body.private
    try:
        record = parse_record(text)
        if len(record.moves) > MAX_IMPORT_PLIES:
            raise ApiError(422, f"the record has {len(record.moves)} moves; at most"
                                f" {MAX_IMPORT_PLIES} can be imported here")
        # refused before the record is replayed (the costly part), not after
        host = request.client.host if request.client else None
        if not request.app.state.creations.ready(address_key(host)):
            raise _too_many_tables(request.app.state.creations)
        match = Match.from_record(record)
        game = match.game
        specs = _seat_specs(game, seats or [HUMAN] * game.num_players)
        for p, spec in enumerate(specs):
            if spec.kind == BOT and spec.name == spec.bot:
                specs[p] = SeatSpec(BOT, match.players[p], spec.bot)
            elif spec.kind != BOT:
                specs[p] = SeatSpec(spec.kind, match.players[p])
        version = len(match.moves) + (match.declared is not None)
        with _table_slots(request, specs, private=private) as bind:
            # the importer holds the whole record, deal included: a known deal
            row = _new_row(hub, match, specs, private=private, seed=None, known_deal=True,
                           clock=None, version=version)
            tokens = {p: hub.minter.token() for p, s in enumerate(specs) if s.kind == HUMAN}
            live = hub.add(row, tokens)
            bind(live.id)
    except FourfoldError as error:
        raise ApiError(422, str(error)) from None
    return JSONResponse(_created(live, tokens), status_code=201)


def _first_error(error: ValueError) -> str:
    errors = getattr(error, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            where = ".".join(str(x) for x in first.get("loc", ()))
            return f"{where}: {first.get('msg', 'invalid')}" if where else str(
                first.get("msg", "invalid"))
        except (IndexError, TypeError, KeyError):
            pass
    return str(error).splitlines()[0]

