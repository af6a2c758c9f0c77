"""Quatrefoil's optimum on public information: exact search over belief states.

The question (issue 7): how few actions does the team need on average if every action
is chosen from public information only, as if by one public decision-maker who never
sees a card? The answer bounds what signals alone are worth, between the
full-information optimum (``games/quatrefoil/solver.py``, 3.403 actions) and the bots, which
also use each seat's own cards and read each other's actions.

**What is public** (RULES.md §3 and the engine's rulings, ``games/quatrefoil/rules.md``):
the start arrangement, every action taken (so every arrangement since), and the four
seats' signals after the deal and after every action. A signal is not a choice: the
engine shows it truthfully and automatically, so it is a fixed function of the deal and
the arrangement, and each signal is labelled with its seat. The cards are private; in
the half-and-half and nothing-to-hide variants the face-up cards are public too. A
failed ``stack`` reveals nothing useful: it ends the game, lost. So "acting on public
information" here means a policy that maps the public history (start, actions,
signals, face-up cards) to the next action, ignoring every private card.

**The loss condition.** Signals are all up exactly when the quatrefoil is solved, so
a public policy can always win: it stacks when all four signals are up, and never
before. Any stack taken while a signal is down loses (every consistent deal with that
signal down is unsolved), so an optimal winning policy never gambles and wins with
probability 1; the figure is its expected number of actions, the final stack
included. The base game has no other way to lose (Race the Clock's clock counts
seconds, not actions).

**The deal** (the engine's ``initial_state``): the solution is uniform over the 120
arrangements, the position cards a uniform permutation among the seats (24), and the
start uniform over the 119 arrangements other than the solution. Given the public
information the posterior is uniform over the deals consistent with it, because every
observation is a deterministic function of the deal.

**How the search works.**

* *Cards as pairs.* A seat's two cards are one pair (corner, colour): its position card
  and the token that belongs there. A seat's signal is up iff the token on its corner
  is its colour. So every observation constrains each seat's pair separately, and a
  belief is four sets of pairs, one per seat (a 20-bit mask each), the deals being the
  ways to pick one pair per seat with four different corners and four different
  colours (the fifth colour is north). Masks are kept *effective*: a pair stays only if
  some consistent deal uses it.
* *Relative to the table.* Actions permute the five slots and act the same whatever
  the tokens' colours, so a belief is written relative to the current arrangement: a
  pair is (corner, slot now holding that corner's token). The current arrangement is
  then always the identity, a signal is up iff the pair is (k, k), a move permutes the
  slots of every pair, and the full-information distance of a deal is the distance
  from the identity to its relative solution. The start never appears: every start
  gives the same relative problem, which is why averaging over deals "as the rules
  distribute them" needs the base game's value from one start only.
* *Symmetry.* Seats are interchangeable (the masks are sorted) and so are the eight
  symmetries of the square that map the ten moves onto themselves (found by checking
  every corner permutation against the move table); a belief is stored under the least
  of its images.
* *No cycles.* A move after which every consistent deal shows the same signals teaches
  nothing: it moves within the belief's *component*, the relative beliefs reachable by
  such moves. A move out of it splits the belief into two or more strictly smaller
  ones. So each component is solved once, as a shortest-path problem: each node's exit
  value is the best informative move (1 + the mean of the children's values, solved
  first by recursion), and Dijkstra's algorithm spreads these along the uninformative
  moves at cost 1 each. A belief with a single possible solution is a leaf: the
  full-information distance, plus the stack.
* *Exact.* Values are kept as integer totals: ``W(B)`` is the sum over the deals of
  ``B`` of their optimal number of actions, ``W(B) = |B| + sum W(child)``; expected
  values are ``Fraction(W, |B|)``.

The base game takes about 12,000 belief states and well under a minute
(``benchmarks/quatrefoil_public.py``); ``tests/test_quatrefoil_public.py`` checks the
search against plain value iteration over explicit deal sets on small instances, and
replays the optimal public policy through the engine on every deal from one start.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import permutations

from fourfold.core.errors import FourfoldError
from fourfold.games.quatrefoil.arrangement import (
    ALL_ARRANGEMENTS,
    FREE,
    INDEX,
    MOVING_ACTIONS,
    SOURCES,
    STACK,
    Arrangement,
    act,
)
from fourfold.games.quatrefoil.solver import distance_table

SEATS = 4
SLOTS = 5
#: Four 20-bit masks, one per seat: bit ``5 * corner + x`` is the pair (corner, x), where
#: x is a token (absolute masks) or the slot now holding that corner's token (relative).
Masks = tuple[int, int, int, int]
#: Every pair possible: what a seat knows of another seat's face-down cards.
ALL_PAIRS = (1 << (4 * SLOTS)) - 1
#: The pairs (k, k): relative to the table, a seat's signal is up iff its pair is here.
DIAGONAL = sum(1 << (SLOTS * k + k) for k in range(4))
#: The ways cards can be face up, as in the variants (``none``: the base game).
FACE_UP = ("none", "colour", "position", "all")


def pair_bit(corner: int, x: int) -> int:
    """The mask bit of the pair (corner, token or slot)."""
    return 1 << (SLOTS * corner + x)


def _slot_tables(perm: Sequence[int]) -> tuple[int, ...]:
    """For a 5-bit group (one corner's pairs): the group after moving bit x to perm[x]."""
    return tuple(
        sum(1 << perm[x] for x in range(SLOTS) if (group >> x) & 1) for group in range(32)
    )


def _destinations(action: int) -> tuple[int, ...]:
    """``dest[x]``: the slot where the token on slot x goes under a moving action."""
    dest = [0] * SLOTS
    for new, old in enumerate(SOURCES[action]):
        dest[old] = new
    return tuple(dest)


#: Per moving action: how it moves the slot part of a corner's 5-bit group.
_MOVE_TABLES: tuple[tuple[int, ...], ...] = tuple(
    _slot_tables(_destinations(a)) for a in MOVING_ACTIONS
)


def _square_symmetries() -> tuple[tuple[int, ...], ...]:
    """The corner permutations (free slot fixed) that map the set of moves onto itself."""
    moves = {tuple(s) for s in SOURCES}
    found = []
    for g in permutations(range(4)):
        sym = (*g, FREE)
        if all(tuple(sym[s[sym.index(x)]] for x in range(SLOTS)) in moves for s in SOURCES):
            found.append(sym)
    return tuple(found)


#: The eight symmetries of the square, as corner permutations.
SYMMETRIES = _square_symmetries()
#: Per symmetry, per corner: the corner's 5-bit group, relabelled and shifted into place.
_SYMMETRY_TABLES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(v << (SLOTS * g[k]) for v in _slot_tables(g)) for k in range(4))
    for g in SYMMETRIES
)

