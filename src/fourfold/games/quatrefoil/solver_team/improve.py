"""A rollout improvement of the Quatrefoil team policy, exact over every deal.

**Values on public beliefs.** The heuristic rule (``policy.rule``) is a function of the
public belief (a set of deals), the arrangement and the seat to act, so its exact total
from any belief, ``Rollout.value``, is a small recursion memoised on those three: the
seat's pairs are grouped by the action the rule prescribes, and each group's deals are
split by the signals after the action (the base game's 2,856 cases visit about 5,800
beliefs).

**The improvement.** At a public state the public agent may prescribe any action per
pair the acting seat may hold. Start from the rule's prescription and move one pair at a
time to the action that lowers the total most, where a group's worth is the rule's exact
total from the beliefs it leads to; repeat until no single move helps (coordinate
descent; its result is at most the rule's total, as it starts there and only lowers
it). This is rollout (policy improvement with the base policy's exact values): applied
at every public state up to ``depth`` actions deep, the rule playing on below, the new
policy's total is at most the rule's, from every state (by induction: each improved
state costs at most the rule's continuation, whose states cost at most the rule's).
``walk`` computes that total exactly while it decides.

The decisions that differ from the rule's are the table ``rollout_table.ROLLOUT`` that
the ``optimal`` bot reads; this module regenerates it::

    python -m fourfold.games.quatrefoil.solver_team.improve --write [--depth 2]

It keeps a journal (``--journal``, a pickle of finished roots) so a long run resumes.
"""

from __future__ import annotations

import argparse
import os
import pickle
import pprint
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from fourfold.games.quatrefoil.arrangement import INDEX, MOVING_ACTIONS, NEXT
from fourfold.games.quatrefoil.deals import DEALS, signal_patterns
from fourfold.games.quatrefoil.solver_team.bound_first import opening
from fourfold.games.quatrefoil.solver_team.cases import FACE_UP, IDENTITY, cases
from fourfold.games.quatrefoil.solver_team.evaluate import pattern, seat_cards
from fourfold.games.quatrefoil.solver_team.policy import (
    _PAIRS,
    ALL_SIGNALS,
    WEIGHTS,
    PublicCards,
    Weight,
    belief,
    public_cards,
    rule,
)

Deals = tuple[int, ...]
#: A public state of the table: (weight, face-up cards, actions, signals), start identity.
Key = tuple[Weight, PublicCards, tuple[int, ...], tuple[int, ...]]
#: Pair -> action where the improvement departs from the rule.
Changes = dict[int, int]


def _split(deals: Deals, here: int) -> list[Deals]:
    """``deals`` grouped by the signals they show on ``here`` (by the pattern's order)."""
    seen = signal_patterns(here)
    groups: dict[int, list[int]] = {}
    for d in deals:
        groups.setdefault(seen[d], []).append(d)
    return [tuple(groups[k]) for k in sorted(groups)]


@dataclass
class Rollout:
    """Exact totals of the heuristic rule from public beliefs (memoised)."""

    weight: Weight
    memo: dict[tuple[Deals, int, int], int] = field(default_factory=dict)

    def value(self, deals: Deals, here: int, seat: int) -> int:
        """Total actions the rule takes from ``deals`` at ``here``, ``seat`` to act."""
        key = (deals, here, seat)
        found = self.memo.get(key)
        if found is not None:
            return found
        if signal_patterns(here)[deals[0]] == ALL_SIGNALS:
            total = len(deals)
        else:
            table = rule(deals, here, seat, self.weight)
            groups: dict[int, list[int]] = {}
            for d in deals:
                groups.setdefault(table[_PAIRS[d][seat]], []).append(d)
            total = len(deals) + sum(self.after(tuple(g), here, a, seat)
                                     for a, g in groups.items())
        self.memo[key] = total
        return total

    def after(self, deals: Deals, here: int, action: int, seat: int) -> int:
        """The rule's total from the beliefs ``deals`` split into after ``action``."""
        there = NEXT[here][action]
        return sum(self.value(g, there, (seat + 1) % 4) for g in _split(deals, there))

    def improve(self, deals: Deals, here: int, seat: int,
                start: dict[int, int] | None = None) -> dict[int, int]:
        """A prescription (pair -> action) at most as costly as ``start`` (by default the
        rule's), by coordinate descent from it over single pairs, each group valued by
        ``after``."""
        by_pair: dict[int, list[int]] = {}
        for d in deals:
            by_pair.setdefault(_PAIRS[d][seat], []).append(d)
        chosen = dict(rule(deals, here, seat, self.weight) if start is None else start)
        groups: dict[int, set[int]] = {}
        for p, a in chosen.items():
            groups.setdefault(a, set()).add(p)

        def worth(action: int, pairs: set[int]) -> int:
            if not pairs:
                return 0
            members = tuple(sorted(d for p in pairs for d in by_pair[p]))
            return self.after(members, here, action, seat)

        cost = {a: worth(a, ps) for a, ps in groups.items()}
        moved = True
        while moved:
            moved = False
            for p in sorted(chosen):
                old = chosen[p]
                left = groups[old] - {p}
                left_cost = worth(old, left)
                best: tuple[int, int, int] | None = None  # (gain, action, its new cost)
                for a in MOVING_ACTIONS:
                    if a == old:
                        continue
                    joined = worth(a, groups.get(a, set()) | {p})
                    gain = cost[old] + cost.get(a, 0) - left_cost - joined
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, a, joined)
                if best is not None:
                    _, a, joined = best
                    groups[old], cost[old] = left, left_cost
                    groups[a] = groups.get(a, set()) | {p}
                    cost[a] = joined
                    chosen[p] = a
                    moved = True
        return chosen


