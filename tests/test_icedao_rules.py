"""Ice Dao's movement, winning and drawing rules (RULES.md §2), one position per rule,
including the worked examples of the original rule text (seeds/003)."""

from __future__ import annotations

from typing import Any

import pytest

import fourfold
from fourfold.core.errors import ConfigurationError, IllegalMoveError, NotationError
from fourfold.core.game import Game
from fourfold.core.outcome import Result
from fourfold.games.icedao import IceDaoState, Pass, Slide

START = "Gl,Bs,Gm,Bs,Gl/.,.,Bm,.,./.,.,.,.,./.,.,Gm,.,./Bl,Gs,Bm,Gs,Bl B"
EMPTY_RANK = ".,.,.,.,."


@pytest.fixture(scope="module")
def game() -> Game[Any, Any]:
    return fourfold.load("icedao")


def board(*ranks: str, side: str = "B") -> str:
    """A position from rank 5 down to rank 1; missing ranks are empty."""
    rows = list(ranks) + [EMPTY_RANK] * (5 - len(ranks))
    return "/".join(rows) + " " + side


def moves_from(game: Game[Any, Any], state: IceDaoState, square: str) -> set[str]:
    texts = {game.format_move(state, m) for m in game.legal_moves(state)}
    return {t for t in texts if t.startswith(square + "-")}


def stack(game: Game[Any, Any], state: IceDaoState, square: str) -> str:
    ranks = game.format_position(state).split()[0].split("/")
    x, y = "abcde".index(square[0]), int(square[1])
    return ranks[5 - y].split(",")[x]


def test_the_start_position_and_its_moves(game: Game[Any, Any]) -> None:
    state = game.initial_state()
    assert game.format_position(state) == START
    assert game.to_move(state) == 0 and game.player_name(0) == "Blue"
    assert game.player_name(1) == "Green"
    # the small on b5 slides east over the green medium and stops on it, before the blue small
    assert moves_from(game, state, "b5") == {"b5-c5", "b5-e2", "b5-b2", "b5-a4", "b5-a5"}
    assert len(game.legal_moves(state)) == 22


def test_worked_example_medium_in_the_centre_moves_zero_squares_towards_smalls(
    game: Game[Any, Any],
) -> None:
    # the original's diagram: the blue medium on the centre square, a small one square
    # away to the south-east and to the north-west
    state = game.parse_position(board(EMPTY_RANK, ".,Bs,.,.,.", ".,.,Bm,.,.", ".,.,.,Gs,."))
    assert moves_from(game, state, "c3") == {"c3-c5", "c3-e5", "c3-e3", "c3-c1", "c3-a1", "c3-a3"}
    assert Pass() in game.legal_moves(state)  # "effectively provides Blue with a pass"
    for text, way, blocker in (("c3-d2", "south-east", "d2 holds a small Green"),
                               ("c3-b4", "north-west", "b4 holds a small Blue")):
        reason = game.illegal_reason(state, game.parse_move(state, text))
        assert reason is not None
        assert f"the medium on c3 cannot move {way} at all" in reason and blocker in reason


def test_small_passes_over_larger_pieces_and_lands_on_a_large_at_the_edge(
    game: Game[Any, Any],
) -> None:
    state = game.parse_position(board(EMPTY_RANK, EMPTY_RANK, "Bs,Gm,Bl,.,Gl", side="B"))
    assert "a3-e3" in moves_from(game, state, "a3")
    after = game.play(state, "a3-e3")
    assert stack(game, after, "e3") == "GlBs"
    assert stack(game, after, "a3") == "."
    # the original: "If Blue moves the lone small south, it ends stacked on the large"
    state = game.parse_position(board(".,Bs,.,.,.", EMPTY_RANK, EMPTY_RANK, EMPTY_RANK,
                                      ".,Gl,.,.,."))
    assert stack(game, game.play(state, "b5-b1"), "b1") == "GlBs"


def test_a_large_never_enters_an_occupied_square(game: Game[Any, Any]) -> None:
    state = game.parse_position(board(".,.,Gs,.,.", EMPTY_RANK, ".,.,Gl,.,.", EMPTY_RANK,
                                      ".,.,Bl,.,Bm"))
    assert moves_from(game, state, "c1") == {"c1-c2", "c1-a3", "c1-e3", "c1-a1", "c1-d1"}
    reason = game.illegal_reason(state, game.parse_move(state, "c1-c3"))
    assert reason == (
        "the large on c1 cannot stop on c3: moving north it slides to c2, because c3 holds"
        " a large Green, which is not larger than a large"
    )
    # east: the medium on e1 blocks a large as well
    assert "c1-e1" not in moves_from(game, state, "c1")


