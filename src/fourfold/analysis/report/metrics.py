"""The measures of a set of traced games (Ludii's game evaluation metrics).

Names and definitions follow Ludii's ``Evaluation/src/metrics`` (Stephenson,
Browne et al.), which go back to Browne's criteria for evaluating games
("Automatic generation and evaluation of recombination games", PhD thesis, 2008):

- *balance*: 1 - |win rate of player 1 - win rate of player 2| (Ludii ``Balance``);
- *completion*: share of games with a winner; *drawishness*: share drawn by the rules;
  *timeouts*: share cut by the length cap (Ludii ``Completion``, ``Drawishness``,
  ``Timeouts``);
- *duration*: plies per game; *branching factor*: legal moves per position
  (``DurationMoves``, ``BranchingFactor``);
- *drama*: at each position, how far the eventual winner's evaluation is below the
  best player's (``Drama``: the difference between the highest evaluation and the
  winner's), averaged over the game; here also the share of games in which the
  winner was clearly behind at some point ("comebacks");
- *lead changes*: how often the player ahead changes (``LeadChange``). Ludii counts
  every change of the set of leaders; with an evaluator made of playouts, near-equal
  positions would make noise of that, so a player leads only when their expected
  score is above 1/2 + ``MARGIN``, and a change is a switch from one leader to the
  other (level stretches in between do not count);
- *decisiveness*: the threshold is the highest evaluation the loser ever had
  (``DecisivenessThreshold``); the game is decided at the first position where the
  winner is above it, reported as a share of the game's length (``DecisivenessMoves``:
  smaller means decided earlier).
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence
from typing import Any

from fourfold.analysis.match import MatchResult
from fourfold.analysis.report.games import Trace
from fourfold.analysis.report.intervals import Estimate, bootstrap, mean_t, proportion
from fourfold.analysis.stats import elo_difference, score_interval

#: a player leads when their expected score is above 1/2 + MARGIN (see the docstring)
MARGIN = 0.15


def outcomes(traces: Sequence[Trace], seed: int) -> dict[str, Estimate]:
    """From the first player's side: wins, draws (by the rules or the cap), losses;
    Ludii's balance, completion, drawishness and timeouts."""
    n = len(traces)
    first = sum(1 for t in traces if t.result == "win" and t.winner == 0)
    second = sum(1 for t in traces if t.result == "win" and t.winner == 1)
    natural = sum(1 for t in traces if t.result == "draw")
    capped = sum(1 for t in traces if t.result == "cap")

    def balance(sample: Sequence[Trace]) -> float:
        w0 = sum(1 for t in sample if t.result == "win" and t.winner == 0)
        w1 = sum(1 for t in sample if t.result == "win" and t.winner == 1)
        return 1.0 - abs(w0 - w1) / len(sample)

    def first_score(sample: Sequence[Trace]) -> float:
        return sum(1.0 if t.winner == 0 else 0.5 if t.result != "win" else 0.0
                   for t in sample) / len(sample)

    return {
        "first_wins": proportion(first, n),
        "draws": proportion(natural + capped, n),
        "first_losses": proportion(second, n),
        "first_score": bootstrap(list(traces), first_score, seed) if n else proportion(0, 0),
        "balance": bootstrap(list(traces), balance, seed + 1) if n else proportion(0, 0),
        "completion": proportion(first + second, n),
        "drawishness": proportion(natural, n),
        "timeouts": proportion(capped, n),
    }


def duration(traces: Sequence[Trace]) -> dict[str, Any]:
    plies = [t.plies for t in traces]
    if not plies:
        return {"mean": mean_t([])}
    q = statistics.quantiles(plies, n=4) if len(plies) > 1 else [plies[0]] * 3
    return {"mean": mean_t([float(p) for p in plies]), "median": statistics.median(plies),
            "q1": q[0], "q3": q[2], "min": min(plies), "max": max(plies)}


def branching(traces: Sequence[Trace]) -> dict[str, Any]:
    """Mean legal moves per position (each game's mean, then the mean over games, with a
    t interval), and the profile: mean legal moves at each ply over the games still on."""
    per_game = [statistics.fmean(t.branching) for t in traces if t.branching]
    longest = max((len(t.branching) for t in traces), default=0)
    profile = []
    for ply in range(longest):
        values = [t.branching[ply] for t in traces if len(t.branching) > ply]
        profile.append((statistics.fmean(values), len(values)))
    return {"mean": mean_t(per_game), "profile": profile}


