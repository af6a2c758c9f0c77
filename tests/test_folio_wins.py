"""Winning lines in Folio and Quarto: both line rules, lines on the edges of the 8x8
board, and diagonals while the 4x4 area is still undefined."""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest

import fourfold
from fourfold.core.errors import IllegalMoveError
from fourfold.core.outcome import Result
from fourfold.games.folio.pieces import FolioPieces, parse_piece


def play_from(variant: str, position: str, ply: str, **options: str) -> tuple[object, object]:
    game = fourfold.load("folio", variant, **options)
    state = game.play(game.parse_position(position), ply)
    return game, state


@pytest.mark.parametrize(
    ("position", "ply", "line"),
    [
        # a column on the a-file edge, with the central d4 holding the area in place
        ("a1=Rs;a2=Yl;a3=Gm;d4=Rm Bs", "a4", "a1 to a4"),
        # the top-right corner row h5-h8 ... as a column, and a row on the 8th rank
        ("e5=Rs;h5=Rl;h6=Yl;h7=Gm Bs", "h8", "h5 to h8"),
        ("e5=Rs;e8=Rm;f8=Ys;g8=Gl Bl", "h8", "e8 to h8"),
        # a diagonal while only a 3x3 area is fixed: the 4x4 area is not yet defined
        ("d4=Rs;e5=Yl;f6=Gm Bs", "g7", "d4 to g7"),
        ("d4=Rs;e5=Yl;f6=Gm Bs", "c3", "c3 to f6"),
        # an anti-diagonal
        ("e4=Rs;d5=Yl;c6=Gm Bm", "f3", "c6 to f3"),
    ],
)
def test_standard_lines_anywhere(position: str, ply: str, line: str) -> None:
    game, state = play_from("standard", position, ply)
    outcome = game.outcome(state)  # type: ignore[attr-defined]
    assert outcome is not None and outcome.result is Result.WIN
    assert line in outcome.reason and "all four colours" in outcome.reason
    assert outcome.winner == game.to_move(game.parse_position(position))  # type: ignore[attr-defined]


def test_the_same_diagonal_can_end_either_way() -> None:
    """With d4, e5, f6 down, both c3 and g7 complete a diagonal: two possible lines."""
    game = fourfold.load("folio", "standard")
    state = game.parse_position("d4=Rs;e5=Yl;f6=Gm Bs")
    winning = [m for m in game.legal_moves(state) if m.give is None]
    assert {game.format_move(state, m) for m in winning} == {"c3", "g7"}


def test_colours_or_sizes_rule() -> None:
    rule = FolioPieces("colours-or-sizes").winning_reason
    kinds = [parse_piece(p) for p in ("Rs", "Ys", "Gs", "Bs")]
    assert rule(kinds) == "all four colours"
    assert rule([parse_piece(p) for p in ("Rs", "Rm", "Rl", "Rs")]) == "all three sizes"
    assert rule([parse_piece(p) for p in ("Rs", "Rm", "Gm", "Bs")]) is None
    assert rule([parse_piece(p) for p in ("Rs", "Rs", "Rs", "Rs")]) is None


def test_same_colour_or_size_rule() -> None:
    rule = FolioPieces("same-colour-or-size").winning_reason
    assert rule([parse_piece(p) for p in ("Gs", "Gm", "Gl", "Gl")]) == "all green"
    assert rule([parse_piece(p) for p in ("Rl", "Yl", "Gl", "Bl")]) == "all large"
    assert rule([parse_piece(p) for p in ("Rs", "Ys", "Gs", "Bm")]) is None


def brute_force_wins(kinds: tuple[int, ...], line_rule: str) -> bool:
    colours = [k // 3 for k in kinds]
    sizes = [k % 3 for k in kinds]
    if line_rule == "colours-or-sizes":
        return sorted(colours) == [0, 1, 2, 3] or sorted(set(sizes)) == [0, 1, 2]
    return len(set(colours)) == 1 or len(set(sizes)) == 1


@pytest.mark.parametrize("line_rule", ["colours-or-sizes", "same-colour-or-size"])
def test_line_rules_on_every_line_of_four(line_rule: str) -> None:
    rule = FolioPieces(line_rule).winning_reason
    for kinds in product(range(12), repeat=4):
        assert (rule(kinds) is not None) == brute_force_wins(kinds, line_rule)


def test_same_colour_rule_in_play_on_fixed_grid() -> None:
    # four large pieces of two colours: "all large" here, but neither rule of the default
    # (a same-colour line always holds all three sizes, so it wins under both rules)
    game, state = play_from(
        "fixed-grid", "a1=Gl;b2=Gl;c3=Bl Bl", "d4", line_rule="same-colour-or-size"
    )
    outcome = game.outcome(state)  # type: ignore[attr-defined]
    assert outcome.winner == 1 and "all large" in outcome.reason
    game, state = play_from("fixed-grid", "a1=Gl;b2=Gl;c3=Bl Bl", "d4 Rs")
    assert game.outcome(state) is None  # type: ignore[attr-defined]


def test_winning_placement_gives_nothing() -> None:
    game = fourfold.load("folio", "fixed-grid")
    state = game.parse_position("a1=Rs;a2=Ys;a3=Gs Bs")
    with pytest.raises(IllegalMoveError, match="wins the game, so no piece is given"):
        game.play(state, "a4 Rm")
    with pytest.raises(IllegalMoveError, match="must give your opponent a piece"):
        game.play(state, "b4")


def test_no_grid_lines_and_box() -> None:
    game = fourfold.load("folio", "no-grid")
    state = game.parse_position("0,0=Rs;1,1=Ym;2,2=Gl Bs")
    won = game.play(state, "3,3")
    assert game.outcome(won).winner == 1  # the fourth piece is Player 2's
    assert "0,0 to 3,3" in game.outcome(won).reason


def quarto_wins_brute(kinds: tuple[int, ...]) -> bool:
    return any(len({(k >> bit) & 1 for k in kinds}) == 1 for bit in range(4))


def test_quarto_rule_matches_brute_force() -> None:
    rule = fourfold.load("quarto").pieces.winning_reason
    for kinds in combinations(range(16), 4):
        assert (rule(kinds) is not None) == quarto_wins_brute(kinds)


def test_full_board_without_a_line_is_a_draw() -> None:
    game = fourfold.load("quarto")
    drawn = 0
    for seed in range(300):
        rng = random.Random(seed)
        state = game.initial_state()
        while game.outcome(state) is None:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        outcome = game.outcome(state)
        if outcome.result is Result.DRAW:
            drawn += 1
            assert state.placed == 16 and state.line is None
            assert game.to_move(state) is None
    assert drawn > 0
