"""A game's own part in its puzzles: the bundle part ``puzzles`` names a ``PuzzleHooks``.

Both hooks are optional. ``certify`` replaces the generic certification
(``fourfold.puzzles.certify``, which needs a solver that proves every move's value) for
a game whose solver is bounded: it returns a ``Certified`` line whose claims it has
proven (Ice Dao: ``games/icedao/puzzle_certify.py``), or ``None``. ``themes`` names the
motifs a player would recognise in a certified line (a pin, the only safe give ...),
computed from the position, the line and the proven values, never guessed; the generic
themes (``win in N``, ``defend``) come first and need no hook.

Keep the module that holds a ``PuzzleHooks`` light: it is imported when a puzzle of its
game is certified or themed, and its functions import the searches they need.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fourfold.core.extensions import typed_part
from fourfold.core.game import Game
from fourfold.solve.position import Value

#: the goals of a puzzle: win (exactly one move wins at every step of the line) or hold
#: (exactly one move avoids losing)
WIN, HOLD = "win", "hold"


@dataclass(frozen=True)
class Certified:
    """A line the solver proved: what a puzzle claims, before it gets themes and a rating.

    ``line`` holds the moves (move values, not text) from ``state``: the solver's moves
    and the defender's best replies alternating, the solver's first. ``values`` are the
    proven values of every legal move at ``state`` for the player to move, in legal-move
    order (a bounded search's values hold within ``bound``). ``bound`` is ``None`` when
    every value is exact (a solved game), else the number of moves within which the
    claims are proven: a win puzzle's other moves do not win within ``bound`` moves (a
    longer win is not excluded), a hold puzzle's other moves lose within ``bound`` moves
    and its solution does not.
    """

    game: Game[Any, Any]
    state: Any
    line: tuple[Any, ...]
    goal: str
    win_in: int
    values: tuple[tuple[Any, Value], ...]
    bound: int | None = None


#: ``certify(game, state, seconds) -> Certified | None``
Certifier = Callable[[Game[Any, Any], Any, float], "Certified | None"]
#: ``themes(certified) -> motifs``, each a short phrase
Themer = Callable[[Certified], tuple[str, ...]]


@dataclass(frozen=True)
class PuzzleHooks:
    #: the game's own certification (``None``: the generic one, with the game's solver)
    certify: Certifier | None = None
    #: the game's motifs of a certified line (``None``: only the generic themes)
    themes: Themer | None = None


NO_HOOKS = PuzzleHooks()


def hooks_for(game: Game[Any, Any]) -> PuzzleHooks:
    """The game's puzzle hooks (the empty ones when its bundle names none)."""
    return typed_part(game, "puzzles", PuzzleHooks, NO_HOOKS)
