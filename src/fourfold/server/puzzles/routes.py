"""``/api/puzzles``: the puzzle page's routes, and the ``/puzzles`` pages.

A try is checked move by move (``POST /api/puzzles/{id}/move`` with the step reached),
so the certified line is never sent ahead of the player: only the reply to a right
move, a hint (the start of the next move) or, asked for, the whole solution. A solver
is a browser's random id (32 hex digits kept in its localStorage; no account). The
first try of each puzzle by each solver is rated (Glicko-2, ``ratings``): solved with
no wrong move, no hint and no solution asked for, it is a win for the solver.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from fourfold.core.errors import FourfoldError
from fourfold.puzzles.puzzle import Puzzle
from fourfold.puzzles.session import goal_text, hint_of
from fourfold.server.access import ApiError, charge, new_solver_allowed
from fourfold.server.puzzles.catalog import catalog, daily_id
from fourfold.server.puzzles.ratings import rate, start_of_puzzle, start_of_solver
from fourfold.server.puzzles.store import PuzzleStore, Rating

router = APIRouter(tags=["puzzles"])
SOLVER = re.compile(r"[0-9a-f]{32}")
SolverId = Annotated[str, Query(pattern=SOLVER.pattern, description="the browser's id")]


@router.get("/puzzles", include_in_schema=False)
@router.get("/puzzles/{puzzle_id}", include_in_schema=False)
def puzzles_page(puzzle_id: str | None = None) -> HTMLResponse:
    from fourfold.server.web.pages import _shell

    return _shell()


def _store(request: Request) -> PuzzleStore:
    store: PuzzleStore = request.app.state.puzzles
    return store


def _all(request: Request) -> dict[str, Puzzle]:
    """The starter set and the puzzles mined from the server's games."""
    return {**catalog(), **_store(request).mined()}


def _puzzle(request: Request, puzzle_id: str) -> Puzzle:
    found = catalog().get(puzzle_id[:40]) or _store(request).mined().get(puzzle_id[:40])
    if found is None:
        raise ApiError(404, f"there is no puzzle {puzzle_id[:40]!r}")
    return found


def _replay(puzzle: Puzzle, step: int) -> tuple[Any, Any, Any]:
    """The game, the position after ``step`` moves of the line, and the last move."""
    game, state = puzzle.load()
    last = None
    for text in puzzle.solution[:step]:
        last = game.parse_move(state, text)
        state = game.next_state(state, last)
    return game, state, last


def _rating_json(rating: Rating) -> dict[str, Any]:
    return {"rating": round(rating.rating), "deviation": round(rating.rd), "plays": rating.plays}


def _position(puzzle_id: str, puzzle: Puzzle, step: int) -> dict[str, Any]:
    from fourfold.render.svg import draw_svg

    game, state, last = _replay(puzzle, step)
    mover = game.player_name(game.to_move(state) or 0) if game.outcome(state) is None else None
    return {"step": step, "svg": str(draw_svg(game, game.view(state, None), last_move=last,
                                              outcome=game.outcome(state))),
            "legal": [game.format_move(state, m) for m in game.legal_moves(state)]
            if mover else [], "to_move": mover}


def _public(request: Request, puzzle_id: str, solver: str | None) -> dict[str, Any]:
    puzzle = _puzzle(request, puzzle_id)
    store = _store(request)
    rating = store.puzzle(puzzle_id) or start_of_puzzle(puzzle.rating)
    here = _position(puzzle_id, puzzle, 0)
    return {"type": "puzzle", "id": puzzle_id, "game": puzzle.game, "variant": puzzle.variant,
            "options": dict(puzzle.options), "position": puzzle.position,
            "theme": puzzle.theme, "themes": list(puzzle.themes), "bound": puzzle.bound,
            "goal": puzzle.goal, "win_in": puzzle.win_in,
            "moves": len(puzzle.solution), "goal_text": goal_text(puzzle, here["to_move"]),
            "puzzle_rating": _rating_json(rating),
            "tried": solver is not None and puzzle_id in store.tried(solver), **here}


@router.get("/api/puzzles", summary="The next puzzle for a solver, near its rating")
def next_puzzle(request: Request, solver: SolverId,
                game: Annotated[str | None, Query(max_length=40)] = None) -> dict[str, Any]:
    charge(request, None)
    store = _store(request)
    mine = store.solver(solver) or start_of_solver()
    tried = store.tried(solver)
    every = _all(request)
    pool = [(i, p) for i, p in every.items() if game is None or p.game == game]
    if not pool:
        raise ApiError(422, f"there are no puzzles of {game!r}; the games with puzzles are "
                            + ", ".join(sorted({p.game for p in every.values()})))
    fresh = [(i, p) for i, p in pool if i not in tried] or pool
    # the untried puzzle nearest to the solver's rating (no randomness: the same answer
    # to the same question on every instance)
    fresh.sort(key=lambda item: (abs((store.puzzle(item[0]) or start_of_puzzle(
        item[1].rating)).rating - mine.rating), item[0]))
    chosen = fresh[0][0]
    return {**_public(request, chosen, solver), "you": _rating_json(mine)}


@router.get("/api/puzzles/daily", summary="Today's puzzle (UTC)")
def daily_puzzle(request: Request, solver: SolverId | None = None) -> dict[str, Any]:
    charge(request, None)
    day = request.app.state.daily.clock.today()
    return {**_public(request, daily_id(day), solver), "day": day}


