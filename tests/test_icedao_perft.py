"""Ice Dao perft (RULES.md §4), depths 1-4 from the default start, pinned and checked
against a second move generator written here straight from the rule text: a board of
(file, rank) -> list of pieces, stepping one square at a time, sharing no code with the
engine. The two must also agree on the legal moves and the result of every position of
seeded random games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import fourfold
from fourfold.cli.main import main
from fourfold.core.perft import perft
from fourfold.games.icedao import Slide

PINNED = [22, 484, 10751, 237759]

# ---------------------------------------------------------------------------------------
# The reference: rule text -> code, as literally as possible.
# ---------------------------------------------------------------------------------------
Board = dict[tuple[int, int], list[str]]  # (file, rank) from 0 -> pieces bottom to top
EIGHT_WAYS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
BIGNESS = {"s": 1, "m": 2, "l": 3}
FILES = "abcde"

# RULES.md §2, the `crossed` table, written out square by square
RULES_TABLE_START = {
    "a5": "Gl", "b5": "Bs", "c5": "Gm", "d5": "Bs", "e5": "Gl",
    "c4": "Bm",
    "c2": "Gm",
    "a1": "Bl", "b1": "Gs", "c1": "Bm", "d1": "Gs", "e1": "Bl",
}


def ref_start() -> Board:
    board: Board = {(x, y): [] for x in range(5) for y in range(5)}
    for name, piece in RULES_TABLE_START.items():
        board[(FILES.index(name[0]), int(name[1]) - 1)].append(piece)
    return board


def ref_from_text(text: str) -> tuple[Board, str]:
    """Read the engine's position string (to compare positions the engine reached)."""
    layout, side = text.split(" ")
    board: Board = {}
    for row, rank in enumerate(layout.split("/")):
        for x, square in enumerate(rank.split(",")):
            pieces = [] if square == "." else [square[i:i + 2] for i in range(0, len(square), 2)]
            board[(x, 4 - row)] = pieces
    return board, side


def name(square: tuple[int, int]) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


def ref_moves(board: Board, side: str) -> list[str]:
    """'Move one of your top pieces as far as it will go in one of eight directions'."""
    moves: list[str] = []
    zero_square_move = False
    for (x, y), pieces in sorted(board.items()):
        if not pieces or pieces[-1][0] != side:  # only your pieces on top move
            continue
        me = BIGNESS[pieces[-1][1]]
        for dx, dy in EIGHT_WAYS:
            at = (x, y)
            while True:
                nxt = (at[0] + dx, at[1] + dy)
                if nxt not in board:  # the edge
                    break
                if any(BIGNESS[p[1]] <= me for p in board[nxt]):  # same size or smaller
                    break
                at = nxt
            if at == (x, y):
                zero_square_move = True
            else:
                moves.append(f"{name((x, y))}-{name(at)}")
    if zero_square_move:
        moves.append("pass")
    return moves


def ref_play(board: Board, move: str) -> Board:
    new = {sq: list(p) for sq, p in board.items()}
    if move != "pass":
        a, b = move.split("-")
        src = (FILES.index(a[0]), int(a[1]) - 1)
        dst = (FILES.index(b[0]), int(b[1]) - 1)
        new[dst].append(new[src].pop())
    return new


def ref_has_four(board: Board, side: str) -> bool:
    """Four consecutive squares in a row/column/diagonal, each holding a piece of ``side``
    anywhere in its stack."""
    def mine(sq: tuple[int, int]) -> bool:
        return sq in board and any(p[0] == side for p in board[sq])

    for x, y in board:
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if all(mine((x + i * dx, y + i * dy)) for i in range(4)):
                return True
    return False


def ref_key(board: Board, side: str) -> str:
    return ";".join("".join(board[sq]) for sq in sorted(board)) + side


def ref_result(board: Board, side: str, seen: list[str]) -> str | None:
    """'win B', 'win G' or 'draw' once over, else None; ``side`` is to move."""
    other = "G" if side == "B" else "B"
    if ref_has_four(board, other):
        return f"win {other}"
    if not any(p and p[-1][0] == side for p in board.values()):
        return f"win {other}"
    if seen.count(ref_key(board, side)) >= 3:
        return "draw"
    return None


def ref_perft(board: Board, side: str, seen: list[str], depth: int) -> int:
    if ref_result(board, side, seen) is not None:
        return 0
    moves = ref_moves(board, side)
    if depth == 1:
        return len(moves)
    other = "G" if side == "B" else "B"
    total = 0
    for move in moves:
        after = ref_play(board, move)
        total += ref_perft(after, other, [*seen, ref_key(after, other)], depth - 1)
    return total


# ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def game() -> Any:
    return fourfold.load("icedao")


def test_reference_start_is_the_rules_table(game: Any) -> None:
    board, side = ref_from_text(game.format_position(game.initial_state()))
    assert board == ref_start() and side == "B"


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_perft_pinned_and_cross_checked(game: Any, depth: int) -> None:
    count = perft(game, game.initial_state(), depth)
    assert count == PINNED[depth - 1]
    start = ref_start()
    assert ref_perft(start, "B", [ref_key(start, "B")], depth) == count


def test_perft_with_green_first_is_the_same_by_symmetry() -> None:
    green = fourfold.load("icedao", first="green")
    assert [perft(green, green.initial_state(), d) for d in (1, 2, 3)] == PINNED[:3]


def random_positions(game: Any, games: int) -> Iterator[tuple[Any, list[str]]]:
    for seed in range(games):
        rng = random.Random(seed)
        state = game.initial_state()
        seen = [ref_key(*ref_from_text(game.format_position(state)))]
        while True:
            yield state, seen
            if game.outcome(state) is not None:
                break
            state = game.next_state(state, rng.choice(game.legal_moves(state)))
            seen = [*seen, ref_key(*ref_from_text(game.format_position(state)))]


def test_moves_and_results_agree_with_the_reference_on_random_games(game: Any) -> None:
    ends = set()
    for state, seen in random_positions(game, 25):
        board, side = ref_from_text(game.format_position(state))
        expected = ref_moves(board, side) if ref_result(board, side, seen) is None else []
        assert sorted(game.format_move(state, m) for m in game.legal_moves(state)) == sorted(
            expected
        ), game.format_position(state)
        outcome = game.outcome(state)
        result = ref_result(board, side, seen)
        if outcome is None:
            assert result is None
        elif outcome.winner is None:
            assert result == "draw"
        else:
            assert result == f"win {'BG'[outcome.winner]}"
        if result:
            ends.add(result.split()[0])
        # a large never enters or crosses an occupied square
        for move in game.legal_moves(state):
            if not isinstance(move, Slide):
                continue
            if state.board[move.origin][-1] % 3 == 2:
                ray = game.board.rays[move.origin][move.direction]
                stop = game.stop(state, move.origin, move.direction)
                assert all(not state.board[sq] for sq in ray[: ray.index(stop) + 1])
    assert "win" in ends


def test_cli_perft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "icedao", "3"]) == 0
    assert capsys.readouterr().out.split("\n")[:3] == ["1 22", "2 484", "3 10751"]
    setup = ".,.,.,.,./.,.,.,.,./.,.,Bs,.,./.,.,.,.,./Gs,.,.,.,. B"
    assert main(["perft", "icedao", "--setup", setup, "1"]) == 0
    assert capsys.readouterr().out == "1 8\n"
    assert main(["perft", "icedao", "--setup", "nonsense", "1"]) == 2
    assert "cannot read position 'nonsense'" in capsys.readouterr().err
