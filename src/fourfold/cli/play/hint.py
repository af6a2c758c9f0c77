"""``hint``: every legal move's value from the game's solver, from the person's view.

The solver runs off the terminal's thread (``PlayContext.wait_for``), so a person sees
``... is thinking...`` and Ctrl-C stops waiting at once. The first hint of a session
loads (or compiles) the solver's kernels first, untimed, so that ``HINT_SECONDS`` is
spent on the position and the first hint answers like the later ones.
"""

from __future__ import annotations

from typing import Any

from fourfold.cli.play.context import PlayContext
from fourfold.core.game import Game
from fourfold.solve.position import SolverEntry, Value, solver_for

#: how long ``hint`` lets a solver think
HINT_SECONDS = 5.0
#: the budget of the untimed first call that loads the solver's kernels
WARM_UP_SECONDS = 0.05

_warm: set[tuple[int, str]] = set()


def value_text(value: Value, distance: int | None) -> str:
    if value is Value.UNKNOWN:
        return "not proven either way"
    if value is Value.DRAW or distance is None:
        return str(value.value)
    return f"{value.value} in {distance} pl{'y' if distance == 1 else 'ies'}"


def warm_up(entry: SolverEntry, game: Game[Any, Any], state: Any) -> None:
    """Load the solver's compiled kernels once per process and game (its answer unused)."""
    key = (id(entry), game.info.label())
    if key in _warm:
        return
    entry.solve(game, state, WARM_UP_SECONDS)
    _warm.add(key)


def hint(ctx: PlayContext, arg: str) -> bool:
    game, view = ctx.game, ctx.view()
    state = view.observation
    if not game.view_legal_moves(view):
        ctx.say("No hint: the game is over." if game.view_outcome(view) is not None
                else "No hint: it is not your turn.")
        return False
    entry = solver_for(game)
    if entry is None:
        ctx.say(f"No hint: {game.info.spec.title} has no solver, so move values are not"
                " known here.")
        return False
    seconds = HINT_SECONDS

    def solve() -> Any:
        warm_up(entry, game, state)
        return entry.solve(game, state, seconds)

    solution = ctx.wait_for(f"The {game.info.spec.title} solver", solve)
    if solution is None:
        ctx.say(f"No hint: the {game.info.spec.title} solver found no answer within"
                f" {seconds:g} seconds ({entry.summary}).")
        return False
    ctx.say(f"{game.player_name(ctx.seat)} to move: "
            f"{value_text(solution.value, solution.distance)}"
            + ("" if solution.detail is None else f". {solution.detail}")
            + ("" if entry.exact else f" (bounded solver: {entry.summary})"))
    names = [game.view_format_move(view, m.move) for m in solution.moves]
    width = max(map(len, names), default=0)
    for text, m in zip(names, solution.moves, strict=True):
        ctx.say(f"  {text:<{width}}  {value_text(m.value, m.distance)}"
                + ("" if m.detail is None else f" ({m.detail})"))
    return False
