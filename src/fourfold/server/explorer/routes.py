"""``/api/explore``: the games the explorer answers, and the value of every legal move
of a position (in the bounded job pool: one at a time per client address, 429 and 503
with ``Retry-After`` past that); and the ``/explore`` pages."""

from __future__ import annotations

import asyncio
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.concurrency import run_in_threadpool

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.registry import game_names, get_spec, load
from fourfold.server.access import ApiError, charge
from fourfold.server.explorer.work import explore_json
from fourfold.server.jobs import JobPool
from fourfold.server.limits import address_key
from fourfold.solve.position import solver_for

router = APIRouter(tags=["explorer"])


@router.get("/explore", include_in_schema=False)
@router.get("/explore/{game}", include_in_schema=False)
def explore_page(game: str | None = None) -> HTMLResponse:
    from fourfold.server.web.pages import _shell

    return _shell()


@lru_cache(maxsize=1)
def _explorable() -> tuple[dict[str, Any], ...]:
    found = []
    for name in game_names():
        spec = get_spec(name)
        variants = []
        for variant in spec.variants:
            if variant.unavailable:
                continue
            try:
                game = load(name, variant.name)
            except FourfoldError:
                continue
            entry = solver_for(game)
            if entry is not None and game.num_players == 2:
                variants.append({"variant": variant.name, "solver": entry.summary,
                                 "exact": entry.exact})
        if variants:
            found.append({"game": name, "title": spec.title, "variants": variants})
    return tuple(found)


@router.get("/api/explore", summary="The games and variants the explorer answers")
def explorable(request: Request) -> dict[str, Any]:
    charge(request, None)
    return {"type": "explorable", "games": list(_explorable())}


def _game(name: str, variant: str | None) -> Game[Any, Any]:
    known = {g["game"]: [v["variant"] for v in g["variants"]] for g in _explorable()}
    if name not in known:
        raise ApiError(404, f"the explorer has no game {name[:40]!r}; it answers "
                            + ", ".join(known))
    if variant is not None and variant not in known[name]:
        raise ApiError(422, f"the explorer answers {name} in " + ", ".join(known[name])
                            + f", not {variant[:40]!r}")
    return load(name, variant)


def _check(name: str, variant: str | None, position: str | None) -> Game[Any, Any]:
    game = _game(name, variant)
    if position is not None:
        try:
            state = game.parse_position(position)
        except (FourfoldError, ValueError) as error:
            raise ApiError(422, f"position {position[:80]!r}: {error}") from None
        if game.outcome(state) is not None:
            raise ApiError(422, f"position {position[:80]!r}: the game is over there")
    return game


def _picture(game: Game[Any, Any], position: str) -> str:
    from fourfold.render.svg import draw_svg

    state = game.parse_position(position)
    return str(draw_svg(game, game.view(state, None)))


@router.get("/api/explore/{game}", summary="Every legal move of a position, with its value")
async def explore_position(request: Request, game: str,
                           variant: Annotated[str | None, Query(max_length=40)] = None,
                           position: Annotated[str | None, Query(max_length=400)] = None
                           ) -> JSONResponse:
    charge(request, None)
    host = request.client.host if request.client else None
    owners = ["explore:" + address_key(host)]
    jobs: JobPool = request.app.state.jobs
    jobs.check(owners)
    configured = await run_in_threadpool(_check, game, variant, position)
    seconds = request.app.state.hub.settings.analysis_seconds
    chosen: str = configured.info.variant

    def work() -> dict[str, Any]:
        return jobs.compute(explore_json, game, chosen, {}, position, seconds)

    future = jobs.submit(owners, work)
    try:
        body = await asyncio.wrap_future(future)
    except FourfoldError as error:
        raise ApiError(422, str(error)) from None
    body["svg"] = await run_in_threadpool(_picture, configured, body["position"])
    body["seconds"] = seconds
    return JSONResponse(body)