def winner_curve(trace: Trace) -> list[float]:
    """The eventual winner's expected score at each position (empty unless decisive)."""
    if trace.result != "win" or not trace.evals or trace.winner is None:
        return []
    return [e if trace.winner == 0 else 1.0 - e for e in trace.evals]


def leaders(evals: Sequence[float]) -> list[int]:
    """The clear leader at each position (0 or 1), level positions left out."""
    out = []
    for e in evals:
        if e > 0.5 + MARGIN:
            out.append(0)
        elif e < 0.5 - MARGIN:
            out.append(1)
    return out


def lead_changes(evals: Sequence[float]) -> int:
    seq = leaders(evals)
    return sum(1 for a, b in itertools.pairwise(seq) if a != b)


def decided_at(curve: Sequence[float]) -> float:
    """Ludii's DecisivenessMoves for one game: the share of the game played before the
    winner's evaluation first exceeds the loser's highest."""
    threshold = max(1.0 - s for s in curve)
    for ply, s in enumerate(curve):
        if s > threshold:
            return ply / len(curve)
    return 1.0


def evaluation(traces: Sequence[Trace]) -> dict[str, Estimate]:
    evaluated = [t for t in traces if t.evals]
    curves = [c for c in (winner_curve(t) for t in evaluated) if c]
    drama = [statistics.fmean(max(0.0, 1.0 - 2.0 * s) for s in c) for c in curves]
    drama_max = [max(max(0.0, 1.0 - 2.0 * s) for s in c) for c in curves]
    comebacks = sum(1 for c in curves if min(c) < 0.5 - MARGIN)
    changes = [float(lead_changes(t.evals)) for t in evaluated]
    rate = [lead_changes(t.evals) / len(t.evals) for t in evaluated]
    return {
        "drama": mean_t(drama, 0.0, 1.0),
        "drama_max": mean_t(drama_max, 0.0, 1.0),
        "comebacks": proportion(comebacks, len(curves)),
        "lead_changes": mean_t(changes, 0.0),
        "lead_change_rate": mean_t(rate, 0.0, 1.0),
        "decided_at": mean_t([decided_at(c) for c in curves], 0.0, 1.0),
        "start_eval": mean_t([t.evals[0] for t in evaluated], 0.0, 1.0),
    }


def pair_match(traces: Sequence[Trace], strong: str, weak: str) -> MatchResult:
    """The pair's games as a ``MatchResult`` from the stronger bot's side."""
    result = MatchResult(strong, weak)
    for t in traces:
        seat = t.bots.index(strong)
        score = 0.5 if t.result != "win" else (1.0 if t.winner == seat else 0.0)
        if score == 1.0:
            result.wins += 1
        elif score == 0.0:
            result.losses += 1
        else:
            result.draws += 1
    return result


def pair_figures(match: MatchResult) -> dict[str, Any]:
    low, high = score_interval(match.wins, match.draws, match.losses)
    elo = Estimate(elo_difference(match.score), elo_difference(low), elo_difference(high),
                   match.played, "normal score interval")
    return {
        "strong": match.a, "weak": match.b,
        "wins": proportion(match.wins, match.played),
        "draws": proportion(match.draws, match.played),
        "losses": proportion(match.losses, match.played),
        "score": Estimate(match.score, low, high, match.played, "normal (stats.score_interval)"),
        "elo": elo,
        "counts": (match.wins, match.draws, match.losses),
    }


def cooperative(traces: Sequence[Trace]) -> dict[str, Any]:
    n = len(traces)
    wins = [t for t in traces if t.result == "team-win"]
    excess = [float(t.plies - t.optimum) for t in wins if t.optimum is not None]
    return {
        "win_rate": proportion(len(wins), n),
        "actions": mean_t([float(t.plies) for t in traces]),
        "actions_won": mean_t([float(t.plies) for t in wins]),
        "optimum": mean_t([float(t.optimum) for t in traces if t.optimum is not None]),
        "excess": mean_t(excess),
    }
