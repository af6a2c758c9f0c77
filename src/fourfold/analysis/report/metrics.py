"""The measures of a set of traced games (Ludii's game evaluation metrics).

Names and definitions follow Ludii's ``Evaluation/src/metrics`` (Stephenson,
Browne et al.), which go back to Browne's criteria for evaluating games
("Automatic generation and evaluation of recombination games", PhD thesis, 2008):

"Player 1" of those definitions is the player who acts first (``Trace.first``), whatever
their seat: in Quarto and Folio the player the rules call Player 2 acts first (they give
the first piece).

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
  smaller means decided earlier);
- *ending types*, *repetition* and *stalemate* rates: the rules' reasons, squares left out;
- *board coverage*: the share of the board's sites that held a piece at some point
  (``BoardCoverageUsed``).

Drama, lead changes and decisiveness are measured on a *side-to-move-neutral*
evaluation (``neutral``): a playout evaluator leans toward the side to move (in the
placement games the raw evaluation flips sign at nearly every ply), so each point
averages two consecutive positions, one with each side to move. The evidence is
reported with the figures (``evaluation``), and the figures are left out when the
neutral series still alternates.
"""

from __future__ import annotations

import itertools
import math
import re
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from fourfold.analysis.match import MatchResult
from fourfold.analysis.report.games import Trace
from fourfold.analysis.report.intervals import Estimate, empty, mean_t, proportion, score
from fourfold.analysis.stats import elo_difference

#: a player leads when their expected score is above 1/2 + MARGIN (see the docstring)
MARGIN = 0.15


def first_score(traces: Sequence[Trace]) -> Estimate:
    """The first mover's mean score (1 a win, 1/2 a draw or a cut, 0 a loss)."""
    wins = sum(1 for t in traces if t.result == "win" and t.winner == t.first)
    losses = sum(1 for t in traces if t.result == "win" and t.winner != t.first)
    return score(wins, len(traces) - wins - losses, losses)


def balance_from(score_: Estimate) -> Estimate:
    """Ludii's balance 1 - |P1 wins - P2 wins| / n, which is 1 - |2 s - 1| for the first
    mover's score s; its interval is the image of the score's interval."""
    if score_.n == 0:
        return empty("from the score interval")

    def b(x: float) -> float:
        return 1.0 - abs(2.0 * x - 1.0)

    ends = (b(score_.low), b(score_.high))
    high = 1.0 if score_.low <= 0.5 <= score_.high else max(ends)
    return Estimate(b(score_.value), min(ends), high, score_.n, "from the score interval")


def outcomes(traces: Sequence[Trace]) -> dict[str, Any]:
    """From the side of the player who acts first (``Trace.first``, whatever its seat):
    wins, draws (by the rules or the cap), losses, score; Ludii's balance, completion,
    drawishness and timeouts."""
    n = len(traces)
    first = sum(1 for t in traces if t.result == "win" and t.winner == t.first)
    second = sum(1 for t in traces if t.result == "win" and t.winner != t.first)
    natural = sum(1 for t in traces if t.result == "draw")
    capped = sum(1 for t in traces if t.result == "cap")
    s = first_score(traces)
    return {
        "first_wins": proportion(first, n),
        "draws": proportion(natural + capped, n),
        "first_losses": proportion(second, n),
        "first_score": s,
        "balance": balance_from(s),
        "completion": proportion(first + second, n),
        "drawishness": proportion(natural, n),
        "timeouts": proportion(capped, n),
    }


_CELL = r"[a-z]\d{1,2}"


def ending_type(trace: Trace, names: Sequence[str]) -> str:
    """The rules' reason for the ending with squares left out and the players called
    (winner) and (loser), or (a side) in a draw: ``four in a line``, ``(loser) has no
    piece on top of a stack and cannot move``."""
    if trace.result == "cap":
        return "cut by the length cap"
    text = trace.reason
    text = re.sub(rf"\s+(?:on|from|at)\s+{_CELL}(?:\s*(?:-|to)\s*{_CELL})?", "", text)
    text = re.sub(rf",?\s*\b{_CELL}(?:-{_CELL})?\b", "", text)
    for seat, name in enumerate(names):
        if trace.winner is None:
            role = "(a side)"
        else:
            role = "(winner)" if seat == trace.winner else "(loser)"
        text = re.sub(rf"\b{re.escape(name)}\b", role, text)
    return re.sub(r"\s+", " ", text).strip() or trace.result