def test_a_medium_passes_over_a_large_but_stops_before_a_small(game: Game[Any, Any]) -> None:
    state = game.parse_position(board(EMPTY_RANK, EMPTY_RANK, EMPTY_RANK, EMPTY_RANK,
                                      "Bm,Gl,.,Gs,."))
    assert moves_from(game, state, "a1") == {"a1-c1", "a1-a5", "a1-e5"}
    # the original: "a large piece has no effect on the movement of a medium"
    assert stack(game, game.play(state, "a1-c1"), "b1") == "Gl"
    # ... and a medium may end on a large
    state = game.parse_position(board(EMPTY_RANK, EMPTY_RANK, EMPTY_RANK, EMPTY_RANK,
                                      "Bm,Gl,Bl,Gl,Bl"))
    assert moves_from(game, state, "a1") == {"a1-e1", "a1-a5", "a1-e5"}
    assert stack(game, game.play(state, "a1-e1"), "e1") == "BlBm"


def test_only_top_pieces_move(game: Game[Any, Any]) -> None:
    state = game.parse_position(board(EMPTY_RANK, EMPTY_RANK, ".,.,BlGs,.,.", EMPTY_RANK,
                                      "Bs,.,.,.,."))
    assert moves_from(game, state, "c3") == set()
    reason = game.illegal_reason(state, game.parse_move(state, "c3-c5"))
    assert reason == (
        "c3 has no piece of yours on top: your large Blue there is under the small Green,"
        " and only top pieces move"
    )
    with pytest.raises(IllegalMoveError, match="no piece of yours on top"):
        game.play(state, "c3-c5")
    # once uncovered, it moves again
    green = game.parse_position(board(EMPTY_RANK, EMPTY_RANK, ".,.,BlGs,.,.", EMPTY_RANK,
                                      "Bs,.,.,.,.", side="G"))
    uncovered = game.play(game.play(green, "c3-e5"), "pass")
    assert moves_from(game, uncovered, "c3") == set()  # Blue passed; Green to move
    assert game.to_move(uncovered) == 1


def test_a_line_counts_your_piece_under_an_opponents_piece(game: Game[Any, Any]) -> None:
    state = game.parse_position(board(EMPTY_RANK, EMPTY_RANK, ".,.,.,Bs,.", EMPTY_RANK,
                                      "BlGm,Bm,Bl,.,Gl"))
    after = game.play(state, "d3-d1")
    outcome = game.outcome(after)
    assert outcome is not None and outcome.winner == 0
    assert outcome.reason == "four in a line on a1-d1"
    # and a piece of yours on top of an opponent's counts just the same
    state = game.parse_position(board(EMPTY_RANK, EMPTY_RANK, ".,.,.,Bs,.", EMPTY_RANK,
                                      "GlBm,Bm,Bl,.,Gl"))
    assert game.outcome(game.play(state, "d3-d1")) == outcome


def test_a_stack_of_two_of_yours_counts_once(game: Game[Any, Any]) -> None:
    # four blue pieces on rank 1 squares a1, b1, c1 after the small lands on a1: three squares
    state = game.parse_position(board(EMPTY_RANK, EMPTY_RANK, "Bs,.,.,.,.", EMPTY_RANK,
                                      "Bl,Bm,Bl,.,Gl"))
    after = game.play(state, "a3-a1")
    assert stack(game, after, "a1") == "BlBs"
    assert game.outcome(after) is None


def test_diagonal_lines_win(game: Game[Any, Any]) -> None:
    state = game.parse_position(board(".,Gm,.,.,Gs", ".,.,.,Gl,.", ".,.,Gl,.,.", EMPTY_RANK,
                                      ".,Bs,.,.,.", side="G"))
    after = game.play(state, "b5-b2")  # the medium slides south and stops before the small
    outcome = game.outcome(after)
    assert outcome is not None and outcome.winner == 1 and "b2-e5" in outcome.reason
    assert game.legal_moves(after) == [] and game.to_move(after) is None


def test_the_third_repetition_draws(game: Game[Any, Any]) -> None:
    state = game.initial_state()
    plies = ["c4-c3", "pass", "c3-c4", "pass"] * 2
    for i, text in enumerate(plies, start=1):
        assert game.outcome(state) is None, f"over before ply {i}"
        state = game.play(state, text)
    assert state.repetitions == 3
    outcome = game.outcome(state)
    assert outcome is not None and outcome.result is Result.DRAW
    assert outcome.reason.startswith("threefold repetition")
    # passes alone repeat positions too: the start recurs at plies 2 and 4
    state = game.initial_state()
    for _ in range(3):
        state = game.play(state, "pass")
        assert game.outcome(state) is None
    state = game.play(state, "pass")
    assert game.outcome(state) is not None and state.repetitions == 3


