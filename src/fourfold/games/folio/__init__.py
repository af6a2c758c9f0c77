"""Folio: a Quarto-like placement game with Icehouse pyramids (RULES.md §1)."""

from typing import Any

from fourfold.core.extensions import Extensions
from fourfold.core.game import Game
from fourfold.core.registry import register
from fourfold.core.rulestext import rules_from
from fourfold.core.spec import GameInfo, GameSpec, OptionSpec, Utility, VariantSpec, choice_option
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
        name="folio",
        title="Folio",
        summary="Place the pyramid your opponent picks; complete a line of four to win.",
        num_players=2,
        utility=Utility.ZERO_SUM,
        perfect_information=True,
        variants=(
            VariantSpec("standard", "8x8 board; all pieces within a floating 4x4 area"),
            VariantSpec("fixed-grid", "a fixed 4x4 board"),
            VariantSpec("no-grid", "no board: each piece touches another; all fit in 4x4"),
            VariantSpec(
                "freeform",
                "no grid at all: place anywhere; a notional 4x4 grid must fit; challenges",
                options=FREEFORM_OPTIONS,
                extensions=Extensions(
                    bots="fourfold.games.folio.freeform.bots:BOTS",
                    terminal="fourfold.games.folio.freeform.terminal:RULES",
                    presenter="fourfold.games.folio.freeform.text:PRESENTER",
                    drawer="fourfold.games.folio.freeform.svg:draw_freeform",
                    codec="fourfold.games.folio.freeform.wire:CODEC",
                    browser="fourfold.games.folio.freeform:browser.js",
                    observation="fourfold.games.folio.freeform.observe:OBSERVATION",
                    commands="fourfold.games.folio.freeform.fit_command:COMMANDS",
                ),
            ),
            VariantSpec(
                "orientation-matters",
                "listed by the designer but never defined",
                unavailable="the designer never defined it (the rules say only"
                " 'Still have to figure this out...')",
            ),
        ),
        options=(LINE_RULE, EXTRA),
        factory=make_game,
        rules_text=rules_from("fourfold.games.folio"),
        extensions=Extensions(
            bots="fourfold.games.placement.bots:BOTS",
            report="fourfold.games.placement.report:REPORT",
            kernel="fourfold.games.placement.kernel_engine:compiled_engine",
            solver="fourfold.games.placement.solver_hooks:FOLIO_SOLVERS",
            presenter="fourfold.games.folio.text:PRESENTER",
            drawer="fourfold.games.folio.svg:DRAWER",
            codec="fourfold.games.placement.wire:CODEC",
            browser="fourfold.games.placement:browser.js",
            observation="fourfold.games.placement.observe:OBSERVATION",
        ),
    )
)

__all__ = ["SPEC", "FolioGame", "FolioPieces"]
