"""Ice Dao's stored answers one move after a certified position: the start's *Blue cannot
force a win within 5 moves* is checked over every one of Blue's first moves, so after
each of them she cannot within 4; with the certificate after ``b5-a4`` (she wins within 5)
the quickest win from there takes exactly 10 plies. Only the side to move's no-win claims
carry over (a claim for the other side says nothing about every move)."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from fourfold.cli.main import main
from fourfold.core.registry import load
from fourfold.games.icedao import solver as icedao
from fourfold.games.icedao import solver_stored
from fourfold.games.icedao.game import IceDaoGame

BLUE, GREEN = 0, 1


def _game(**options: str) -> IceDaoGame:
    game = load("icedao", **options)
    assert isinstance(game, IceDaoGame)
    return game


def _after(game: IceDaoGame, *moves: str) -> str:
    state = game.initial_state()
    for text in moves:
        state = game.next_state(state, next(m for m in game.legal_moves(state)
                                            if game.format_move(state, m) == text))
    return game.format_position(state)


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The search finds nothing: the answers are the certificates' alone."""
    seen: list[str] = []

    def none(game: Any, state: Any, *args: Any) -> None:
        seen.append(game.format_position(state))

    monkeypatch.setattr(icedao, "solve_within", none)
    return seen


def _solve(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["solve", "icedao", *argv, "--json"]) == 0
    answer: dict[str, Any] = json.loads(out.getvalue())
    return answer


@pytest.mark.parametrize("first", ["b5-a4", "d5-e4"])
def test_after_a_quickest_first_move_the_win_is_exact(
        first: str, monkeypatch: pytest.MonkeyPatch, searches: list[str]) -> None:
    position = _after(_game(), first)
    answer = _solve(["--setup", position], monkeypatch)
    assert (answer["value"], answer["winner"], answer["distance"], answer["win_within"]) == \
        ("loss", "Blue", 10, 10)
    assert answer["detail"] == ("Blue forces a win within 5 of its moves; the quickest forced"
                                " win takes exactly 10 plies (not within 8) (stored proof"
                                " certificates)")
    assert searches == [position]


def test_the_bound_is_the_checked_one_and_only_the_mover_s() -> None:
    game = _game()
    winning = game.parse_position(_after(game, "b5-a4"))
    found = solver_stored.facts(game, winning)
    # Blue: a win within 5 (its own certificate), none within 4 (the start's, one move
    # on); Green: nothing (the start's "Green not within 6" is for the side not to move)
    assert found is not None and (found.win_moves, found.no_win_moves) == ((5, None), (4, 0))
    other = solver_stored.facts(game, game.parse_position(_after(game, "a1-a4")))
    # its own certificate proves more than the start's one move on
    assert other is not None and (other.win_moves, other.no_win_moves) == ((None, None), (5, 0))
    # two moves on, nothing carries over
    assert solver_stored.facts(game, game.parse_position(_after(game, "b5-a4", "b1-b5"))) \
        is None


def test_without_the_start_s_certificate_the_answer_is_a_bound(
        monkeypatch: pytest.MonkeyPatch, searches: list[str]) -> None:
    game = _game()
    start = game.format_position(game.initial_state())
    kept = [e for e in solver_stored.index_entries(solver_stored.proof_hooks(game))
            if not (e["position"] == start and e["claim"] == "no-win")]
    monkeypatch.setattr(solver_stored, "index_entries", lambda hooks: kept)
    monkeypatch.setattr(solver_stored, "_AFTER", {})
    answer = _solve(["--setup", _after(game, "b5-a4")], monkeypatch)
    assert (answer["value"], answer["distance"]) == ("loss", None)
    assert "at most 10 plies" in answer["detail"]


def test_the_colour_swapped_twin_is_exact_too(monkeypatch: pytest.MonkeyPatch,
                                              searches: list[str]) -> None:
    # with Green first, her mirror of b5-a4 leaves Blue losing in exactly 10 plies
    position = _after(_game(first="green"), "d1-e2")
    answer = _solve(["--option", "first=green", "--setup", position], monkeypatch)
    assert (answer["to_move"], answer["value"], answer["winner"], answer["distance"]) == \
        ("Blue", "loss", "Green", 10)