def test_pass_is_one_move(game: Game[Any, Any]) -> None:
    state = game.initial_state()
    moves = game.legal_moves(state)
    assert moves.count(Pass()) == 1
    after = game.play(state, "pass")
    assert after.board == state.board and after.to_play == 1
    assert game.decode(game.encode(Pass())) == Pass()
    # several pieces have zero-square moves, in several directions, yet there is one pass
    zero = [
        (sq, d) for sq in range(25) for d in range(8)
        if state.board[sq] and state.board[sq][-1] // 3 == 0 and game.stop(state, sq, d) == sq
    ]
    assert len(zero) > 10


def test_no_pass_without_a_zero_square_move(game: Game[Any, Any]) -> None:
    # Blue's only piece stands free in the middle: every direction moves it at least one square
    state = game.parse_position(board(EMPTY_RANK, EMPTY_RANK, ".,.,Bs,.,.", EMPTY_RANK,
                                      "Gs,.,.,.,."))
    assert Pass() not in game.legal_moves(state)
    assert len(game.legal_moves(state)) == 8
    with pytest.raises(IllegalMoveError, match="no zero-square move"):
        game.play(state, "pass")


def test_a_player_with_no_top_piece_loses(game: Game[Any, Any]) -> None:
    state = game.parse_position(board(EMPTY_RANK, EMPTY_RANK, "Gm,.,.,.,.", EMPTY_RANK,
                                      "Bl,.,.,.,.", side="G"))
    after = game.play(state, "a3-a1")  # the green medium covers Blue's only piece
    outcome = game.outcome(after)
    assert outcome is not None and outcome.winner == 1
    assert "Blue has no piece on top" in outcome.reason


def test_the_side_to_move_cannot_already_have_a_line(game: Game[Any, Any]) -> None:
    rank1 = "Bl,Bm,Bl,Bm,."
    with pytest.raises(NotationError, match="Blue, to move, already has four in a line"):
        game.parse_position(board(EMPTY_RANK, EMPTY_RANK, EMPTY_RANK, EMPTY_RANK, rank1))
    # both sides: still refused (the side to move has one)
    both = board("Gl,Gm,Gl,Gm,.", EMPTY_RANK, EMPTY_RANK, EMPTY_RANK, rank1, side="G")
    with pytest.raises(NotationError, match="Green, to move"):
        game.parse_position(both)
    # the side that just moved has a line: that game is over, won by them
    finished = game.parse_position(board(EMPTY_RANK, EMPTY_RANK, EMPTY_RANK, EMPTY_RANK, rank1,
                                         side="G"))
    outcome = game.outcome(finished)
    assert outcome is not None and outcome.winner == 0 and game.legal_moves(finished) == []


def test_length_cap(game: Game[Any, Any]) -> None:
    capped = fourfold.load("icedao", max_plies=2)
    state = capped.play(capped.play(capped.initial_state(), "pass"), "pass")
    outcome = capped.outcome(state)
    assert outcome is not None and outcome.result is Result.DRAW
    assert outcome.reason == "length cap reached"
    # a win on the capping ply is still a win
    one = fourfold.load("icedao", max_plies="1")
    state = one.parse_position(board(EMPTY_RANK, EMPTY_RANK, ".,.,.,Bs,.", EMPTY_RANK,
                                     "Bl,Bm,Bl,.,Gl"))
    outcome = one.outcome(one.play(state, "d3-d1"))
    assert outcome is not None and outcome.winner == 0
    assert fourfold.load("icedao", max_plies="none").max_plies is None
    for bad in ("0", "-3", "x", "1.5"):
        with pytest.raises(ConfigurationError, match="max-plies"):
            fourfold.load("icedao", max_plies=bad)


def test_green_may_move_first() -> None:
    game = fourfold.load("icedao", first="green")
    state = game.initial_state()
    assert game.to_move(state) == 1
    assert game.format_position(state) == START[:-1] + "G"
    assert game.info.option_strings() == {"start": "crossed", "first": "green",
                                          "max-plies": "none"}


def test_start_is_a_named_ruling_option() -> None:
    spec = fourfold.get_spec("icedao")
    start = next(o for o in spec.options if o.name == "start")
    assert start.ruling and start.default == "crossed"
    with pytest.raises(ConfigurationError, match="must be one of crossed"):
        fourfold.load("icedao", start="diagonal")


def test_apply_does_not_change_its_input(game: Game[Any, Any]) -> None:
    state = game.initial_state()
    before = (state.board, state.to_play, state.history, state.plies)
    after = game.play(state, "c4-e2")
    assert (state.board, state.to_play, state.history, state.plies) == before
    assert after.history == (state.key,) and after.plies == 1
    assert isinstance(game.parse_move(state, "c4-e2"), Slide)
