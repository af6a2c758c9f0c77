"""A puzzle: a position, its one solution line, a theme and a starting rating.

``solution`` is the whole line from the position, the solver's moves and the
opponent's best defences alternating (the solver's first), as lichess stores them.
The JSON form is ``{"game", "variant", "options", "position", "solution", "theme",
"rating", "goal", "win_in"}``; ``fourfold puzzles --json`` prints a list of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game

#: the puzzle's goal: win (exactly one move wins at every step) or hold (exactly one
#: move avoids losing)
WIN, HOLD = "win", "hold"


@dataclass(frozen=True)
class Puzzle:
    game: str
    variant: str
    options: dict[str, str]
    position: str
    solution: tuple[str, ...]
    theme: str
    rating: int
    goal: str
    #: the solver's moves in the line (a "win in N"); 1 for a hold
    win_in: int

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "variant": self.variant, "options": dict(self.options),
                "position": self.position, "solution": list(self.solution),
                "theme": self.theme, "rating": self.rating, "goal": self.goal,
                "win_in": self.win_in}

    @staticmethod
    def from_json(data: Any, where: str) -> Puzzle:
        """A puzzle from its JSON form; a fault names ``where`` and the field."""
        if not isinstance(data, dict):
            raise FourfoldError(f"{where}: a puzzle is a JSON object, not {type(data).__name__}")
        fields = {"game": str, "variant": str, "position": str, "theme": str, "goal": str,
                  "rating": int, "win_in": int, "solution": list}
        for name, kind in fields.items():
            if not isinstance(data.get(name), kind):
                raise FourfoldError(f"{where}: field {name!r} should be a {kind.__name__}")
        options = data.get("options", {})
        if not isinstance(options, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in options.items()):
            raise FourfoldError(f"{where}: field 'options' should be an object of strings")
        if not data["solution"] or not all(isinstance(m, str) for m in data["solution"]):
            raise FourfoldError(f"{where}: field 'solution' should be a list of moves")
        if data["goal"] not in (WIN, HOLD):
            raise FourfoldError(f"{where}: field 'goal' should be {WIN!r} or {HOLD!r}")
        return Puzzle(data["game"], data["variant"], dict(options), data["position"],
                      tuple(data["solution"]), data["theme"], data["rating"], data["goal"],
                      data["win_in"])

    def load(self) -> tuple[Game[Any, Any], Any]:
        """The configured game and the puzzle's position."""
        from fourfold.core.registry import load

        game = load(self.game, self.variant, **self.options)
        return game, game.parse_position(self.position)
