"""The review's routes: ``GET /api/tables/{id}/review`` (200 ready or unavailable, 202
pending, 409 before the end) and ``GET /api/tables/{id}/review/picture?ply=N&step=K``
(the position before ply ``N`` after ``K`` moves of the line the review gives for it:
a mistake's best line, or a cooperative game's shortest solution from there; ``N`` one
past the last ply is the position the game ended on, with the review's ``end_line``).
Both answer only for a finished game: a game with hidden cards shows them by then, so
its pictures are drawn from the view that shows every card, the same for every caller;
the positions are worked out once per table version (review/positions.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from fourfold.core.errors import FourfoldError
from fourfold.server.access import ApiError, Watcher, check_watchable
from fourfold.server.jobs import long_owner
from fourfold.server.live import LiveTable
from fourfold.server.review.jobs import Reviews
from fourfold.server.review.positions import ReviewPositions
from fourfold.server.web.finished import Finished

router = APIRouter(prefix="/api", tags=["review"])


def _reviews(request: Request) -> Reviews:
    reviews: Reviews = request.app.state.reviews
    return reviews


#: finished games' positions and review lines, worked out once per table and version
#: (review/positions.py); the same for every caller (recipient ``None``)
_positions: Finished[ReviewPositions] = Finished()


def _positions_of(live: LiveTable, reviews: Reviews) -> ReviewPositions:
    """The table's positions and its stored review's lines (409 without a review of its
    final version); worked out on the first request only."""
    version = live.table.version

    def work_out() -> ReviewPositions:
        review = reviews.stored(live)
        if review is None or review.get("version") != version:
            raise ApiError(409, "this game has no review yet")
        record = live.table.referee_record()
        if live.table.version != version:  # it moved on meanwhile: nothing is kept
            raise ApiError(409, "this game has no review yet")
        try:
            return ReviewPositions.of(record, review)
        except FourfoldError as error:
            raise ApiError(500, f"the stored review does not replay: {error}") from None

    return _positions.get((live.id, version, None), work_out)


@router.get("/tables/{table_id}/review", summary="The review of a finished game")
def get_review(table_id: str, request: Request, caller: Watcher) -> JSONResponse:
    check_watchable(request.app.state, caller.live)
    host = request.client.host if request.client else None
    status, body = _reviews(request).status(caller.live, [long_owner(host)])
    return JSONResponse(body, status_code=status)


@router.get("/tables/{table_id}/review/picture", summary="A step of a mistake's best line",
            responses={200: {"content": {"image/svg+xml": {}}}})
def get_line_picture(table_id: str, request: Request, caller: Watcher,
                     ply: Annotated[int, Query(ge=1, le=100_000)],
                     step: Annotated[int, Query(ge=0, le=100)] = 0) -> Response:
    from fourfold.render.svg import draw_svg

    live = caller.live
    check_watchable(request.app.state, live)
    positions = _positions_of(live, _reviews(request))
    if ply > positions.plies + 1:
        raise ApiError(422, f"the game has {positions.plies} plies, not {ply - 1}")
    line = positions.lines[ply - 1]
    if step > len(line):
        raise ApiError(422, f"the line at ply {ply} has {len(line)} moves, not {step}")
    game = live.game
    last = None
    try:
        state = positions.before(ply)
        for text in line[:step]:
            last = game.parse_move(state, text)
            state = game.apply(state, last)
    except (FourfoldError, ValueError) as error:
        raise ApiError(500, f"the stored line does not replay: {error}") from None
    # the game is over (``stored`` says so): every card is face up by now
    picture = draw_svg(game, game.revealed_view(state, None), last_move=last,
                       outcome=game.outcome(state))
    return Response(str(picture), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})
