"""Ice Dao puzzles (issue 32): every shipped one re-searched with the readable rules
(``legal_moves``, ``next_state``, ``outcome``, repetition included), independently of the
proof search that certified it; a search out of budget never certifies; the terminal
and the JSON say the bound."""

from __future__ import annotations

from typing import Any

import pytest

import fourfold
from fourfold.games.icedao.puzzle_certify import HOLD_WITHIN, certify_within
from fourfold.puzzles.certify import puzzle_of
from fourfold.puzzles.puzzle import Puzzle
from fourfold.puzzles.session import goal_text
from fourfold.puzzles.starter import starter
from support.cli import run_json

SHIPPED = starter("icedao")


def wins_within(game: Any, state: Any, n: int) -> bool:
    """The side to move forces a win within ``n`` of its moves (readable rules)."""
    if n <= 0:
        return False
    mover = game.to_move(state)
    return any(move_wins_within(game, game.next_state(state, m), mover, n)
               for m in game.legal_moves(state))


def move_wins_within(game: Any, child: Any, mover: int, n: int) -> bool:
    """The move that led to ``child`` wins within ``n`` of ``mover``'s moves."""
    outcome = game.outcome(child)
    if outcome is not None:
        return outcome.winner == mover
    if n <= 1:
        return False
    for reply in game.legal_moves(child):
        after = game.next_state(child, reply)
        ended = game.outcome(after)
        if ended is not None:
            if ended.winner != mover:
                return False
            continue
        if not wins_within(game, after, n - 1):
            return False
    return True


def quickest(game: Any, state: Any, most: int) -> int | None:
    return next((n for n in range(1, most + 1) if wins_within(game, state, n)), None)


def check_win(puzzle: Puzzle) -> None:
    game, state = puzzle.load()
    n, line, mover = puzzle.win_in, puzzle.solution, game.to_move(state)
    assert puzzle.bound == n and len(line) == 2 * n - 1
    assert not wins_within(game, state, n - 1)  # N is the quickest
    for ply, text in enumerate(line):
        left = n - ply // 2
        if ply % 2 == 0:  # exactly one move wins within what is left
            winners = [game.format_move(state, m) for m in game.legal_moves(state)
                       if move_wins_within(game, game.next_state(state, m), mover, left)]
            assert winners == [text], (puzzle.position, ply)
        else:  # every reply loses within what is left; the line plays a slowest one
            slowest = max(quickest(game, game.next_state(state, m), left - 1) or 99
                          for m in game.legal_moves(state))
            chosen = game.next_state(state, game.parse_move(state, text))
            assert slowest == left - 1 == quickest(game, chosen, left - 1)
        state = game.next_state(state, game.parse_move(state, text))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == mover


def check_hold(puzzle: Puzzle) -> None:
    game, state = puzzle.load()
    assert len(puzzle.solution) == 1 and puzzle.bound is not None
    losses = {}
    for move in game.legal_moves(state):
        text = game.format_move(state, move)
        losses[text] = quickest(game, game.next_state(state, move), HOLD_WITHIN)
    assert losses.pop(puzzle.solution[0]) is None  # no forced loss within HOLD_WITHIN
    assert losses and all(k is not None for k in losses.values())
    assert max(k for k in losses.values() if k is not None) == puzzle.bound


@pytest.mark.parametrize("index", range(len(SHIPPED)))
def test_every_shipped_icedao_puzzle_holds_by_the_readable_rules(index: int) -> None:
    puzzle = SHIPPED[index]
    assert puzzle.game == "icedao" and puzzle.bound is not None
    (check_win if puzzle.goal == "win" else check_hold)(puzzle)


def test_the_starter_set_has_wins_of_each_length_and_holds() -> None:
    assert len(SHIPPED) >= 12
    kinds = {(p.goal, p.win_in) for p in SHIPPED}
    assert {("win", 1), ("win", 2), ("win", 3), ("hold", 1)} <= kinds


def test_a_search_out_of_budget_certifies_nothing() -> None:
    puzzle = next(p for p in SHIPPED if p.win_in == 3)
    game, state = puzzle.load()
    assert certify_within(game, state, 50) is None
    found = certify_within(game, state, 2_000_000)
    assert found is not None and puzzle_of(found).solution == puzzle.solution


def test_the_goal_says_the_bound() -> None:
    win = next(p for p in SHIPPED if p.win_in == 2)
    assert goal_text(win, "Blue").startswith("Blue to play: find the only move that wins"
                                             " within 2 moves")
    hold = next(p for p in SHIPPED if p.goal == "hold")
    assert f"cannot force a win within {hold.bound} move" in goal_text(hold, "Green")


def test_mined_icedao_puzzles_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    mined = run_json(["puzzles", "icedao", "--count", "3", "--seed", "1", "--json"], capsys)
    assert len(mined) == 3
    for item in mined:
        assert set(item) == {"game", "variant", "options", "position", "solution", "theme",
                             "themes", "rating", "goal", "win_in", "bound"}
        assert item["theme"] == ", ".join(item["themes"])
        puzzle = Puzzle.from_json(item, "mined")
        (check_win if puzzle.goal == "win" else check_hold)(puzzle)
    shipped = run_json(["puzzles", "icedao", "--starter", "--count", "2", "--json"], capsys)
    assert [p["position"] for p in shipped] == [p.position for p in SHIPPED[:2]]


def test_a_length_cap_is_refused() -> None:
    from fourfold.games.icedao.puzzle_certify import certify

    capped = fourfold.load("icedao", **{"max-plies": "200"})
    puzzle = SHIPPED[0]
    assert certify(capped, capped.parse_position(puzzle.position), 5.0) is None
