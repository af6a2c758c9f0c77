"""A joint Quatrefoil policy on public history and each seat's own cards.

**The public agent.** Every seat can compute the same *public belief*: the deals
consistent with the face-up cards, every signal so far, and every past action read
through the policy itself (an action tells which of the actor's possible card pairs
the policy maps to it). At each public state the public agent prescribes, for the
seat to act, one action per card pair that seat may hold (its corner and its colour);
the seat looks up its own pair. This is the public-belief view of a cooperative game
of imperfect information (as in work on Hanabi): one agent, public knowledge, and a
prescription per private type.

**The prescription** (a one-step improvement over the public optimum). For the seat's
pair ``p``, each moving action ``a`` is valued as if from then on the team played the
exact public-information optimum (``solve/quatrefoil_public``) knowing ``p``: one
action, plus the mean, over the deals of the public belief with that pair, of the
public optimum's total for the beliefs the signals after ``a`` split them into. The
seat takes the least (lowest action number on ties). Because that continuation is
pessimistic (it ignores what later seats privately know) and the full-information
distance optimistic, the cost used is ``a/b`` of the former plus the rest of the latter
(``DEFAULT_WEIGHT``, chosen by exact evaluation over every deal). It stacks exactly when all four
signals are up, which happens only when the quatrefoil is solved, so the policy never
loses. The estimate is a heuristic (the team does not learn ``p``, only which pairs
share ``a``); the policy's real worth is measured exactly by ``evaluate``.

**The rollout table.** Where ``improve`` found a better prescription (rollout on the
rule's exact values, the first actions of a game), ``prescription`` takes it from the
generated ``rollout_table``; the rule decides everywhere else.

Beliefs are sets of deals (a deal: solution index and position cards), memoised on the
public history with the tokens renamed so that the start is the identity, so every
table's seats share the work.
"""

from __future__ import annotations

from functools import lru_cache

from fourfold.games.quatrefoil.arrangement import (
    ALL_ARRANGEMENTS,
    INDEX,
    MOVING_ACTIONS,
    NEXT,
    STACK,
    Arrangement,
    act,
)
from fourfold.games.quatrefoil.deals import DEALS, signal_patterns
from fourfold.games.quatrefoil.solver import distance_table
from fourfold.games.quatrefoil.solver_public import pair_bit, relative, search
from fourfold.games.quatrefoil.solver_team.cases import IDENTITY
from fourfold.games.quatrefoil.solver_team.evaluate import Public, SeatCards, public_policy
from fourfold.games.quatrefoil.solver_team.rollout_table import ROLLOUT

ALL_SIGNALS = 15
#: (a, b): an action's cost is a/b of the public optimum's continuation plus the rest of
#: the full-information one (chosen by exact evaluation; docs/solutions.md).
Weight = tuple[int, int]
DEFAULT_WEIGHT: Weight = (2, 9)
#: The weight per face-up rule (base: (2, 9) of 1/1, 1/2, 1/3, 1/4, 1/5, 1/7, 1/10, 2/5,
#: 2/7, 3/8, 2/9, 3/13, 3/14, 4/17; position cards up: (3, 5) of 0, 1/10, 2/9, 1/3, 2/5,
#: 1/2, 3/5, 2/3, 3/4, 1).
WEIGHTS: dict[str, Weight] = {"none": DEFAULT_WEIGHT, "colour": DEFAULT_WEIGHT,
                              "position": (3, 5), "all": DEFAULT_WEIGHT}
#: What the public sees of each seat's cards: (colour or None, corner or None).
PublicCards = tuple[tuple[int | None, int | None], ...]


def _pair(deal: int, seat: int) -> int:
    """Seat's pair in ``deal``: corner * 5 + the token that belongs there."""
    s, p = DEALS[deal]
    return p[seat] * 5 + ALL_ARRANGEMENTS[s][p[seat]]


_PAIRS: tuple[tuple[int, int, int, int], ...] = tuple(
    (_pair(d, 0), _pair(d, 1), _pair(d, 2), _pair(d, 3)) for d in range(len(DEALS))
)


def public_cards(face_up: str, cards: SeatCards) -> PublicCards:
    """The face-up part of a seat's cards (its own face-down ones left out)."""
    colours_up = face_up in ("all", "colour")
    positions_up = face_up in ("all", "position")
    return tuple(
        (cards.colours[k] if colours_up else None, cards.positions[k] if positions_up else None)
        for k in range(4)
    )