def endings(traces: Sequence[Trace], names: Sequence[str]) -> dict[str, Any]:
    """How games end: each ending type's share (Wilson), and the repetition and
    stalemate (a side to move that cannot move) rates."""
    n = len(traces)
    kinds = Counter(ending_type(t, names) for t in traces)
    reasons = [t.reason.lower() for t in traces]
    return {
        "types": [{"type": k, "share": proportion(c, n)} for k, c in kinds.most_common()],
        "repetition": proportion(sum("repetition" in r for r in reasons), n),
        "stalemate": proportion(sum("cannot move" in r or "stalemate" in r
                                    or "no legal move" in r for r in reasons), n),
    }


def board_coverage(traces: Sequence[Trace]) -> Estimate:
    """Ludii's board coverage: the mean over games of the share of the board's sites that
    held a piece at some point (t interval); n/a without a registered board."""
    return mean_t([t.coverage for t in traces if t.coverage is not None], 0.0, 1.0)


def duration(traces: Sequence[Trace], pace: float) -> dict[str, Any]:
    """Plies per game, and the playing time in minutes at ``pace`` seconds per ply."""
    plies = [t.plies for t in traces]
    if not plies:
        return {"mean": mean_t([]), "minutes": mean_t([])}
    q = statistics.quantiles(plies, n=4) if len(plies) > 1 else [plies[0]] * 3
    return {"mean": mean_t([float(p) for p in plies]), "median": statistics.median(plies),
            "q1": q[0], "q3": q[2], "min": min(plies), "max": max(plies),
            "minutes": mean_t([p * pace / 60.0 for p in plies], 0.0)}


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


def neutral(trace: Trace) -> list[float]:
    """The side-to-move-neutral evaluation: the mean of each two consecutive positions
    with different sides to move, so each point holds one position with each side to
    move and an evaluator's lean toward the side to move cancels. Seat 0's expected
    score, one point fewer than ``evals`` in strictly alternating games."""
    e, m = trace.evals, trace.movers
    if len(m) < len(e):
        return []
    return [(e[t] + e[t + 1]) / 2 for t in range(len(e) - 1) if m[t] != m[t + 1]]


def winner_curve(trace: Trace, series: Sequence[float]) -> list[float]:
    """The eventual winner's expected score along ``series`` (empty unless decisive)."""
    if trace.result != "win" or not series or trace.winner is None:
        return []
    return [e if trace.winner == 0 else 1.0 - e for e in series]


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


def alternation(series: Sequence[float]) -> tuple[int, int]:
    """(pairs of consecutive non-zero changes that alternate in sign, such pairs)."""
    changes = [b - a for a, b in itertools.pairwise(series) if b != a]
    pairs = list(itertools.pairwise(changes))
    return sum(1 for x, y in pairs if x * y < 0), len(pairs)


def side_to_move_lean(trace: Trace) -> list[float]:
    """At each inner position, the evaluator's lean toward the side to move: half the
    gap between the evaluation and the mean of its two neighbours (which have the other
    side to move), signed toward the side to move. An evaluator that adds ``b`` for the
    side to move to a smooth evaluation shows ``b``."""
    e, m = trace.evals, trace.movers
    return [(e[t] - (e[t - 1] + e[t + 1]) / 2) / 2 * (1 if m[t] == 0 else -1)
            for t in range(1, min(len(e), len(m)) - 1)]


#: the neutral evaluation supports drama and lead changes unless the share of its
#: consecutive changes that alternate in sign is measurably above this: the Wilson
#: interval's low end above it (on the neutral series independent noise gives 1/2, a
#: trend less; a surviving side-to-move lean gives more)
ALTERNATION_LIMIT = 0.5


