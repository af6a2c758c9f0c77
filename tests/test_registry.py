"""The registry: games, variants and options, with errors that list the valid ones."""

from __future__ import annotations

import pytest

import fourfold
from fourfold.core.errors import ConfigurationError
from fourfold.core.spec import Utility


def test_games_are_registered_with_metadata() -> None:
    assert {"folio", "quarto"} <= set(fourfold.game_names())
    spec = fourfold.get_spec("folio")
    assert spec.num_players == 2 and spec.utility is Utility.ZERO_SUM
    assert [v.name for v in spec.variants][:3] == ["standard", "fixed-grid", "no-grid"]


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(ConfigurationError, match="unknown game 'chess'; valid games: folio"):
        fourfold.load("chess")


def test_unknown_variant_lists_the_variants() -> None:
    with pytest.raises(ConfigurationError, match="valid variants: standard, fixed-grid, no-grid"):
        fourfold.load("folio", "hexagonal")


def test_orientation_matters_is_listed_and_refused() -> None:
    names = [v.name for v in fourfold.get_spec("folio").variants]
    assert "orientation-matters" in names
    with pytest.raises(ConfigurationError, match="designer never defined it"):
        fourfold.load("folio", "orientation-matters")


def test_unknown_option_lists_the_options() -> None:
    with pytest.raises(ConfigurationError, match="valid options: extra, line-rule"):
        fourfold.load("folio", colour_blind=True)
    with pytest.raises(ConfigurationError, match="valid options: none"):
        fourfold.load("quarto", line_rule="same-colour-or-size")


def test_bad_option_value_lists_the_choices() -> None:
    # listed once: the reason names them, with no "(choices: ...)" repeating them
    with pytest.raises(ConfigurationError,
                       match=r"must be one of colours-or-sizes, same-colour-or-size$"):
        fourfold.load("folio", line_rule="diagonal")


def test_options_accept_underscores_and_strings() -> None:
    game = fourfold.load("FOLIO", variant="Fixed-Grid", line_rule="same-colour-or-size")
    assert game.info.variant == "fixed-grid"
    assert game.info.options["line-rule"] == "same-colour-or-size"
    assert game.info.label() == "folio (fixed-grid, line-rule=same-colour-or-size)"


def test_one_game_object_per_configuration() -> None:
    """Configured games are immutable values, made once per configuration and shared."""
    quarto = fourfold.load("quarto")
    assert fourfold.load("Quarto") is quarto
    same = fourfold.load("folio", "fixed-grid", line_rule="same-colour-or-size")
    assert fourfold.load("folio", variant="fixed-grid", **{"line-rule": "same-colour-or-size"}) \
        is same
    assert fourfold.load("folio", "fixed-grid") is not same
    assert fourfold.load("folio", "no-grid") is not fourfold.load("folio", "fixed-grid")