@router.get("/api/puzzles/rating", summary="A solver's rating")
def solver_rating(request: Request, solver: SolverId) -> dict[str, Any]:
    charge(request, None)
    return {"type": "rating", **_rating_json(_store(request).solver(solver) or start_of_solver())}


@router.get("/api/puzzles/games", summary="The games with puzzles, and how many each has")
def puzzle_games(request: Request) -> dict[str, Any]:
    from fourfold.core.registry import get_spec

    charge(request, None)
    counts: dict[str, int] = {}
    for puzzle in _all(request).values():
        counts[puzzle.game] = counts.get(puzzle.game, 0) + 1
    return {"type": "puzzle-games", "games": [
        {"game": name, "title": get_spec(name).title, "count": counts[name]}
        for name in sorted(counts, key=lambda n: get_spec(n).title)]}


@router.get("/api/puzzles/{puzzle_id}", summary="A puzzle at its start (not its solution)")
def get_puzzle(request: Request, puzzle_id: str, solver: SolverId | None = None
               ) -> dict[str, Any]:
    charge(request, None)
    return _public(request, puzzle_id, solver)


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    solver: str = Field(pattern=SOLVER.pattern)
    step: int = Field(ge=0, le=64)
    move: str | None = Field(default=None, max_length=80)


def _rated(request: Request, puzzle_id: str, puzzle: Puzzle, solver: str,
           solved: bool) -> dict[str, Any] | None:
    def rater(mine: Rating | None, its: Rating | None, won: bool) -> tuple[Rating, Rating]:
        return rate(mine or start_of_solver(), its or start_of_puzzle(puzzle.rating), won)

    store = _store(request)
    if store.solver(solver) is None and not new_solver_allowed(request):
        return None  # a made-up solver id past its address's allowance: not rated
    result = store.record(solver, puzzle_id, solved, rater)
    if result is None:
        return None
    return {"you": _rating_json(result[0]), "puzzle": _rating_json(result[1])}


def _at_solver_step(request: Request, puzzle_id: str, step: int) -> Puzzle:
    """The puzzle of a request about the solver's move at ``step`` (charged; 404 if there is
    no such puzzle, 422 if ``step`` is not one of the solver's moves)."""
    charge(request, None)
    puzzle = _puzzle(request, puzzle_id)
    if step % 2 or step >= len(puzzle.solution):
        raise ApiError(422, f"step {step} is not one of the solver's moves: the line has"
                            f" {len(puzzle.solution)} moves, the solver's at 0, 2, 4 ...")
    return puzzle


@router.post("/api/puzzles/{puzzle_id}/move", summary="Try a move at a step of the puzzle")
async def post_move(request: Request, puzzle_id: str, body: Step) -> dict[str, Any]:
    return await run_in_threadpool(_move, request, puzzle_id, body)


def _move(request: Request, puzzle_id: str, body: Step) -> dict[str, Any]:
    puzzle = _at_solver_step(request, puzzle_id, body.step)
    if body.move is None:
        raise ApiError(422, "move: a move is needed")
    game, state, _ = _replay(puzzle, body.step)
    try:
        tried = game.parse_move(state, body.move)
    except (FourfoldError, ValueError) as error:
        raise ApiError(422, f"{body.move!r} is not a legal move here: {error}") from None
    right = tried == game.parse_move(state, puzzle.solution[body.step])
    if not right:
        rated = _rated(request, puzzle_id, puzzle, body.solver, False)
        return {"type": "try", "right": False, "done": False, "rated": rated,
                **_position(puzzle_id, puzzle, body.step)}
    step = body.step + 1
    reply = None
    if step < len(puzzle.solution):
        reply = puzzle.solution[step]
        step += 1
    done = step >= len(puzzle.solution)
    rated = _rated(request, puzzle_id, puzzle, body.solver, True) if done else None
    return {"type": "try", "right": True, "reply": reply, "done": done, "rated": rated,
            **_position(puzzle_id, puzzle, step)}


@router.post("/api/puzzles/{puzzle_id}/hint", summary="The start of the next move (a miss)")
async def post_hint(request: Request, puzzle_id: str, body: Step) -> dict[str, Any]:
    return await run_in_threadpool(_hint, request, puzzle_id, body)


def _hint(request: Request, puzzle_id: str, body: Step) -> dict[str, Any]:
    puzzle = _at_solver_step(request, puzzle_id, body.step)
    rated = _rated(request, puzzle_id, puzzle, body.solver, False)
    return {"type": "hint", "hint": hint_of(puzzle.solution[body.step]), "rated": rated}


@router.post("/api/puzzles/{puzzle_id}/solution", summary="The whole line (a miss)")
async def post_solution(request: Request, puzzle_id: str, body: Step) -> dict[str, Any]:
    return await run_in_threadpool(_solution, request, puzzle_id, body)


def _solution(request: Request, puzzle_id: str, body: Step) -> dict[str, Any]:
    charge(request, None)
    puzzle = _puzzle(request, puzzle_id)
    rated = _rated(request, puzzle_id, puzzle, body.solver, False)
    return {"type": "solution", "solution": list(puzzle.solution), "rated": rated,
            **_position(puzzle_id, puzzle, len(puzzle.solution))}
