"""The designer's report tells the truth (issue 33): a planted first-mover edge is
named after the right player; drama stands on a side-to-move-neutral evaluation or is
left out with the reason; the Elo ladder is anchored; one game has no interval;
cooperative teams are compared on the same deals; bounds are called bounds; Knuth's
estimate never sits at the edge of its own interval; compare mode gives differences
and overlaid plots; endings, coverage and playing time are reported; small runs draw
no empty legend."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from fourfold.analysis.report import Config, Settings, analyze, complexity, metrics, render
from fourfold.analysis.report.analyze import _complexity_text, ladder, plan
from fourfold.analysis.report.games import Trace, coverage, start_seed
from fourfold.analysis.report.intervals import Estimate, difference, mean_t, proportion
from fourfold.core import registry
from fourfold.core.errors import NotationError
from fourfold.core.game import PerfectInformation
from fourfold.core.outcome import Outcome
from fourfold.core.spec import GameSpec, Utility, VariantSpec, bool_option

pytest.importorskip("matplotlib")

# -- a test-only game with a planted first-mover edge --------------------------------------
#
# Six plies; each adds 0, 1 or 2 to the mover's total; the higher total wins, equal
# totals draw. Seat 1 ("South") moves first, as the giver does in Quarto and Folio, so
# "first player" and "seat 0" name different people. With ``edge=true`` the first mover
# starts three points up: under random play they win most games.

NAMES = ("North", "South")
PLIES = 6


@dataclass(frozen=True)
class RaceState:
    totals: tuple[int, int]
    plies: int
    edge: bool

    @property
    def mover(self) -> int:
        return 1 - self.plies % 2  # seat 1 first


class Race(PerfectInformation[RaceState, int]):
    def player_name(self, player: int) -> str:
        return NAMES[player]

    def initial_state(self, seed: int | None = None) -> RaceState:
        edge = bool(self.info.options["edge"])
        return RaceState((0, 3) if edge else (0, 0), 0, edge)

    def to_move(self, state: RaceState) -> int | None:
        return None if state.plies >= PLIES else state.mover

    def legal_moves(self, state: RaceState) -> Sequence[int]:
        return [] if state.plies >= PLIES else [0, 1, 2]

    def outcome(self, state: RaceState) -> Outcome | None:
        if state.plies < PLIES:
            return None
        north, south = state.totals
        if north == south:
            return Outcome.draw("equal totals")
        return Outcome.win(0 if north > south else 1, "the higher total")

    def next_state(self, state: RaceState, move: int) -> RaceState:
        totals = list(state.totals)
        totals[state.mover] += move
        return RaceState((totals[0], totals[1]), state.plies + 1, state.edge)

    def parse_move(self, state: RaceState, text: str) -> int:
        if text.strip() not in ("0", "1", "2"):
            raise NotationError("move", text, "a move is 0, 1 or 2")
        return int(text)

    def format_move(self, state: RaceState, move: int) -> str:
        return str(move)

    def parse_position(self, text: str) -> RaceState:
        north, south, plies, edge = text.split(",")
        return RaceState((int(north), int(south)), int(plies), edge == "1")

    def format_position(self, state: RaceState) -> str:
        return f"{state.totals[0]},{state.totals[1]},{state.plies},{int(state.edge)}"

    @property
    def num_actions(self) -> int:
        return 3

    def encode(self, move: int) -> int:
        return move

    def decode(self, action: int) -> int:
        return action


SPEC = GameSpec(
    name="testrace", title="Test race", summary="a test-only game", num_players=2,
    utility=Utility.ZERO_SUM, perfect_information=True,
    variants=(VariantSpec("standard", "six plies"),),
    options=(bool_option("edge", False, "the first mover starts three points up"),),
    factory=Race, rules_text=lambda variant: "test only")


@pytest.fixture
def race() -> Iterator[None]:
    registry.get_spec("dao")  # the real games first, so ours is added after them
    registry.register(SPEC)
    try:
        yield
    finally:
        registry._SPECS.pop(SPEC.name, None)
        for key in [k for k in registry._GAMES if k[0] == SPEC.name]:
            del registry._GAMES[key]


SMALL: dict[str, Any] = dict(levels=("random", "greedy"), workers=1, playouts=2,
                             solve_seconds=0)


def test_a_planted_first_mover_edge_names_the_player_who_acts_first(race: None) -> None:
    [r] = analyze([Config("testrace", None, (("edge", "true"),))], Settings(games=40, **SMALL))
    assert r["first_player"] == {"seat": 1, "name": "South", "other": "North"}
    o = r["self_play"]["random"]["outcomes"]
    assert o["first_score"].low > 0.5  # the first mover's score, not seat 0's
    balance = r["findings"][0]["text"]
    assert balance.startswith("South acts first.")
    assert "South, who acts first, has a measurable edge at greedy" in balance
    assert "North, who acts second, has a measurable edge" not in balance
    pooled = r["pooled"]["outcomes"]["first_score"]
    assert pooled.n == 80 and pooled.low > 0.5
    page = render([r], {"command": "test"})
    assert "<b>South</b> acts first" in page and "South wins" in page
    # one figure, one interval for the edge: the sentence quotes the table's score cells
    for level in ("random", "greedy"):
        score = r["self_play"][level]["outcomes"]["first_score"].text()
        assert f"{level}: {score}" in balance and f"<td>{score}</td>" in page
    assert "share of wins" not in balance


def test_without_the_edge_the_sentence_follows_the_figures(race: None) -> None:
    # random play is symmetric; the greedy bot wins on the last ply when it can, and the
    # last ply is the second mover's (North's): each sentence says what its figures show
    [r] = analyze([Config("testrace")], Settings(games=40, **SMALL))
    random_score = r["self_play"]["random"]["outcomes"]["first_score"]
    greedy_score = r["self_play"]["greedy"]["outcomes"]["first_score"]
    assert random_score.low < 0.5 < random_score.high
    assert greedy_score.high < 0.5
    text = r["findings"][0]["text"]
    assert "North, who acts second, has a measurable edge at greedy" in text
    assert "South, who acts first, has a measurable edge" not in text


def test_compare_mode_gives_differences_with_intervals_and_overlaid_plots(
        race: None) -> None:
    configs = [Config("testrace", None, (("edge", v),)) for v in ("false", "true")]
    reports = analyze(configs, Settings(games=30, **SMALL))
    page = render(reports, {"command": "test"}, ("edge", ["false", "true"]))
    assert "true minus false (95%)" in page and "MOVER" in page
    side = page[page.index("Side by side"):page.index("<details")]
    assert side.count("<svg") == 2  # first mover's score by level, and the lengths
    assert "edge = true" in side
    # the edge raises the first mover's score measurably: marked with *
    row = side[side.index("South&#x27;s score (acts first), all levels pooled"):]
    assert "*" in row[:row.index("</tr>")]


# -- the neutral evaluation ------------------------------------------------------------------

def _trace(evals: list[float], winner: int | None = 0, index: int = 0, **kw: Any) -> Trace:
    movers = [i % 2 for i in range(len(evals))]
    return Trace(f"k{index}", "self:x", index, ["x", "x"], "win" if winner is not None
                 else "draw", winner, len(evals), [3] * len(evals), evals, None,
                 kw.get("reason", ""), movers, None)


def test_a_side_to_move_lean_is_cancelled_and_reported() -> None:
    # seat 0 wins steadily; the evaluator adds +-0.3 toward the side to move
    games = []
    for g in range(12):
        truth = [0.5 + 0.4 * t / 11 for t in range(12)]
        games.append(_trace([v + (0.3 if t % 2 == 0 else -0.3) for t, v in enumerate(truth)],
                            0, g))
    ev = metrics.evaluation(games)
    alt, pairs = ev["raw_alternating"]
    assert alt == pairs == 12 * 10  # the raw evaluation flips at every ply
    assert ev["neutral_alternating"][0] == 0
    assert ev["lean"].value == pytest.approx(0.3)
    assert ev["supported"]
    # on the raw series the winner looks clearly behind every other ply; not on the neutral
    assert ev["comebacks"].value == 0.0 and ev["lead_changes"].value == 0.0


def test_drama_is_left_out_with_the_reason_when_the_evaluator_cannot_support_it() -> None:
    # pair means that still alternate: the evaluator says nothing about who leads
    games = [_trace([0.5, 0.6, 0.3, 0.8, 0.1, 1.0], 1, g) for g in range(12)]
    ev = metrics.evaluation(games)
    assert not ev["supported"] and "alternate in sign" in ev["why"]
    assert "drama" not in ev and "lead_changes" not in ev
    assert not metrics.evaluation([replace(t, evals=[]) for t in games])["supported"]


# -- the ladder, intervals, sentences ---------------------------------------------------------

def test_the_ladder_is_anchored_at_the_weakest_bot() -> None:
    from fourfold.analysis.match import MatchResult

    matches = [MatchResult("level2", "level1", 30, 4, 6), MatchResult("level3", "level2",
                                                                      25, 5, 10)]
    pairs = [metrics.pair_figures(m) for m in matches]
    lad = ladder(["level1", "level2", "level3"], pairs, matches)
    anchor, two, three = lad["ratings"]
    assert anchor == {"bot": "level1", "elo": 0.0, "low": 0.0, "high": 0.0, "anchor": True}
    # one pair below: the rung's interval is that pair's own
    assert two["low"] == pytest.approx(two["elo"] - (two["elo"] - pairs[0]["elo"].low))
    assert two["low"] < two["elo"] < two["high"]
    assert three["high"] - three["low"] > two["high"] - two["low"]  # wider up the chain
    assert lad["span"].value == three["elo"]


def test_one_game_has_no_interval() -> None:
    assert mean_t([0.833]).text(percent=True) == "83.3% (one game)"
    assert proportion(1, 1).text(percent=True) == "100.0% (one game)"
    assert mean_t([0.833]).as_json()["low"] is None
    assert not proportion(1, 1).excludes(0.5)
    assert "one game" in difference(mean_t([1.0]), mean_t([0.0, 1.0])).text()
    # values all alike have no spread to make a t interval from
    assert mean_t([0.0] * 20).text("{:.2f}") == "0.00 (all 20 alike)"
    assert not difference(mean_t([0.0] * 20), mean_t([0.0, 1.0])).interval


def test_sentences_claim_only_what_their_figures_support() -> None:
    from fourfold.analysis.report.analyze import _change, _depth_words

    a, b = mean_t([10.0, 12.0, 14.0]), mean_t([11.0, 13.0, 15.0])
    assert "no change is measurable" in _change(a, b, "{:.1f}", "plies")
    a, b = mean_t([10.0, 10.5, 11.0] * 5), mean_t([20.0, 20.5, 21.0] * 5)
    assert "measurably lengthens" in _change(a, b, "{:.1f}", "plies")
    assert "not pinned down" in _depth_words(Estimate(900, -40, 1600, 3, "x"))
    assert "long ladder" in _depth_words(Estimate(2100, 1969, 2276, 500, "x"))


def test_cooperative_teams_play_the_same_deals() -> None:
    jobs = plan(Config("quatrefoil"), Settings(games=3, levels=("random", "quatrefoil")))
    by_team: dict[str, list[int]] = {}
    for job in jobs:
        by_team.setdefault(job.group, []).append(start_seed(job))
    assert by_team["team:random"] == by_team["team:quatrefoil"]
    a = [_trace([], None, i) for i in range(4)]
    won = [replace(t, result="team-win") for t in a]
    d = metrics.paired_difference(won, a)
    assert d.value == 1.0 and d.n == 4
    assert d.low < 0.8  # every deal agrees, yet four deals leave room: no zero width
    assert metrics.paired_difference(a, a).value == 0.0


def test_ice_dao_state_space_is_called_a_bound() -> None:
    count = complexity.state_space(registry.load("icedao"))
    assert count is not None and not count.exact and "upper bound" in count.method
    r = {"complexity": {"state_space": {"positions": count.positions, "log10": 14.93,
                                        "exact": count.exact, "method": count.method},
                        "knuth_random": None, "shannon_random": None, "shannon_best": None,
                        "best": "level5"}}
    text = _complexity_text(r)
    assert "exactly" not in text and "at most (an upper bound)" in text


def test_knuth_never_sits_at_the_edge_of_its_interval() -> None:
    even = [_trace([0.5] * 10, 0, i) for i in range(60)]
    for n, t in enumerate(even):
        t.branching = [4] * 9 + [3 + n % 3]
    k, ess = complexity.knuth(even, 0)
    assert ess > complexity.MIN_EFFECTIVE and k.interval
    assert k.low < k.value < k.high
    heavy = [replace(t, branching=[3] * 10) for t in even[:59]]
    heavy.append(replace(even[0], branching=[20] * 200))  # one long game carries the mean
    k, ess = complexity.knuth(heavy, 0)
    assert ess < 2 and not k.interval
    assert math.isclose(k.value, math.log10((59 * 3**10 + 20**200) / 60))


# -- endings, coverage, time, legend ------------------------------------------------------------

def test_ending_types_repetition_and_stalemate() -> None:
    names = ("Blue", "Green")
    t = _trace([], 0, reason="four in a line on e2-e5")
    assert metrics.ending_type(t, names) == "four in a line"
    t = _trace([], 0, reason="Green has no piece on top of a stack and cannot move")
    assert metrics.ending_type(t, names) == "(loser) has no piece on top of a stack and cannot move"
    t = _trace([], 1, reason="the X on a1 is trapped in its corner by three O pieces; "
               "the trapper loses")
    assert metrics.ending_type(t, ("X", "O")) == ("the (loser) is trapped in its corner by "
                                                 "three (winner) pieces; the trapper loses")
    rep = _trace([], None, reason="threefold repetition (the same position with Blue to move "
                 "occurred for the third time)")
    assert "(a side) to move" in metrics.ending_type(rep, names)
    stuck = _trace([], 0, reason="Green has no piece on top of a stack and cannot move")
    e = metrics.endings([rep, stuck, _trace([], 0, reason="four in a line on a1-d1")], names)
    assert e["repetition"].value == pytest.approx(1 / 3)
    assert e["stalemate"].value == pytest.approx(1 / 3)


def test_board_coverage_and_playing_time() -> None:
    game = registry.load("quarto")
    state = game.initial_state()
    states = [state]
    for _ in range(5):
        state = game.apply(state, game.legal_moves(state)[0])
        states.append(state)
    assert coverage(game, states) == 4 / 16  # the first ply only gives a piece
    assert coverage(registry.load("folio", "no-grid"), states) is None
    d = metrics.duration([_trace([0.5] * 12, 0), _trace([0.5] * 8, 0)], pace=30.0)
    assert d["minutes"].value == pytest.approx(5.0)


def test_a_small_run_draws_no_empty_legend(race: None, tmp_path: Path) -> None:
    reports = analyze([Config("testrace")], Settings(games=2, **SMALL))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        page = render(reports, {"command": "test"})
    assert page.count("<svg") >= 5


def test_repetition_and_stalemate_rates_only_where_the_rules_have_them() -> None:
    from fourfold.analysis.report.analyze import _endings_text
    from fourfold.analysis.report.facts import facts_of

    assert facts_of(registry.load("dao")).endings == ("repetition", "stalemate")
    assert facts_of(registry.load("icedao")).endings == ("repetition", "stalemate")
    assert facts_of(registry.load("folio")).endings == ()
    names = ("Blue", "Green")
    e = metrics.endings([_trace([], 0, reason="four in a line on a1-d1")], names)
    r = {"levels": ["level1"], "self_play": {"level1": {"endings": e}}}
    assert "repetition" not in _endings_text({**r, "special_endings": []}).replace(
        "no repetition or stalemate ending", "")
    assert _endings_text({**r, "special_endings": []}).endswith(
        "The rules have no repetition or stalemate ending.")
    both = _endings_text({**r, "special_endings": ["repetition", "stalemate"]})
    assert "Ended by repetition: level1: 0.0%" in both
    assert "could not move (stalemate): level1: 0.0%" in both
