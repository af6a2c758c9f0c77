"""``/api/daily``: today's daily deals, their leaderboards, and a table dealt one; and
the ``/daily`` page of the browser app.

A daily table is made like any table (seats ``human``, ``open`` or ``bot:LEVEL``; at
most one ``human``: its creator's own link, every other person takes an ``open`` seat
with a request of their own), but its deal is the day's (``DailyStore`` and
``deal_seed``), never a seed or set-up of its creator's, so it is never a known deal.
Its deal is stored only in its record (as every secret deal is); until the day ends
nobody but its players may look at it (``DailyDeals.sealed``, asked by every route
that shows a table to a spectator). Each person seat's client address is kept as a
keyed hash (``DailyDeals.seated``; joins are noted by ``post_join``), and ``GET
/api/tables/{id}/daily`` tells the table's players whether it is ranked, or why not
(board.py).
"""

from __future__ import annotations

import functools
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import Field

from fourfold.ai import bot_names, make_bot
from fourfold.ai.game_bots import game_bots
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.server.access import ApiError, Seated, charge, hub_of
from fourfold.server.api import _created, _new_row, _seat_specs, _table_slots
from fourfold.server.daily import DailyDeals
from fourfold.server.daily.clock import day_end, parse_day
from fourfold.server.daily.deal import (
    DailyKind,
    daily_game,
    daily_kind,
    daily_kinds,
    deal_seed,
)
from fourfold.server.limits import address_key
from fourfold.server.schemas import Created, SeatEntry, Strict
from fourfold.server.specs import HUMAN, OPEN

router = APIRouter()
NAME = r"^[a-z0-9_-]{1,40}$"


class DailyTableBody(Strict):
    seats: list[str | SeatEntry] = Field(
        min_length=1, max_length=8, examples=[["human", "open", "bot:quatrefoil", "open"]],
        description="per seat: 'human' (a link now: at most one, the creator's own),"
                    " 'open' (taken from the lobby by another person), 'bot:LEVEL'; or"
                    " {'player': ..., 'name': ...}")
    private: bool = Field(default=False, description="keep it out of the lobby (a table"
                          " with no open seat always is)")


def daily_of(request: Request) -> DailyDeals:
    deals: DailyDeals = request.app.state.daily
    return deals


@router.get("/daily", include_in_schema=False)
def daily_page() -> HTMLResponse:
    from fourfold.server.web.pages import _shell

    return _shell()


@router.get("/api/daily", summary="Today's daily deals (UTC), with their counts")
def get_daily(request: Request) -> dict[str, Any]:
    charge(request, None)
    deals = daily_of(request)
    day = deals.clock.today()
    listing = []
    for kind in daily_kinds():
        board = deals.boards.board(kind, day)
        listing.append({"game": kind.game, "variant": kind.variant, "title": kind.title,
                        "summary": kind.summary, "bots": _bots(kind),
                        **{k: board[k] for k in ("tables", "playing", "finished", "solved")}})
    return {"day": day, "ends_at": day_end(day), "deals": listing}


@functools.cache
def _bots(kind: DailyKind) -> list[str]:
    """The bots that may take a seat: the game's own first (the page's default), then
    the rest of ``fourfold bots`` that can play it (the two-player bots cannot)."""
    game = daily_game(kind)
    own = list(game_bots(game).named)
    return [b for b in own + [b for b in bot_names() if b not in own] if _plays(b, game)]


def _plays(bot: str, game: Game[Any, Any]) -> bool:
    """Whether ``bot`` can be built for ``game`` (building one is cheap: no search)."""
    try:
        make_bot(bot, game, 1, seed=0)
    except FourfoldError:
        return False
    return True


@router.get("/api/daily/{game}/{variant}", summary="A daily deal's leaderboard: counts and"
            " ranks during its day; tables, lines and the deal once it is over")
def get_board(request: Request, game: str, variant: str,
              day: Annotated[str | None, Query(max_length=10)] = None) -> dict[str, Any]:
    charge(request, None)
    deals = daily_of(request)
    today = deals.clock.today()
    try:
        kind = daily_kind(game, variant)
    except FourfoldError as error:
        raise ApiError(404, str(error)) from None
    chosen = day or today
    try:
        parse_day(chosen)
    except FourfoldError as error:
        raise ApiError(422, f"day: {error}") from None
    if chosen > today:
        raise ApiError(404, f"{chosen} has not begun (today is {today}, UTC)")
    return deals.boards.board(kind, chosen)


@router.post("/api/daily/{game}/{variant}", status_code=201, response_model=Created,
             summary="A table dealt today's daily deal")
def post_daily_table(request: Request, game: str, variant: str, body: DailyTableBody
                     ) -> dict[str, Any]:
    charge(request, None)
    hub = hub_of(request)
    deals = daily_of(request)
    try:
        kind = daily_kind(game, variant)
    except FourfoldError as error:
        raise ApiError(404, str(error)) from None
    day = deals.clock.today()
    try:
        played = daily_game(kind)
        start = played.initial_state(deal_seed(deals.store.secret(), kind, day))
        specs = _seat_specs(played, body.seats)
        if not any(s.kind in (HUMAN, OPEN) for s in specs):
            raise ApiError(422, "a daily table needs at least one person (a 'human' or"
                                " 'open' seat): the leaderboard is for people")
        humans = sum(s.kind == HUMAN for s in specs)
        if humans > 1:
            raise ApiError(422, f"a daily table has at most one 'human' seat, not {humans}:"
                                " the creator's own; every other person takes an 'open'"
                                " seat from the lobby with a request of their own")
        match: Match[Any, Any] = Match(played, start, [s.name for s in specs])
        private = body.private or not any(s.kind == OPEN for s in specs)
        with _table_slots(request, specs, private=private) as bind:
            # no seed stored and never a known deal: the players do not know it
            row = _new_row(hub, match, specs, private=private, seed=None, known_deal=False,
                           clock=None)
            tokens = {p: hub.minter.token() for p, s in enumerate(specs) if s.kind == HUMAN}
            deals.store.add(row["id"], kind, day)
            try:
                host = request.client.host if request.client else None
                for p, s in enumerate(specs):
                    if s.kind == HUMAN:
                        deals.store.seated(row["id"], p, address_key(host))
                live = hub.add(row, tokens, match)
            except BaseException:
                deals.store.remove(row["id"])
                raise
            bind(live.id)
    except FourfoldError as error:
        raise ApiError(422, str(error)) from None
    return _created(live, tokens)


@router.get("/api/tables/{table_id}/daily", summary="Whether this daily table counts on"
            " its leaderboard, its rank, or why not (its players only)")
def get_standing(caller: Seated, request: Request) -> dict[str, Any]:
    deals = daily_of(request)
    table_id = caller.live.id
    day = deals.store.day_of(table_id)
    if day is None:
        raise ApiError(404, "this table was not dealt a daily deal")
    game = caller.live.game
    try:
        kind = daily_kind(game.name, game.info.variant)
    except FourfoldError as error:
        raise ApiError(404, str(error)) from None
    return deals.boards.standing(kind, day, table_id)
