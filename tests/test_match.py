"""Matches, scores, intervals and the Elo fit (on synthetic data with known strengths)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import fourfold
from fourfold.analysis import fit_ratings, play_match, score_interval
from fourfold.analysis.match import GameResult, MatchResult
from fourfold.analysis.rating import ELO
from fourfold.analysis.tournament import play_tournament
from fourfold.cli.main import main
from fourfold.core.errors import FourfoldError
from fourfold.core.match import Match
from fourfold.core.record import format_record, parse_record

FIXED = fourfold.load("folio", "fixed-grid")


def test_match_alternates_sides_and_scores_from_a() -> None:
    result = play_match(FIXED, "greedy", "random", 6, seed=4)
    assert [g.a_seat for g in result.games] == [0, 1, 0, 1, 0, 1]
    assert result.wins + result.draws + result.losses == 6
    assert result.wins >= 5  # greedy against random
    for g in result.games:
        record = parse_record(format_record(g.record))
        replay = Match.from_record(record)
        assert replay.outcome is not None
        a_name = record.players[g.a_seat]
        assert a_name.startswith("greedy")
        won = replay.outcome.winner
        assert g.a_score == (0.5 if won is None else float(won == g.a_seat))


def test_match_replays_exactly_from_its_seed() -> None:
    one = play_match(FIXED, "level2", "greedy", 2, seed=8)
    two = play_match(FIXED, "level2", "greedy", 2, seed=8)
    assert [g.record.moves for g in one.games] == [g.record.moves for g in two.games]


def test_match_result_counts() -> None:
    result = MatchResult("a", "b")
    dummy = play_match(FIXED, "random", "random", 1, seed=1).games[0].record
    for score in (1.0, 1.0, 0.5, 0.0):
        result.add(GameResult(0, 0, score, 1, dummy))
    assert (result.wins, result.draws, result.losses) == (2, 1, 1)
    assert result.score == pytest.approx(2.5 / 4)
    summary = result.summary()
    assert summary["wins"] == 2 and summary["draws"] == 1 and summary["losses"] == 1


def test_score_interval() -> None:
    low, high = score_interval(60, 0, 40)
    assert low < 0.6 < high
    assert high - low == pytest.approx(2 * 1.96 * math.sqrt(0.24 / 100), rel=1e-3)
    low, high = score_interval(10, 0, 0)
    assert high == 1.0 and 0.6 < low < 0.8  # Wilson width when every game was won
    assert score_interval(0, 0, 0) == (0.0, 1.0)
    low, high = score_interval(5, 10, 5)
    assert low < 0.5 < high


def test_rating_fit_recovers_known_strengths() -> None:
    true = np.array([0.0, 100.0, 250.0, 400.0])
    rng = np.random.default_rng(5)
    k = len(true)
    games = np.zeros((k, k))
    scores = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            n = 3000
            p = 1 / (1 + 10 ** ((true[j] - true[i]) / 400))
            wins = rng.binomial(n, p)
            games[i, j] = games[j, i] = n
            scores[i, j], scores[j, i] = wins, n - wins
    fit = fit_ratings(["a", "b", "c", "d"], games, scores)
    expected = true - true.mean()
    for i in range(k):
        assert abs(fit.elo[i] - expected[i]) < 3 * fit.stderr[i] + 1
        assert 3 < fit.stderr[i] < 15
        low, high = fit.interval(i)
        assert low < fit.elo[i] < high
    assert [row[0] for row in fit.table()] == ["d", "c", "b", "a"]


def test_rating_fit_stays_finite_when_someone_wins_everything() -> None:
    games = np.array([[0, 10], [10, 0]], dtype=float)
    scores = np.array([[0, 10], [0, 0]], dtype=float)
    fit = fit_ratings(["strong", "weak"], games, scores)
    assert all(math.isfinite(e) for e in fit.elo)
    assert fit.elo[0] > 200 and fit.elo[0] == pytest.approx(-fit.elo[1])


def test_rating_fit_matches_the_closed_form_for_two_players() -> None:
    games = np.array([[0, 100], [100, 0]], dtype=float)
    scores = np.array([[0, 64], [36, 0]], dtype=float)
    fit = fit_ratings(["a", "b"], games, scores, prior_elo=1e9)
    diff = ELO * math.log(64 / 36)
    assert fit.elo[0] - fit.elo[1] == pytest.approx(diff, rel=1e-6)


def test_tournament_rates_every_bot() -> None:
    result = play_tournament(FIXED, ["random", "greedy", "level2"], 2, seed=1)
    assert len(result.matches) == 3
    names = [row[0] for row in result.ratings.table()]
    assert sorted(names) == ["greedy", "level2", "random"]
    assert result.ratings.table()[-1][0] == "random"


def test_cli_match_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["match", "folio", "--variant", "fixed-grid", "--bots", "greedy,random",
                 "--games", "4", "--seed", "2", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert {"wins", "draws", "losses"} <= set(data)
    assert all(isinstance(data[k], int) for k in ("wins", "draws", "losses"))
    assert data["wins"] + data["draws"] + data["losses"] == 4


def test_cli_match_text_and_records(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    path = f"{tmp_path}/games.txt"
    assert main(["match", "quarto", "--bots", "level1,random", "--games", "2",
                 "--records", path]) == 0
    out = capsys.readouterr().out
    assert "level1:" in out and "95% interval" in out
    with open(path, encoding="utf-8") as f:
        assert f.read().count('[Game "quarto"]') == 2


def test_cli_match_refuses_bad_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "quarto", "--bots", "level1", "--games", "2"]) == 2
    assert main(["match", "quarto", "--bots", "level1,nobody", "--games", "2"]) == 2
    assert "nobody" in capsys.readouterr().err


def test_cli_tournament_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "folio", "-v", "no-grid", "--bots", "random,greedy",
                 "--games", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {r["bot"] for r in data["ratings"]} == {"random", "greedy"}
    assert len(data["matches"]) == 1


def test_cli_bots_lists_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    for n in range(1, 6):
        assert f"level{n}" in out


def test_anchored_ratings_carry_the_interval_of_the_difference() -> None:
    # two players: the difference and its variance have closed forms (a negligible prior)
    games = np.array([[0, 100], [100, 0]], dtype=float)
    scores = np.array([[0, 64], [36, 0]], dtype=float)
    fit = fit_ratings(["a", "b"], games, scores, prior_elo=1e5, anchor="b")
    assert fit.elo[1] == 0.0 and fit.stderr[1] == 0.0 and fit.interval(1) == (0.0, 0.0)
    assert fit.elo[0] == pytest.approx(ELO * math.log(64 / 36), rel=1e-5)
    # var(logit) = 1 / (n p (1 - p)) for the one difference measured
    assert fit.stderr[0] == pytest.approx(ELO / math.sqrt(100 * 0.64 * 0.36), rel=1e-5)
    assert "relative to b" in fit.scale()
    with pytest.raises(FourfoldError, match="anchor 'c'"):
        fit_ratings(["a", "b"], games, scores, anchor="c")


def test_anchored_interval_is_that_of_the_difference_in_a_chain() -> None:
    # a - b - c, with a and c never meeting: c's interval relative to a spans both pairs,
    # so it is wider than either pair's (a mean-centred interval would be narrower)
    games = np.array([[0, 200, 0], [200, 0, 200], [0, 200, 0]], dtype=float)
    scores = np.array([[0, 80, 0], [120, 0, 80], [0, 120, 0]], dtype=float)
    fit = fit_ratings(["a", "b", "c"], games, scores, prior_elo=1e5, anchor="a")
    pair = ELO / math.sqrt(200 * 0.6 * 0.4)
    assert fit.stderr[0] == 0.0
    assert fit.stderr[1] == pytest.approx(pair, rel=1e-5)
    assert fit.stderr[2] == pytest.approx(math.sqrt(2) * pair, rel=1e-5)
    assert fit.elo[2] == pytest.approx(2 * ELO * math.log(0.6 / 0.4), rel=1e-5)


def test_cli_tournament_rates_relative_to_the_first_bot(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "folio", "--variant", "fixed-grid", "--bots",
                 "random,greedy", "--games", "4", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["anchor"] == "random"
    rows = {row["bot"]: row for row in data["ratings"]}
    assert rows["random"]["elo"] == 0.0 and rows["random"]["interval95"] == [0.0, 0.0]
    low, high = rows["greedy"]["interval95"]
    assert low < rows["greedy"]["elo"] < high
    assert main(["tournament", "folio", "--variant", "fixed-grid", "--bots",
                 "random,greedy", "--games", "4", "--seed", "3"]) == 0
    assert "relative to random" in capsys.readouterr().out
