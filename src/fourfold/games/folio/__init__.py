"""Folio: a Quarto-like placement game with Icehouse pyramids (RULES.md §1).

Its presenter and drawer are in this folder, the freeform variant's parts in
``freeform/`` (found by convention, ``core.extensions``); the grid variants' other parts
are the placement games' (``fourfold.games.placement``)."""

from typing import Any

from fourfold.core.extensions import Extensions
from fourfold.core.game import Game
from fourfold.core.registry import register
from fourfold.core.spec import GameInfo, GameSpec, OptionSpec, VariantSpec, choice_option
from fourfold.games.folio.freeform.game import OPTIONS as FREEFORM_OPTIONS
from fourfold.games.folio.freeform.game import FreeformGame
from fourfold.games.folio.game import FolioGame
from fourfold.games.folio.pieces import (
    COLOURS_OR_SIZES,
    DEFAULT_EXTRA,
    LINE_RULES,
    FolioPieces,
    format_extra,
    parse_extra,
)

LINE_RULE = choice_option(
    "line-rule",
    LINE_RULES,
    COLOURS_OR_SIZES,
    "which lines of four win: all four colours or all three sizes (colours-or-sizes), or"
    " all one colour or all one size (same-colour-or-size). The original list is lost.",
    ruling=True,
)
EXTRA = OptionSpec(
    "extra",
    DEFAULT_EXTRA,
    "the four pieces added in set-up steps 2 and 3 (four colours, every size), e.g. Rs,Ym,Gl,Bl",
    parse_extra,
    format=format_extra,
)


def make_game(info: GameInfo) -> Game[Any, Any]:
    """Freeform has rules of its own; the grid variants share ``FolioGame``."""
    return FreeformGame(info) if info.variant == "freeform" else FolioGame(info)


SPEC = register(
    GameSpec(
        package=__name__,
        summary="Place the pyramid your opponent picks; complete a line of four to win.",
        factory=make_game,
        variants=(
            VariantSpec("standard", "8x8 board; all pieces within a floating 4x4 area"),
            VariantSpec("fixed-grid", "a fixed 4x4 board"),
            VariantSpec("no-grid", "no board: each piece touches another; all fit in 4x4"),
            VariantSpec(
                "freeform",
                "no grid at all: place anywhere; a notional 4x4 grid must fit; challenges",
                options=FREEFORM_OPTIONS,
                package="fourfold.games.folio.freeform",
            ),
            VariantSpec(
                "orientation-matters",
                "listed by the designer but never defined",
                unavailable="the designer never defined it (the rules say only"
                " 'Still have to figure this out...')",
            ),
        ),
        options=(LINE_RULE, EXTRA),
        shares=("fourfold.games.placement",),
        extensions=Extensions(
            solver="fourfold.games.placement.solver_hooks:FOLIO_SOLVERS",
            puzzles="fourfold.games.placement.puzzle_themes:PUZZLES",
        ),
    )
)

__all__ = ["SPEC", "FolioGame", "FolioPieces"]
