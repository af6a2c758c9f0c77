"""A tighter lower bound on the best Quatrefoil team: the first action exact.

**The relaxation.** ``bound`` lets the team learn each actor's pair at its first turn
and keep it, so from the second action on it knows the first actor's pair, which the
real second seat does not: it only sees the action, that is, which group of pairs the
first seat's policy maps to it. Here the first action is the real game's: a public
prescription, one action per pair the first seat (seat 0) may hold. After it the team
learns the pairs of seats 1, 2 and 3 before their first actions, and seat 0's only
before its second (``bound.REVEAL`` order ``(None, 1, 2, 3, 0)``), keeping all it learns.

**Why it bounds the real team.** Take any joint policy. Its first action is such a
prescription. At each later action the relaxed team knows the acting seat's pair, the
pairs of every seat that acted before (hence every earlier action of the policy) and
every signal and action: all the real actor knows. So it can copy the policy move for
move, deal for deal: the least total over prescriptions, each valued by the
relaxation's exact optimum, is at most the real optimum.

**The search.** For one opening (start and first signals) the value of a prescription
is a sum over actions ``a`` of ``R(a, T)``, the relaxation's total for the deals whose
first pair lies in ``T``, the pairs mapped to ``a``. Knowing which part of ``T`` holds
the pair can only help, so ``R(a, T u U) >= R(a, T) + R(a, U)``: a pair not yet placed
costs at least its least ``R(a, {p})``. A depth-first branch and bound over the pairs
(largest regret first, actions cheapest first), from the greedy prescription as the
incumbent, finds the least total exactly.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

from fourfold.games.quatrefoil.arrangement import INDEX, MOVING_ACTIONS, NEXT
from fourfold.games.quatrefoil.solver_team.bound import (
    Deal,
    Reveal,
    _pair,
    _signals,
    _split,
    relaxed_total,
)
from fourfold.games.quatrefoil.solver_team.cases import FACE_UP, cases

#: After the first action: seats 1, 2, 3 learnt at their first turns, seat 0 at its second.
FIRST_EXACT: Reveal = (None, 1, 2, 3, 0)
Pair = tuple[int, int]


@dataclass
class Opening:
    """One opening's least total and a prescription reaching it."""

    here: int
    first: int
    deals: int
    singles: int  # sum over pairs of their least R(a, {p}): the old bound's value here
    total: int
    prescription: dict[Pair, int]
    nodes: int


class _Search:
    def __init__(self, deals: Sequence[Deal], here: int) -> None:
        self.here = here
        self.by_pair: dict[Pair, list[Deal]] = {}
        for d in deals:
            self.by_pair.setdefault(_pair(d, 0), []).append(d)
        self.memo: dict[tuple[int, frozenset[Pair]], int] = {}
        self.nodes = 0

    def worth(self, action: int, pairs: frozenset[Pair]) -> int:
        """``R(action, pairs)``: the action plus the relaxation's total after it."""
        if not pairs:
            return 0
        key = (action, pairs)
        found = self.memo.get(key)
        if found is None:
            deals = [d for p in sorted(pairs) for d in self.by_pair[p]]
            there = NEXT[self.here][action]
            found = len(deals) + sum(relaxed_total(g, there, 1, FIRST_EXACT)
                                     for g in _split(deals, partial(_signals, there)))
            self.memo[key] = found
        return found

    def run(self) -> tuple[int, int, dict[Pair, int]]:
        pairs = sorted(self.by_pair)
        single = {p: [self.worth(a, frozenset([p])) for a in MOVING_ACTIONS] for p in pairs}
        least = {p: min(single[p]) for p in pairs}

        def regret(p: Pair) -> int:
            first, second = sorted(single[p])[:2]
            return second - first

        order = sorted(pairs, key=lambda p: (-regret(p), p))
        choices = {p: sorted(MOVING_ACTIONS, key=lambda a: (single[p][a], a)) for p in pairs}
        greedy = {p: choices[p][0] for p in pairs}
        best_total, best_prescription = self._value(greedy), dict(greedy)
        groups: dict[int, frozenset[Pair]] = {}
        chosen: dict[Pair, int] = {}

        def dfs(i: int, cost: int, rest: int) -> None:
            nonlocal best_total, best_prescription
            self.nodes += 1
            if i == len(order):
                if cost < best_total:
                    best_total, best_prescription = cost, dict(chosen)
                return
            p = order[i]
            rest -= least[p]
            for a in choices[p]:
                if cost + single[p][a] + rest >= best_total:
                    break
                old = groups.get(a, frozenset())
                new = old | {p}
                now = cost - self.worth(a, old) + self.worth(a, new)
                if now + rest >= best_total:
                    continue
                groups[a], chosen[p] = new, a
                dfs(i + 1, now, rest)
                groups[a] = old
                del chosen[p]

        dfs(0, 0, sum(least.values()))
        return sum(least.values()), best_total, best_prescription

    def _value(self, prescription: dict[Pair, int]) -> int:
        groups: dict[int, set[Pair]] = {}
        for p, a in prescription.items():
            groups.setdefault(a, set()).add(p)
        return sum(self.worth(a, frozenset(ps)) for a, ps in groups.items())


def opening(deals: Sequence[Deal], here: int) -> Opening:
    """The least total over first prescriptions for ``deals`` (one start, one pattern
    of first signals), each valued by the relaxation."""
    search = _Search(deals, here)
    singles, total, prescription = search.run()
    return Opening(here, _signals(here, deals[0]), len(deals), singles, total, prescription,
                   search.nodes)


@dataclass(frozen=True)
class FirstBound:
    face_up: str
    total: int
    cases: int
    openings: tuple[Opening, ...]
    seconds: float

    @property
    def value(self) -> Fraction:
        return Fraction(self.total, self.cases)


def first_exact_bound(face_up: str = "none", log: bool = False) -> FirstBound:
    """The bound over every case of ``face_up`` (the sum of every opening's least total)."""
    began = time.perf_counter()
    by_start: dict[int, list[Deal]] = {}
    for start, solution, positions in cases(face_up):
        by_start.setdefault(INDEX[start], []).append((INDEX[solution], positions))
    found: list[Opening] = []
    for here, deals in by_start.items():
        for group in sorted(_split(deals, partial(_signals, here)), key=len):
            found.append(opening(group, here))
            if log:
                o = found[-1]
                print(json.dumps({"opening": o.first, "deals": o.deals, "old_bound": o.singles,
                                  "bound": o.total, "nodes": o.nodes,
                                  "seconds": round(time.perf_counter() - began, 1)}),
                      flush=True)
    count = sum(len(d) for d in by_start.values())
    return FirstBound(face_up, sum(o.total for o in found), count, tuple(found),
                      time.perf_counter() - began)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--face-up", default="none", choices=FACE_UP)
    args = parser.parse_args(argv)
    b = first_exact_bound(args.face_up, log=True)
    print(json.dumps({"face_up": b.face_up, "total": b.total, "cases": b.cases,
                      "bound": f"{b.value.numerator}/{b.value.denominator}",
                      "decimal": round(float(b.value), 4), "seconds": round(b.seconds, 1)}))


if __name__ == "__main__":
    main()
