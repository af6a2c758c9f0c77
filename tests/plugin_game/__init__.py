"""Noughts and crosses, a game added to Fourfold from outside its tree.

Everything about the game is in this folder: its rules (``game.py``), its rules text
(``rules.md``) and its parts beyond the rules, named in ``SPEC.extensions``. Fourfold
finds it through the plugin API: ``fourfold.register(SPEC)`` in Python, the
``fourfold.games`` entry point of an installed package, or ``FOURFOLD_GAMES=plugin_game``.
"""

from fourfold.core.extensions import Extensions
from fourfold.core.rulestext import rules_from
from fourfold.core.spec import GameSpec, Utility, VariantSpec
from plugin_game.game import Mark, NoughtsGame, NoughtsState

SPEC = GameSpec(
    name="noughts",
    title="Noughts and crosses",
    summary="3x3 board; three in a line wins (a test game added from outside).",
    num_players=2,
    utility=Utility.ZERO_SUM,
    perfect_information=True,
    variants=(VariantSpec("standard", "the only variant"),),
    options=(),
    factory=NoughtsGame,
    rules_text=rules_from("plugin_game"),
    extensions=Extensions(
        presenter="plugin_game.text:PRESENTER",
        drawer="plugin_game.svg:draw",
        observation="plugin_game.observe:OBSERVATION",
        solver="plugin_game.solver:SOLVERS",
    ),
)

__all__ = ["SPEC", "Mark", "NoughtsGame", "NoughtsState"]
