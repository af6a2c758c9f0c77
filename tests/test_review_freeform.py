"""``fourfold review`` of Folio freeform, which no solver answers: every ply valued by
the strongest bot's bounded look-ahead, marked as an estimate in the JSON and the text,
and the decisive give checked against the rules themselves (every placement on the
action lattice)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fourfold.cli.main import main
from fourfold.core.match import Match
from fourfold.core.record import parse_records
from support.cli import run_json


def _record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A freeform game that level 3 wins against level 2 in 8 plies: level 2's last
    give hands level 3 a line."""
    path = tmp_path / "freeform.rec"
    assert main(["match", "folio", "--variant", "freeform", "--bots", "level3,level2",
                 "--games", "1", "--seed", "3", "--records", str(path), "--json"]) == 0
    capsys.readouterr()
    return path


def _wins_at_once(game: Any, state: Any) -> bool:
    """Whether the player to move can complete a line at once anywhere on the lattice."""
    return any(move.place is not None and game.next_state(state, move).ended is not None
               for move in game.legal_moves(state))


def test_freeform_review_is_an_estimate_on_every_ply(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path, capsys)
    match = Match.from_record(parse_records(path.read_text())[0])
    game = match.game
    review = run_json(["review", str(path), "--json"], capsys)
    plies = review["plies"]
    assert review["solver"] is None and len(plies) == len(match.moves) > 2
    for ply in plies:
        assert ply["source"] == "estimate" and ply["estimate"] is True, ply
        assert ply["label"] is not None and 1 <= len(ply["best"]) <= 8, ply
        for side in ("before", "after"):
            judged = ply[side]
            assert judged["exact"] is False and judged["estimate"] is True, ply
            assert judged["distance"] is None and 0 <= judged["score"] <= 1, ply
    last = plies[-1]
    assert last["after"]["value"] == "win" and last["label"] == "best"
    # the give before the winning line: the rules confirm the opponent could win at once
    # after it, and could not after the best alternative the review names
    decisive = plies[-2]
    state = match.states[decisive["ply"] - 1]
    assert decisive["after"] == {"value": "loss", "distance": None, "exact": False,
                                 "estimate": True, "score": 0.0}
    assert decisive["label"] == "blunder"
    assert _wins_at_once(game, game.next_state(state, match.moves[decisive["ply"] - 1]))
    best = game.parse_move(state, decisive["best"][0])
    assert not _wins_at_once(game, game.next_state(state, best))
    # the same review again: the estimate is bounded in work, not time, and seeded
    assert run_json(["review", str(path), "--json"], capsys) == review


def test_freeform_review_text_marks_every_label_an_estimate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path, capsys)
    assert main(["review", str(path), "--iterations", "400"]) == 0
    out = capsys.readouterr().out
    assert "First blunder (est.)" in out and "not exact" in out
    labelled = [line for line in out.splitlines()
                if any(f" {label} " in line for label in ("best", "blunder"))
                and "│" in line]
    assert labelled and all("(est.)" in line for line in labelled), labelled
    assert "●" not in out.split("Value chart")[1].splitlines()[2]  # no exact dot
