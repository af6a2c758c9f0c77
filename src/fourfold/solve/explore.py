"""The explorer of solved games: from a position, the value and distance of every
legal move, as GamesmanUni shows them (``fourfold explore``; docs/review.md).

Generic: the game's solver is reached through its extension bundle
(``solve.position.solver_for``); a solver that keeps tables (Dao's) loads or builds
them on the first position asked. Values are for the player making the move: a
winning move is green, a drawing one yellow, a losing one red.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.core.game import Game
from fourfold.solve.position import MoveValue, Solution, Value, solver_for

#: colours of values, from the mover's side (GamesmanUni: win green, tie yellow, lose red)
COLOURS = {Value.WIN: "green", Value.DRAW: "yellow", Value.LOSS: "red", Value.UNKNOWN: "dim"}


@dataclass(frozen=True)
class Exploration:
    game: Game[Any, Any]
    state: Any
    solution: Solution
    exact: bool

    def to_json(self) -> dict[str, Any]:
        game, state = self.game, self.state
        mover = game.to_move(state)
        return {
            "game": game.name, "variant": game.info.variant,
            "options": game.info.option_strings(),
            "position": game.format_position(state),
            "to_move": None if mover is None else game.player_name(mover),
            "value": self.solution.value.value, "distance": self.solution.distance,
            "exact": self.exact,
            "moves": [{"move": game.format_move(state, m.move), "value": m.value.value,
                       "distance": m.distance} for m in self.solution.moves],
        }


def explore(game: Game[Any, Any], state: Any, seconds: float | None) -> Exploration:
    """Every legal move of ``state`` with its value, best first; a one-line error when the
    game has no solver, the game is over, or the solver cannot answer in time."""
    entry = solver_for(game)
    if entry is None:
        raise ConfigurationError(f"no solver for {game.info.label()}: the explorer shows"
                                 " solved games")
    if game.outcome(state) is not None:
        raise FourfoldError(f"{game.format_position(state)}: the game is over, there is"
                            " no move to explore")
    if entry.prepare is not None:
        entry.prepare(game)  # its tables, loaded (or built) on demand
    solution = entry.solve(game, state, seconds)
    if solution is None:
        unit = "second" if seconds == 1 else "seconds"
        raise FourfoldError(f"{game.info.label()}: no exact value for this position within"
                            f" {seconds:g} {unit} (solver: {entry.summary})")
    return Exploration(game, state, solution, entry.exact)


def distance_text(move: MoveValue | Solution) -> str:
    if move.value is Value.UNKNOWN:
        return "not proven"
    if move.value is Value.DRAW or move.distance is None:
        return str(move.value.value)
    return f"{move.value.value} in {move.distance}"
