"""A puzzle: a position, its one solution line, its themes and a starting rating.

``solution`` is the whole line from the position, the solver's moves and the
opponent's best defences alternating (the solver's first), as lichess stores them.
The JSON form is ``{"game", "variant", "options", "position", "solution", "theme",
"themes", "rating", "goal", "win_in", "bound"}``; ``fourfold puzzles --json`` prints a
list of them. ``theme`` is the themes in words, joined by commas (the generic one
first: ``win in N`` or ``defend``); ``bound`` is ``null`` for a puzzle of a solved
game, else the number of moves within which its claims are proven (docs/puzzles.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.puzzles.hooks import HOLD, WIN

__all__ = ["HOLD", "WIN", "Puzzle"]


@dataclass(frozen=True)
class Puzzle:
    game: str
    variant: str
    options: dict[str, str]
    position: str
    solution: tuple[str, ...]
    #: the generic theme first (``win in N`` or ``defend``), then the game's motifs
    themes: tuple[str, ...]
    rating: int
    goal: str
    #: the solver's moves in the line (a "win in N"); 1 for a hold
    win_in: int
    #: ``None``: every value exact; N: the claims are proven within N moves (a bounded
    #: search): a win's other first moves do not win within N moves, a hold's other
    #: moves lose within N moves and its solution does not
    bound: int | None = None

    @property
    def theme(self) -> str:
        return ", ".join(self.themes)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "variant": self.variant, "options": dict(self.options),
                "position": self.position, "solution": list(self.solution),
                "theme": self.theme, "themes": list(self.themes), "rating": self.rating,
                "goal": self.goal, "win_in": self.win_in, "bound": self.bound}

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
        themes = data.get("themes", [data["theme"]])
        if not isinstance(themes, list) or not themes or not all(
                isinstance(t, str) and t for t in themes):
            raise FourfoldError(f"{where}: field 'themes' should be a list of phrases")
        bound = data.get("bound")
        if bound is not None and (not isinstance(bound, int) or bound < 1):
            raise FourfoldError(f"{where}: field 'bound' should be null or a number of moves")
        return Puzzle(data["game"], data["variant"], dict(options), data["position"],
                      tuple(data["solution"]), tuple(themes), data["rating"], data["goal"],
                      data["win_in"], bound)

    def load(self) -> tuple[Game[Any, Any], Any]:
        """The configured game and the puzzle's position."""
        from fourfold.core.registry import load

        game = load(self.game, self.variant, **self.options)
        return game, game.parse_position(self.position)