@dataclass
class Walk:
    """The improved policy's exact total, and its departures from the rule."""

    rollout: Rollout
    depth: int
    changes: dict[Key, Changes] = field(default_factory=dict)
    #: where the first action's descent starts (default: the rule's prescription)
    first: dict[int, int] | None = None

    def total(self, cards: PublicCards, deals: Deals, here: int,
              actions: tuple[int, ...], signals: tuple[int, ...]) -> int:
        seat = len(actions) % 4
        if len(actions) >= self.depth or signals[-1] == ALL_SIGNALS:
            return self.rollout.value(deals, here, seat)
        table = self.rollout.improve(deals, here, seat, None if actions else self.first)
        base = rule(deals, here, seat, self.rollout.weight)
        changed = {p: a for p, a in table.items() if base[p] != a}
        if changed:
            self.changes[(self.rollout.weight, cards, actions, signals)] = changed
        groups: dict[int, list[int]] = {}
        for d in deals:
            groups.setdefault(table[_PAIRS[d][seat]], []).append(d)
        total = len(deals)
        for a in sorted(groups):
            there = NEXT[here][a]
            seen = signal_patterns(there)
            for g in _split(tuple(groups[a]), there):
                total += self.total(cards, g, there, (*actions, a), (*signals, seen[g[0]]))
        return total


def roots(face_up: str, weight: Weight) -> dict[tuple[PublicCards, int], Deals]:
    """Every start of play (tokens renamed so the start is the identity): the face-up
    cards and first signals, with the public belief there, over every case."""
    out: dict[tuple[PublicCards, int], Deals] = {}
    for start, solution, positions in cases(face_up):
        label = {token: slot for slot, token in enumerate(start)}
        renamed = (label[solution[0]], label[solution[1]], label[solution[2]],
                   label[solution[3]], label[solution[4]])
        cards = public_cards(face_up, seat_cards(face_up, renamed, positions, 0))
        first = pattern(IDENTITY, renamed, positions)
        if (cards, first) not in out:
            out[(cards, first)] = belief(cards, IDENTITY, (), (first,), weight)
    return out


@dataclass
class Result:
    face_up: str
    depth: int
    total: int
    rule_total: int
    cases: int
    changes: dict[Key, Changes]
    seconds: float
    bound_start: bool = False


def improve_opening(rollout: Rollout, depth: int, cards: PublicCards, first: int, deals: Deals,
                    bound_start: bool) -> tuple[int, Walk]:
    """The improved policy's total on one opening (face-up cards and first signals),
    and the walk that found it (its ``changes`` are the opening's table entries)."""
    here = INDEX[IDENTITY]
    walk = Walk(rollout, depth)
    total = walk.total(cards, deals, here, (), (first,))
    if bound_start and len(deals) > 1:
        # a second descent, from the tighter bound's best first prescription
        found = opening([DEALS[d] for d in deals], here).prescription
        other = Walk(rollout, depth, first={c * 5 + t: a for (c, t), a in found.items()})
        second = other.total(cards, deals, here, (), (first,))
        if second < total:
            walk, total = other, second
    return total, walk


