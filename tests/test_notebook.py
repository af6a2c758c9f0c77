"""What a notebook user sees: readable reprs, and positions and matches drawn as pictures."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import fourfold


def test_a_loaded_game_and_its_positions_show_as_boards() -> None:
    game = fourfold.load("folio", variant="fixed-grid")
    assert repr(game) == "<Game folio (fixed-grid)>"
    state = game.play(game.initial_state(), "Gs")
    assert repr(state) == "<folio (fixed-grid) position: - Gs>"
    picture = state._repr_svg_()
    assert picture is not None
    root = ET.fromstring(picture)
    assert root.tag.endswith("svg") and 'data-cell="a1"' in picture


def test_every_ruleset_displays_its_start() -> None:
    for name in fourfold.game_names():
        spec = fourfold.get_spec(name)
        for variant in spec.variants:
            if variant.unavailable:
                continue
            game = fourfold.load(name, variant.name)
            state = game.initial_state(1)
            assert repr(state).startswith(f"<{game.info.label()} position: ")
            assert state._repr_svg_() is not None


def test_a_hidden_deal_displays_as_the_public_sees_it() -> None:
    game = fourfold.load("quatrefoil")
    state = game.initial_state(3)
    assert "solution" not in repr(state) and "cards=" not in repr(state)
    assert "?" in repr(state)


def test_match_is_exported_and_plays_like_game_play() -> None:
    game = fourfold.load("quarto")
    match = fourfold.Match(game)
    first = game.format_move(match.state, game.legal_moves(match.state)[0])
    after = match.play(first)  # notation, as Game.play takes it
    assert after == game.play(game.initial_state(), first) == match.state
    assert repr(match) == "<Match quarto (standard): 1 moves>"
    assert match._repr_svg_() is not None


def test_a_state_made_by_hand_falls_back_to_its_fields() -> None:
    from fourfold.games.placement.state import PlacementState

    assert repr(PlacementState((), None, (1, 2))).startswith("PlacementState(board=()")
