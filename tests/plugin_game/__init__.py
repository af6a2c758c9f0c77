"""Noughts and crosses, a game added to Fourfold from outside its tree.

Everything about the game is in this folder: its rules (``game.py``), its rules text
(``rules.md``) and its parts beyond the rules, each found by convention in the module
of its name, so the spec names none of them: the presenter ``text.PRESENTER``, the
drawer ``svg.DRAWER``, the observation encoder ``observe.OBSERVATION`` and the solver
``solver_hooks.SOLVERS`` (``fourfold.core.extensions.CONVENTIONS``). Fourfold finds the
game through the plugin API: ``fourfold.register(SPEC)`` in Python, the
``fourfold.games`` entry point of an installed package, or ``FOURFOLD_GAMES=plugin_game``.
"""

from fourfold.core.spec import GameSpec
from plugin_game.game import Mark, NoughtsGame, NoughtsState

SPEC = GameSpec(
    package=__name__,
    name="noughts",
    title="Noughts and crosses",
    summary="3x3 board; three in a line wins (a test game added from outside).",
    factory=NoughtsGame,
)

__all__ = ["SPEC", "Mark", "NoughtsGame", "NoughtsState"]