_IDENTITY = INDEX[(0, 1, 2, 3, 4)]


def _solution_distances() -> tuple[int, ...]:
    """Distance from the identity to the relative solution coded j0 + 5 j1 + 25 j2 + 125 j3."""
    row = distance_table()[_IDENTITY]
    out = [-1] * 625
    for j in permutations(range(SLOTS), 4):
        free = (set(range(SLOTS)) - set(j)).pop()
        out[j[0] + 5 * j[1] + 25 * j[2] + 125 * j[3]] = row[INDEX[(*j, free)]]
    return tuple(out)


#: Per pair bit: (corner bit, slot bit, the pair's part of a solution code).
_PAIR_INFO: tuple[tuple[int, int, int], ...] = tuple(
    (1 << (b // SLOTS), 1 << (b % SLOTS), (b % SLOTS) * 5 ** (b // SLOTS)) for b in range(20)
)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _move(masks: Masks, action: int) -> Masks:
    t = _MOVE_TABLES[action]
    out = [t[m & 31] | t[(m >> 5) & 31] << 5 | t[(m >> 10) & 31] << 10 | t[m >> 15] << 15
           for m in masks]
    out.sort()
    return (out[0], out[1], out[2], out[3])


def _canonical(masks: Masks) -> Masks:
    """The least image of a relative belief under the square's symmetries (seats sorted)."""
    best: Masks | None = None
    for t0, t1, t2, t3 in _SYMMETRY_TABLES:
        out = [t0[m & 31] | t1[(m >> 5) & 31] | t2[(m >> 10) & 31] | t3[m >> 15]
               for m in masks]
        out.sort()
        image = (out[0], out[1], out[2], out[3])
        if best is None or image < best:
            best = image
    assert best is not None
    return best


def _uninformative(masks: Masks) -> bool:
    """Do all the belief's deals show the same signals on the identity arrangement?"""
    return all(m & DIAGONAL in (0, m) for m in masks)


@dataclass(frozen=True)
class Analysis:
    """A belief's deals, counted: effective masks, how many, and the solution if unique."""

    masks: Masks
    deals: int
    #: the full-information distance of the one possible solution, or -1 if several
    distance: int


class BeliefSearch:
    """The memoised search. ``total(masks)`` is ``W``: the sum over the deals of a
    just-observed relative belief of the optimal number of actions still to come."""

    def __init__(self) -> None:
        self._distances = _solution_distances()
        self._values: dict[Masks, int] = {}
        self._splits: dict[Masks, int] = {}
        self._analyses: dict[Masks, Analysis] = {}
        self._raw: dict[Masks, int] = {}
        self.components = 0

    @property
    def beliefs(self) -> int:
        """How many canonical beliefs have been valued."""
        return len(self._values)

    def analyse(self, masks: Sequence[int]) -> Analysis:
        """Enumerate the deals of four per-seat masks (distinct corners, distinct slots)."""
        ordered = sorted(masks)
        key = (ordered[0], ordered[1], ordered[2], ordered[3])
        known = self._analyses.get(key)
        if known is None:
            known = self._analyses[key] = self._enumerate(key)
        return known

    def _enumerate(self, masks: Masks) -> Analysis:
        eff = [0, 0, 0, 0]
        deals = 0
        code_seen = -1
        several = False
        b0s, b1s, b2s, b3s = (_bits(m) for m in masks)
        info = _PAIR_INFO
        for b0 in b0s:
            c0, s0, v0 = info[b0]
            for b1 in b1s:
                c1, s1, v1 = info[b1]
                if c0 & c1 or s0 & s1:
                    continue
                c01, s01, v01 = c0 | c1, s0 | s1, v0 + v1
                for b2 in b2s:
                    c2, s2, v2 = info[b2]
                    if c01 & c2 or s01 & s2:
                        continue
                    c012, s012, v012 = c01 | c2, s01 | s2, v01 + v2
                    for b3 in b3s:
                        c3, s3, v3 = info[b3]
                        if c012 & c3 or s012 & s3:
                            continue
                        code = v012 + v3
                        if code != code_seen:
                            several = several or code_seen >= 0
                            code_seen = code
                        eff[0] |= 1 << b0
                        eff[1] |= 1 << b1
                        eff[2] |= 1 << b2
                        eff[3] |= 1 << b3
                        deals += 1
        eff.sort()
        distance = -1 if several or deals == 0 else self._distances[code_seen]
        return Analysis((eff[0], eff[1], eff[2], eff[3]), deals, distance)

    def total(self, masks: Masks) -> int:
        """``W`` of a relative belief whose deals all show the same signals now."""
        known = self._raw.get(masks)
        if known is not None:
            return known
        key = _canonical(masks)
        known = self._values.get(key)
        if known is not None:
            self._raw[masks] = known
            return known
        found = self.analyse(masks)
        if found.deals == 0:
            raise FourfoldError("no deal is consistent with this belief")
        if found.distance >= 0:
            value = found.deals * (found.distance + 1)
        else:
            self._solve_component(found.masks, found.deals)
            value = self._values[key]
        self._values[key] = self._raw[masks] = value
        return value

    def split_total(self, masks: Masks) -> int:
        """Sum of ``W`` over the beliefs a relative belief splits into on the signals now
        (0 if no deal is left). The masks may show different signals for different deals;
        they come sorted, as ``_move`` leaves them."""
        known = self._splits.get(masks)
        if known is not None:
            return known
        parts = [(m & DIAGONAL, m & ~DIAGONAL) for m in masks]
        total = 0
        for outcome in range(16):
            child = [parts[s][0] if (outcome >> s) & 1 else parts[s][1] for s in range(SEATS)]
            if 0 in child:
                continue
            found = self.analyse(child)
            if found.deals:
                total += self.total(found.masks)
        self._splits[masks] = total
        return total

    def _solve_component(self, masks: Masks, deals: int) -> None:
        """Value every belief reachable from ``masks`` by uninformative moves."""
        self.components += 1
        index = {masks: 0}
        nodes = [masks]
        exits: list[int | None] = []
        back: list[list[int]] = [[]]
        i = 0
        while i < len(nodes):
            here = nodes[i]
            best: int | None = None
            for action in MOVING_ACTIONS:
                there = _move(here, action)
                if _uninformative(there):
                    j = index.get(there)
                    if j is None:
                        j = index[there] = len(nodes)
                        nodes.append(there)
                        back.append([])
                    back[j].append(i)
                else:
                    value = deals + self.split_total(there)
                    if best is None or value < best:
                        best = value
            exits.append(best)
            i += 1
        done: list[int | None] = [None] * len(nodes)
        heap = [(value, node) for node, value in enumerate(exits) if value is not None]
        heapq.heapify(heap)
        while heap:
            value, node = heapq.heappop(heap)
            if done[node] is not None:
                continue
            done[node] = value
            for earlier in back[node]:
                if done[earlier] is None:
                    heapq.heappush(heap, (value + deals, earlier))
        for member, worth in zip(nodes, done, strict=True):
            assert worth is not None  # some move always tells two solutions apart
            self._values[_canonical(member)] = worth


@lru_cache(maxsize=1)
def search() -> BeliefSearch:
    """The shared search (its memo grows with every question asked)."""
    return BeliefSearch()


# -- from the table to relative beliefs ---------------------------------------------------

def observe(masks: Sequence[int], arrangement: Arrangement,
            signals: Sequence[bool]) -> Masks:
    """Absolute masks narrowed by the four signals seen on ``arrangement``."""
    placed = sum(pair_bit(k, arrangement[k]) for k in range(4))
    out = [m & placed if up else m & ~placed for m, up in zip(masks, signals, strict=True)]
    return (out[0], out[1], out[2], out[3])


def relative(masks: Sequence[int], arrangement: Arrangement) -> Masks:
    """Absolute (corner, token) masks rewritten as (corner, slot of that token) masks."""
    slot_of = [0] * SLOTS
    for slot, token in enumerate(arrangement):
        slot_of[token] = slot
    t = _slot_tables(slot_of)
    out = [t[m & 31] | t[(m >> 5) & 31] << 5 | t[(m >> 10) & 31] << 10 | t[m >> 15] << 15
           for m in masks]
    return (out[0], out[1], out[2], out[3])


def card_masks(position_cards: Sequence[int | None],
               colour_cards: Sequence[int | None]) -> Masks:
    """Each seat's possible pairs, from the cards the public sees (``None``: face down)."""
    out = []
    for corner, colour in zip(position_cards, colour_cards, strict=True):
        corners = range(4) if corner is None else (corner,)
        colours = range(SLOTS) if colour is None else (colour,)
        out.append(sum(pair_bit(k, c) for k in corners for c in colours))
    return (out[0], out[1], out[2], out[3])


def start_totals(start: Arrangement, masks: Sequence[int],
                 unsolved_start: bool = True) -> tuple[int, int]:
    """(sum of the optimal numbers of actions, number of deals) over the deals allowed by
    the absolute per-seat ``masks``, all equally likely, before the start's signals are
    seen. With ``unsolved_start`` (the rules' deal) a deal whose solution is the start
    is left out; otherwise it counts one action (``stack``)."""
    s = search()
    here = relative(masks, start)
    parts = [(m & DIAGONAL, m & ~DIAGONAL) for m in here]
    total = deals = 0
    for outcome in range(16):
        if unsolved_start and outcome == 15:
            continue
        child = [parts[i][0] if (outcome >> i) & 1 else parts[i][1] for i in range(SEATS)]
        found = s.analyse(child)
        if found.deals:
            total += s.total(found.masks)
            deals += found.deals
    return total, deals


def expected_actions(start: Arrangement, masks: Sequence[int],
                     unsolved_start: bool = True) -> Fraction:
    """The optimal public policy's expected number of actions (see ``start_totals``)."""
    total, deals = start_totals(start, masks, unsolved_start)
    if deals == 0:
        raise FourfoldError("no deal is consistent with these cards and this start")
    return Fraction(total, deals)


# -- the figures for the variants -----------------------------------------------------------

@dataclass(frozen=True)
class PublicOptimum:
    """The optimum on public information for one way of showing cards, over the deal."""

    face_up: str
    #: the sum of the optimal numbers of actions over ``cases`` equally likely cases
    total: int
    cases: int
    #: canonical belief states in the shared memo afterwards (it grows across calls)
    beliefs: int
    seconds: float

    @property
    def value(self) -> Fraction:
        return Fraction(self.total, self.cases)


_IDENTITY_ARRANGEMENT: Arrangement = ALL_ARRANGEMENTS[_IDENTITY]


@cache
def public_optimum(face_up: str = "none") -> PublicOptimum:
    """The exact optimum for a variant's face-up cards, averaged as the rules deal.

    ``none`` is the base game (and Race the Clock without its clock), ``colour`` and
    ``position`` the two Half and Half choices, ``all`` Nothing to Hide (which must give
    the full-information optimum). Symmetry picks the cases: relabelling the tokens maps
    any start to any other and keeps the deal uniform, and relabelling seats maps any
    dealing of position cards to any other. So the base game needs one start; position
    cards face up, one start and one dealing; colour cards face up (they fix which
    colour each seat holds and north), one colouring and all 120 starts; all face up,
    one solution and all 120 starts. Every start's deals other than the solved one
    count once.
    """
    if face_up not in FACE_UP:
        raise FourfoldError(f"face_up is one of {', '.join(FACE_UP)}, not {face_up!r}")
    began = time.perf_counter()
    seats = range(SEATS)
    positions: list[int | None] = list(seats) if face_up in ("position", "all") else [None] * 4
    colours: list[int | None] = list(seats) if face_up in ("colour", "all") else [None] * 4
    masks = card_masks(positions, colours)
    starts = ALL_ARRANGEMENTS if face_up in ("colour", "all") else (_IDENTITY_ARRANGEMENT,)
    total = cases = 0
    for start in starts:
        t, n = start_totals(start, masks)
        total += t
        cases += n
    return PublicOptimum(face_up, total, cases, search().beliefs, time.perf_counter() - began)


# -- the policy -------------------------------------------------------------------------------

def history_masks(start: Arrangement, actions: Sequence[int],
                  signals: Sequence[Sequence[bool]],
                  cards: Sequence[int] = (ALL_PAIRS,) * SEATS) -> tuple[Arrangement, Masks]:
    """The arrangement now and the relative belief after a public history.

    ``signals[i]`` are the four seats' signals after ``i`` actions (as in a seat's
    ``Observation``); ``cards`` are the absolute masks of what is face up.
    """
    if len(signals) != len(actions) + 1:
        raise FourfoldError("signals are given after the deal and after every action")
    here = start
    masks = observe(cards, here, signals[0])
    for action, seen in zip(actions, signals[1:], strict=True):
        here = act(here, action)
        masks = observe(masks, here, seen)
    return here, relative(masks, here)


def action_values(start: Arrangement, actions: Sequence[int],
                  signals: Sequence[Sequence[bool]],
                  cards: Sequence[int] = (ALL_PAIRS,) * SEATS) -> dict[int, Fraction]:
    """Each action's expected number of actions to the win, itself included, on public
    information after this history. ``stack`` appears only when it wins for sure."""
    s = search()
    _, masks = history_masks(start, actions, signals, cards)
    found = s.analyse(masks)
    if found.deals == 0:
        raise FourfoldError("no deal is consistent with this history")
    n = found.deals
    if found.distance == 0:
        return {STACK: Fraction(1)}
    out: dict[int, Fraction] = {}
    for action in MOVING_ACTIONS:
        there = _move(found.masks, action)
        rest = s.total(there) if _uninformative(there) else s.split_total(there)
        out[action] = Fraction(n + rest, n)
    return out


def best_action(start: Arrangement, actions: Sequence[int],
                signals: Sequence[Sequence[bool]],
                cards: Sequence[int] = (ALL_PAIRS,) * SEATS) -> int:
    """An optimal public action (the lowest action number among the best)."""
    values = action_values(start, actions, signals, cards)
    return min(values, key=lambda a: (values[a], a))
