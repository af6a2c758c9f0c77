"""The Folio freeform presenter: the plot, the assist and the turn texts."""

from __future__ import annotations

from typing import Any

import fourfold
from fourfold.games.folio.freeform.text import PRESENTER, FreeformPresenter
from fourfold.render import presenter_for


def load() -> Any:
    return fourfold.load("folio", "freeform")


POSITION = "0.0,0.0=Rs;1.3,0.4=Ym;2.7,0.8=Gl;0.9,-1.7=Bm Bs"


def test_the_plot_shows_pieces_axes_and_coordinates() -> None:
    game = load()
    presenter = FreeformPresenter()
    state = game.parse_position(POSITION)
    text = presenter.draw(game, state, None)
    for name in ("Rs", "Ym", "Gl", "Bm"):
        assert name in text
    assert "[Bm@0.9,-1.7]" in text and "In hand: Bs (small blue)" in text
    assert "0.0 ---" in text and "|" in text
    assert "Assist" not in text and "o" not in text.split("On the table")[0]


def test_the_assist_draws_a_fitting_grid_or_says_none_fits() -> None:
    game = load()
    presenter = FreeformPresenter()
    presenter.assist = True
    state = game.parse_position(POSITION)
    text = presenter.draw(game, state, None)
    assert "Assist: a grid fits: origin" in text and "." in text and "o" in text
    broken = game.play(game.parse_position("0.0,0.0=Rs;1.0,0.0=Ym;2.0,0.0=Gl Rm"), "7.0,7.0 Bs")
    assert "Assist: no grid fits since placement 4" in presenter.draw(game, broken, None)


def test_turn_texts() -> None:
    game = load()
    presenter = FreeformPresenter()
    state = game.parse_position(POSITION)
    assert "or type challenge" in presenter.describe_turn(game, state)
    assert "challenge" in presenter.move_help(game, state)
    lines = presenter.list_moves(game, state)
    assert "legal places" in lines[0] and lines[-1] == "or: challenge"
    move = game.parse_move(state, "4.0,1.5 Rm")
    assert "placed the Bs at 4.0,1.5" in presenter.explain_move(game, state, move)
    challenge = game.parse_move(state, "challenge")
    assert presenter.explain_move(game, state, challenge).startswith("challenged")


def test_it_is_the_presenter_of_freeform() -> None:
    assert presenter_for(load()) is PRESENTER