def run(face_up: str, depth: int, journal: Path | None = None, log: bool = False,
        bound_start: bool = False) -> Result:
    """The improved policy over every case of ``face_up`` (rollout ``depth`` actions deep;
    with ``bound_start``, the first action's descent also starts from the best first
    prescription of ``bound_first``, and the better of the two is kept)."""
    began = time.perf_counter()
    weight = WEIGHTS[face_up]
    rollout = Rollout(weight)
    done: dict[tuple[PublicCards, int], tuple[int, int, dict[Key, Changes]]] = {}
    if journal is not None and journal.exists():
        with journal.open("rb") as f:
            done = pickle.load(f)
    here = INDEX[IDENTITY]
    for key, deals in roots(face_up, weight).items():
        if key in done:
            continue
        total, walk = improve_opening(rollout, depth, key[0], key[1], deals, bound_start)
        done[key] = (total, rollout.value(deals, here, 0), walk.changes)
        if journal is not None:
            tmp = journal.with_suffix(".tmp")
            with tmp.open("wb") as f:
                pickle.dump(done, f)
            os.replace(tmp, journal)
        if log:
            print(f"{face_up} root {key[1]:2d} {len(deals):5d} deals: rule"
                  f" {done[key][1]} improved {total} ({time.perf_counter() - began:.0f} s)",
                  file=sys.stderr, flush=True)
    changes: dict[Key, Changes] = {}
    for _, _, c in done.values():
        changes.update(c)
    return Result(face_up, depth, sum(t for t, _, _ in done.values()),
                  sum(r for _, r, _ in done.values()), len(cases(face_up)), changes,
                  time.perf_counter() - began, bound_start)


TABLE = Path(__file__).with_name("rollout_table.py")
HEADER = '''"""The ``optimal`` policy's rollout table (``improve``). Do not edit: regenerate with::

    python -m fourfold.games.quatrefoil.solver_team.improve --write \\
        {args}

For each public state (weight, face-up cards, actions, signals; tokens renamed so that
the start is the identity), the pairs whose action differs from the heuristic rule's,
and their action. ``DEPTHS``: the rollout's depth per face-up rule; ``BOUND_START``:
whether the first action's descent also started from ``bound_first``'s prescription;
``TOTALS``: the improved policy's total actions, the rule's, and the number of cases.
"""

from __future__ import annotations

DEPTHS: dict[str, int] = {depths}
BOUND_START: bool = {bound_start}
TOTALS: dict[str, tuple[int, int, int]] = (
{totals}
)
Cards = tuple[tuple[int | None, int | None], ...]
ROLLOUT: dict[tuple[tuple[int, int], Cards, tuple[int, ...], tuple[int, ...]], dict[int, int]] = (
{table}
)
'''


def render(results: list[Result]) -> str:
    changes: dict[Key, Changes] = {}
    for r in results:
        changes.update(r.changes)
    table = pprint.pformat(dict(sorted(changes.items(), key=repr)), width=95, compact=True,
                           sort_dicts=False)
    table = "\n".join("    " + line for line in table.splitlines())
    totals = pprint.pformat({r.face_up: (r.total, r.rule_total, r.cases) for r in results},
                            width=60, sort_dicts=False)
    totals = "\n".join("    " + line for line in totals.splitlines())
    args = "--journal DIR --face-up " + " ".join(r.face_up for r in results)
    args += " --bound-start" if any(r.bound_start for r in results) else ""
    args += " --depth " + " ".join(str(r.depth) for r in results)
    return HEADER.format(args=args, table=table,
                         depths={r.face_up: r.depth for r in results},
                         totals=totals, bound_start=any(r.bound_start for r in results))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--face-up", nargs="+", default=["none", "colour", "position"],
                        choices=FACE_UP)
    parser.add_argument("--depth", type=int, nargs="+", default=[2],
                        help="rollout depth per face-up rule (one value: for all)")
    parser.add_argument("--journal", type=Path, help="a directory for resumable journals")
    parser.add_argument("--bound-start", action="store_true",
                        help="also start the first action's descent from bound_first's best"
                        " first prescription (slower)")
    parser.add_argument("--write", action="store_true", help=f"rewrite {TABLE.name}")
    args = parser.parse_args(argv)
    depths = args.depth * len(args.face_up) if len(args.depth) == 1 else args.depth
    if len(depths) != len(args.face_up):
        parser.error("--depth takes one value, or one per --face-up rule")
    results = []
    for face_up, depth in zip(args.face_up, depths, strict=True):
        journal = None
        if args.journal is not None:
            args.journal.mkdir(parents=True, exist_ok=True)
            tag = "-bound" if args.bound_start else ""
            journal = args.journal / f"rollout-{face_up}-{depth}{tag}.pickle"
        r = run(face_up, depth, journal, log=True, bound_start=args.bound_start)
        results.append(r)
        print(f"{face_up}: depth {depth}: {r.total}/{r.cases} (rule {r.rule_total}),"
              f" {len(r.changes)} states changed, {r.seconds:.0f} s", flush=True)
    if args.write:
        TABLE.write_text(render(results))


if __name__ == "__main__":
    main()
