"""Classic Dao perft (RULES.md §4), depths 1-4 from the start, pinned and checked against
a second move generator written here from the rule text (a dict of (file, rank) ->
owner, stepping one square at a time), which must also agree with the engine on the
moves and result of every position of seeded random games."""

from __future__ import annotations

import random
from typing import Any

import pytest

import fourfold
from fourfold.cli.main import main
from fourfold.core.perft import perft

PINNED = [12, 140, 1688, 19888]

Board = dict[tuple[int, int], str | None]
EIGHT_WAYS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
FILES = "abcd"


def sq(name: str) -> tuple[int, int]:
    return FILES.index(name[0]), int(name[1]) - 1


def name(square: tuple[int, int]) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


def ref_start() -> Board:
    """'The first player starts on a1, b2, c3, d4; the second on a4, b3, c2, d1.'"""
    board: Board = {(x, y): None for x in range(4) for y in range(4)}
    for s in ("a1", "b2", "c3", "d4"):
        board[sq(s)] = "X"
    for s in ("a4", "b3", "c2", "d1"):
        board[sq(s)] = "O"
    return board


def ref_from_text(text: str) -> tuple[Board, str]:
    layout, side = text.split(" ")
    board: Board = {}
    for row, rank in enumerate(layout.split("/")):
        for x, cell in enumerate(rank.split(",")):
            board[(x, 3 - row)] = None if cell == "." else cell
    return board, side


def ref_moves(board: Board, side: str) -> list[str]:
    """'Slides as far as it can, stopping at the edge or before any piece; at least one square.'"""
    moves = []
    for (x, y), owner in sorted(board.items()):
        if owner != side:
            continue
        for dx, dy in EIGHT_WAYS:
            at = (x, y)
            while (at[0] + dx, at[1] + dy) in board and board[(at[0] + dx, at[1] + dy)] is None:
                at = (at[0] + dx, at[1] + dy)
            if at != (x, y):
                moves.append(f"{name((x, y))}-{name(at)}")
    return moves


def ref_play(board: Board, move: str) -> Board:
    a, b = move.split("-")
    new = dict(board)
    new[sq(b)], new[sq(a)] = new[sq(a)], None
    return new


def ref_formation(board: Board, side: str) -> bool:
    mine = {s for s, owner in board.items() if owner == side}
    shapes = [{(x, y) for x in range(4)} for y in range(4)]  # rows
    shapes += [{(x, y) for y in range(4)} for x in range(4)]  # columns
    shapes += [{(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)} for x in range(3) for y in range(3)]
    shapes.append({(0, 0), (3, 0), (0, 3), (3, 3)})
    return mine in shapes


def ref_trapped_owner(board: Board) -> str | None:
    for (cx, cy) in ((0, 0), (3, 0), (0, 3), (3, 3)):
        owner = board[(cx, cy)]
        if owner is None:
            continue
        around = [(cx + dx, cy + dy) for dx, dy in EIGHT_WAYS if (cx + dx, cy + dy) in board]
        if all(board[n] not in (None, owner) for n in around):
            return owner
    return None


def ref_result(board: Board, side: str, seen: list[str]) -> str | None:
    other = "O" if side == "X" else "X"
    if ref_formation(board, other):
        return f"win {other}"
    trapped = ref_trapped_owner(board)
    if trapped:
        return f"win {trapped}"
    key = "".join(board[s] or "." for s in sorted(board)) + side
    return "draw" if seen.count(key) >= 3 else None


def ref_key(board: Board, side: str) -> str:
    return "".join(board[s] or "." for s in sorted(board)) + side


def ref_perft(board: Board, side: str, seen: list[str], depth: int) -> int:
    if ref_result(board, side, seen) is not None:
        return 0
    moves = ref_moves(board, side)
    if depth == 1:
        return len(moves)
    other = "O" if side == "X" else "X"
    return sum(
        ref_perft(after, other, [*seen, ref_key(after, other)], depth - 1)
        for after in (ref_play(board, m) for m in moves)
    )


@pytest.fixture(scope="module")
def game() -> Any:
    return fourfold.load("dao")


def test_reference_start_matches(game: Any) -> None:
    assert ref_from_text(game.format_position(game.initial_state())) == (ref_start(), "X")


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_perft_pinned_and_cross_checked(game: Any, depth: int) -> None:
    count = perft(game, game.initial_state(), depth)
    assert count == PINNED[depth - 1]
    start = ref_start()
    assert ref_perft(start, "X", [ref_key(start, "X")], depth) == count


def test_moves_and_results_agree_with_the_reference_on_random_games(game: Any) -> None:
    kinds = set()
    for seed in range(60):
        rng = random.Random(seed)
        state = game.initial_state()
        seen = [ref_key(*ref_from_text(game.format_position(state)))]
        while True:
            board, side = ref_from_text(game.format_position(state))
            result = ref_result(board, side, seen)
            expected = [] if result else ref_moves(board, side)
            assert sorted(game.format_move(state, m) for m in game.legal_moves(state)) == sorted(
                expected
            )
            outcome = game.outcome(state)
            if outcome is None:
                assert result is None
                state = game.next_state(state, rng.choice(game.legal_moves(state)))
                seen.append(ref_key(*ref_from_text(game.format_position(state))))
                continue
            winner = "draw" if outcome.winner is None else f"win {'XO'[outcome.winner]}"
            assert result == winner
            kinds.add(outcome.reason.split(",")[0].split(" on ")[0])
            break
    # random games reach every kind of ending
    assert {"four in a row", "four in a column", "a 2x2 square", "all four corners"} <= kinds
    assert any(k.startswith("the X") or k.startswith("the O") for k in kinds)


def test_cli_perft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "dao", "4"]) == 0
    assert capsys.readouterr().out == "1 12\n2 140\n3 1688\n4 19888\n"
