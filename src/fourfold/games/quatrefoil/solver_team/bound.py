"""A proven lower bound on the best Quatrefoil team with private cards.

**The relaxation.** Give the team more information than the rules do: before the
team's ``t``-th action (t = 1, 2, 3, 4) it learns the card pair (corner and colour) of
the seat that takes it and keeps everything learnt, as one decision-maker who also
sees every signal and the face-up cards. By the fourth action it knows every card.

**Why it bounds the real team.** Take any joint policy of the real game: the seat to
act chooses from the public history and its own pair. At the team's action ``t`` the
relaxed decision-maker knows the acting seat's pair (seat ``t mod 4``'s, revealed at
its first turn), every earlier actor's pair (so it can recompute every earlier action),
and all signals: everything the real actor knows. So it can copy any real policy move
for move, deal for deal, with the same outcome; its optimum is therefore at most the
real optimum, for every way of showing cards (the face-up cards are known to both).
From the fourth action on it knows everything, so the rest costs the full-information
distance plus the stack; before that it is a small exact search: per information cell
(the deals it cannot tell apart), the action with the least total over the cell.

The figure is exact (an integer total over the cases of ``cases.cases``). It is at
least the full-information optimum (Nothing to Hide), since that relaxation knows
even more.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial

from fourfold.games.quatrefoil.arrangement import ALL_ARRANGEMENTS, INDEX, MOVING_ACTIONS, NEXT
from fourfold.games.quatrefoil.solver import distance_table
from fourfold.games.quatrefoil.solver_team.cases import cases

#: A deal within one start: (solution index, position cards).
Deal = tuple[int, tuple[int, int, int, int]]


def _signals(here: int, deal: Deal) -> int:
    sol = ALL_ARRANGEMENTS[deal[0]]
    now = ALL_ARRANGEMENTS[here]
    return sum(1 << k for k, c in enumerate(deal[1]) if now[c] == sol[c])


def _pair(deal: Deal, seat: int) -> tuple[int, int]:
    corner = deal[1][seat]
    return corner, ALL_ARRANGEMENTS[deal[0]][corner]


def _split(deals: list[Deal], key: Callable[[Deal], Hashable]) -> list[list[Deal]]:
    groups: dict[Hashable, list[Deal]] = {}
    for d in deals:
        groups.setdefault(key(d), []).append(d)
    return list(groups.values())


#: ``REVEAL[t]``: the seat whose pair the team learns before its action ``t`` (0-based);
#: ``None``, or past the end, learns nothing new. This module's relaxation learns each
#: actor's pair at its first turn; ``bound_first`` makes the first action exact instead.
Reveal = tuple[int | None, ...]
REVEAL: Reveal = (0, 1, 2, 3)


def relaxed_total(deals: list[Deal], here: int, step: int, reveal: Reveal = REVEAL) -> int:
    """Least total actions over ``deals`` (one cell: same signals so far), before the
    pair of the seat ``reveal[step]`` is revealed for the team's action ``step``."""
    return _relaxed(tuple(sorted(deals)), here, step, reveal)


@lru_cache(maxsize=300_000)
def _relaxed(deals: tuple[Deal, ...], here: int, step: int, reveal: Reveal) -> int:
    seat = reveal[step] if step < len(reveal) else None
    cells = _split(list(deals), partial(_pair_of, seat)) if seat is not None else [list(deals)]
    return sum(_decide(cell, here, step, reveal) for cell in cells)


def _pair_of(seat: int, deal: Deal) -> tuple[int, int]:
    return _pair(deal, seat)


def _decide(deals: list[Deal], here: int, step: int, reveal: Reveal = REVEAL) -> int:
    table = distance_table()
    solutions = {d[0] for d in deals}
    if len(solutions) == 1:
        return len(deals) * (table[here][deals[0][0]] + 1)
    best: int | None = None
    for a in MOVING_ACTIONS:
        there = NEXT[here][a]
        cost = len(deals)
        for group in _split(deals, partial(_signals, there)):
            cost += relaxed_total(group, there, step + 1, reveal)
            if best is not None and cost >= best:
                break
        if best is None or cost < best:
            best = cost
    assert best is not None
    return best


@dataclass(frozen=True)
class Bound:
    face_up: str
    total: int
    cases: int
    seconds: float

    @property
    def value(self) -> Fraction:
        return Fraction(self.total, self.cases)


def lower_bound(face_up: str = "none") -> Bound:
    """The relaxation's exact optimum over every case of ``face_up``."""
    began = time.perf_counter()
    by_start: dict[int, list[Deal]] = {}
    for start, solution, positions in cases(face_up):
        by_start.setdefault(INDEX[start], []).append((INDEX[solution], positions))
    total = count = 0
    for here, deals in by_start.items():
        count += len(deals)
        for group in _split(deals, partial(_signals, here)):
            total += relaxed_total(group, here, 0)
    return Bound(face_up, total, count, time.perf_counter() - began)