def _total(deals: list[int], arrangement: int) -> int:
    """The public optimum's total actions over ``deals`` (all showing the same signals
    on ``arrangement``), from there on."""
    masks = [0, 0, 0, 0]
    for d in deals:
        for k, pair in enumerate(_PAIRS[d]):
            masks[k] |= pair_bit(pair // 5, pair % 5)
    rel = relative(masks, ALL_ARRANGEMENTS[arrangement])
    return search().total(rel)


def _here(start: Arrangement, actions: tuple[int, ...]) -> int:
    here = start
    for a in actions:
        here = act(here, a)
    return INDEX[here]


def _full(deal: int, arrangement: int) -> int:
    """Actions still needed with every card known: the distance, plus the stack."""
    return distance_table()[arrangement][DEALS[deal][0]] + 1


@lru_cache(maxsize=100_000)
def belief(cards: PublicCards, start: Arrangement, actions: tuple[int, ...],
           signals: tuple[int, ...], weight: Weight = DEFAULT_WEIGHT) -> tuple[int, ...]:
    """The public belief: deals consistent with the face-up cards, signals and actions."""
    if not actions:
        start_patterns = signal_patterns(INDEX[start])
        out = []
        for d, (s, p) in enumerate(DEALS):
            sol = ALL_ARRANGEMENTS[s]
            if start_patterns[d] != signals[0] or sol == start:
                continue
            if all((c is None or sol[p[k]] == c) and (q is None or p[k] == q)
                   for k, (c, q) in enumerate(cards)):
                out.append(d)
        return tuple(out)
    before = belief(cards, start, actions[:-1], signals[:-1], weight)
    table = prescription(cards, start, actions[:-1], signals[:-1], weight)
    seat = (len(actions) - 1) % 4
    taken = actions[-1]
    after = signal_patterns(_here(start, actions))
    return tuple(d for d in before
                 if table.get(_PAIRS[d][seat]) == taken and after[d] == signals[-1])


@lru_cache(maxsize=100_000)
def prescription(cards: PublicCards, start: Arrangement, actions: tuple[int, ...],
                 signals: tuple[int, ...], weight: Weight = DEFAULT_WEIGHT) -> dict[int, int]:
    """The action the seat to act takes for each pair it may hold: the heuristic ``rule``,
    with the rollout table's improvements (``improve``) where it has some."""
    deals = belief(cards, start, actions, signals, weight)
    table = rule(deals, _here(start, actions), len(actions) % 4, weight)
    if start == IDENTITY:
        better = ROLLOUT.get((weight, cards, actions, signals))
        if better is not None:
            table = {**table, **better}
    return table


@lru_cache(maxsize=100_000)
def rule(deals: tuple[int, ...], here: int, seat: int,
         weight: Weight = DEFAULT_WEIGHT) -> dict[int, int]:
    """The heuristic prescription on the public belief ``deals`` at arrangement ``here``
    (see the module): for each pair ``seat`` may hold, the least weighted cost."""
    by_pair: dict[int, list[int]] = {}
    for d in deals:
        by_pair.setdefault(_PAIRS[d][seat], []).append(d)
    if not deals:  # off the policy's path (a person's action): no pair is expected
        return {}
    if signal_patterns(here)[deals[0]] == ALL_SIGNALS:
        return dict.fromkeys(by_pair, STACK)
    out: dict[int, int] = {}
    for pair, members in by_pair.items():
        best: tuple[int, int] | None = None
        for a in MOVING_ACTIONS:
            there = NEXT[here][a]
            seen = signal_patterns(there)
            groups: dict[int, list[int]] = {}
            for d in members:
                groups.setdefault(seen[d], []).append(d)
            public = sum(_total(g, there) for g in groups.values())
            full = sum(_full(d, there) for d in members)
            cost = weight[0] * public + (weight[1] - weight[0]) * full
            if best is None or (cost, a) < best:
                best = (cost, a)
        assert best is not None
        out[pair] = best[1]
    return out


def choose(public: Public, seat: int, cards: SeatCards,
           weight: Weight | None = None) -> int:
    """The policy's action for ``seat`` (its own pair read from ``cards``); ``weight``
    defaults to the face-up rule's in ``WEIGHTS``."""
    if weight is None:
        weight = WEIGHTS.get(public.face_up, DEFAULT_WEIGHT)
    public, cards = _relabelled(public, cards)
    corner, colour = cards.positions[seat], cards.colours[seat]
    assert corner is not None and colour is not None  # a seat sees its own cards
    table = prescription(public_cards(public.face_up, cards), public.start, public.actions,
                         public.signals, weight)
    pair = corner * 5 + colour
    if pair not in table:  # the history left this policy's path: fall back safely
        # (a person at the table, or a seat replaced mid-game): the public optimum's move
        return STACK if public.signals[-1] == ALL_SIGNALS else public_policy(public, seat, cards)
    return table[pair]


def _relabelled(public: Public, cards: SeatCards) -> tuple[Public, SeatCards]:
    """The same question with the tokens renamed so that the start is the identity.

    Actions move slots whatever the tokens' colours and signals compare tokens with
    tokens, so renaming changes no action and no signal; it lets every table share one
    memo (the tables' starts differ, their relative situations repeat)."""
    label = [0] * 5
    for slot, token in enumerate(public.start):
        label[token] = slot

    def rename(token: int | None) -> int | None:
        return None if token is None else label[token]

    c = cards.colours
    colours = (rename(c[0]), rename(c[1]), rename(c[2]), rename(c[3]))
    return (public._replace(start=(0, 1, 2, 3, 4)),
            SeatCards(colours, cards.positions, rename(cards.north)))