def evaluation(traces: Sequence[Trace]) -> dict[str, Any]:
    """Drama, comebacks, lead changes and decisiveness on the neutral evaluation, with the
    evidence that the evaluator supports them: how many evaluation changes alternate in
    sign, raw and neutral, and the lean toward the side to move. When the neutral
    series still alternates (more than ``ALTERNATION_LIMIT``), the figures are left out
    and ``why`` says so."""
    evaluated = [t for t in traces if t.evals]
    raw = [alternation(t.evals) for t in evaluated]
    series = {id(t): neutral(t) for t in evaluated}
    neu = [alternation(series[id(t)]) for t in evaluated]
    raw_alt, raw_pairs = sum(a for a, _ in raw), sum(p for _, p in raw)
    neu_alt, neu_pairs = sum(a for a, _ in neu), sum(p for _, p in neu)
    lean = [statistics.fmean(v) for v in (side_to_move_lean(t) for t in evaluated) if v]
    out: dict[str, Any] = {
        "evaluated": len(evaluated),
        "raw_alternating": [raw_alt, raw_pairs],
        "neutral_alternating": [neu_alt, neu_pairs],
        "lean": mean_t(lean),
    }
    if not evaluated:
        out.update(supported=False, why="no position was evaluated (--playouts 0)")
        return out
    share = proportion(neu_alt, neu_pairs)
    if share.excludes(ALTERNATION_LIMIT) and share.value > ALTERNATION_LIMIT:
        out.update(supported=False, why=(
            f"even on the side-to-move-neutral evaluation {neu_alt} of {neu_pairs} "
            f"consecutive changes alternate in sign ({share.text(percent=True)}; noise "
            "gives 50% there), so what is left of the lean toward the side to move would "
            "be counted as drama"))
        return out
    curves = [c for c in (winner_curve(t, series[id(t)]) for t in evaluated) if c]
    drama = [statistics.fmean(max(0.0, 1.0 - 2.0 * s) for s in c) for c in curves]
    drama_max = [max(max(0.0, 1.0 - 2.0 * s) for s in c) for c in curves]
    comebacks = sum(1 for c in curves if min(c) < 0.5 - MARGIN)
    walks = [series[id(t)] for t in evaluated if series[id(t)]]
    first = [w[0] if t.first == 0 else 1.0 - w[0]
             for t, w in ((t, series[id(t)]) for t in evaluated) if w]
    out.update(supported=True, why="", **{
        "drama": mean_t(drama, 0.0, 1.0),
        "drama_max": mean_t(drama_max, 0.0, 1.0),
        "comebacks": proportion(comebacks, len(curves)),
        "lead_changes": mean_t([float(lead_changes(w)) for w in walks], 0.0),
        "lead_change_rate": mean_t([lead_changes(w) / len(w) for w in walks], 0.0, 1.0),
        "decided_at": mean_t([decided_at(c) for c in curves], 0.0, 1.0),
        "start_eval": mean_t(first, 0.0, 1.0),
    })
    return out


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
    s = score(match.wins, match.draws, match.losses)
    # a score interval reaching 0 or 1 has no finite Elo there: the end is unbounded
    low = -math.inf if s.low <= 0.0 else elo_difference(s.low)
    high = math.inf if s.high >= 1.0 else elo_difference(s.high)
    elo = Estimate(elo_difference(s.value), low, high, s.n, "from the score interval")
    return {
        "strong": match.a, "weak": match.b,
        "wins": proportion(match.wins, match.played),
        "draws": proportion(match.draws, match.played),
        "losses": proportion(match.losses, match.played),
        "score": s,
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


def paired_difference(a: Sequence[Trace], b: Sequence[Trace]) -> Estimate:
    """Team ``a``'s win rate minus team ``b``'s on the same deals (game ``i`` of every
    group is dealt from the same seed). Each deal scores 1 for ``a`` when only ``a``
    won it, 0 when only ``b`` did, 1/2 otherwise; the difference is 2 s - 1 for that
    mean score s, with the image of its score interval (Wilson's width when every deal
    agrees, where a t interval would have none)."""
    won = {t.index: t.result == "team-win" for t in b}
    pairs = [(t.result == "team-win", won[t.index]) for t in a if t.index in won]
    only_a = sum(1 for x, y in pairs if x and not y)
    only_b = sum(1 for x, y in pairs if y and not x)
    s = score(only_a, len(pairs) - only_a - only_b, only_b)
    if not s.n:
        return empty("paired")
    return Estimate(2 * s.value - 1, 2 * s.low - 1, 2 * s.high - 1, s.n,
                    "paired: the score interval of the deals")
