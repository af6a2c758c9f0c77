"""The exact average of a joint Quatrefoil policy over every case.

A joint policy is a function ``choose(public, seat, cards) -> action``: ``public`` is
the public history (``Public``: face-up rule, start, actions so far, the signal
patterns after the deal and after every action) and ``cards`` what that seat sees of
the cards (its own and the face-up ones, as in its view). The evaluator plays it on
every case of ``cases.cases`` with the rules' arrangement table and signals, and sums
the actions, the final stack included. A game that stacks unsolved, or runs past
``max_actions``, is a loss (and is counted as such, not averaged away).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from fourfold.games.quatrefoil.arrangement import STACK, Arrangement, act
from fourfold.games.quatrefoil.solver_team.cases import Case, cases


class Public(NamedTuple):
    """What everyone at the table knows (the face-up cards are in ``SeatCards``)."""

    face_up: str
    start: Arrangement
    actions: tuple[int, ...]
    #: signal patterns (bit k: seat k's signal) after the deal and after each action
    signals: tuple[int, ...]


class SeatCards(NamedTuple):
    """The cards one seat sees: ``None`` where face down to it."""

    colours: tuple[int | None, int | None, int | None, int | None]
    positions: tuple[int | None, int | None, int | None, int | None]
    north: int | None


Policy = Callable[[Public, int, SeatCards], int]


def pattern(arrangement: Arrangement, solution: Arrangement, positions: tuple[int, ...]) -> int:
    """The four signals: bit k set when seat k's corner holds its colour."""
    return sum(1 << k for k, c in enumerate(positions) if arrangement[c] == solution[c])


def seat_cards(face_up: str, solution: Arrangement, positions: tuple[int, ...],
               seat: int) -> SeatCards:
    colours_up = face_up in ("all", "colour")
    positions_up = face_up in ("all", "position")
    c = [solution[positions[k]] if colours_up or k == seat else None for k in range(4)]
    p = [positions[k] if positions_up or k == seat else None for k in range(4)]
    return SeatCards((c[0], c[1], c[2], c[3]), (p[0], p[1], p[2], p[3]),
                     solution[4] if colours_up else None)


@dataclass
class Figure:
    """A policy's results over every case of one face-up rule."""

    face_up: str
    cases: int = 0
    won: int = 0
    total: int = 0
    longest: int = 0
    lengths: Counter[int] = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def mean(self) -> Fraction:
        return Fraction(self.total, self.cases)

    def as_dict(self) -> dict[str, object]:
        return {
            "face_up": self.face_up, "cases": self.cases, "won": self.won,
            "total_actions": self.total, "mean": f"{self.mean.numerator}/{self.mean.denominator}",
            "mean_decimal": round(float(self.mean), 4), "longest": self.longest,
            "lengths": dict(sorted(self.lengths.items())), "seconds": round(self.seconds, 1),
        }


def play_case(policy: Policy, face_up: str, case: Case, max_actions: int = 200) -> tuple[int, bool]:
    """(actions taken, won) for one case."""
    start, solution, positions = case
    cards = [seat_cards(face_up, solution, positions, k) for k in range(4)]
    here = start
    actions: list[int] = []
    signals = [pattern(here, solution, positions)]
    while len(actions) < max_actions:
        seat = len(actions) % 4
        action = policy(Public(face_up, start, tuple(actions), tuple(signals)), seat,
                        cards[seat])
        actions.append(action)
        if action == STACK:
            return len(actions), here == solution
        here = act(here, action)
        signals.append(pattern(here, solution, positions))
    return len(actions), False


def evaluate(policy: Policy, face_up: str = "none", sample: list[Case] | None = None) -> Figure:
    """Play ``policy`` on every case (or on ``sample``) and count."""
    began = time.perf_counter()
    figure = Figure(face_up)
    for case in cases(face_up) if sample is None else sample:
        n, won = play_case(policy, face_up, case)
        figure.cases += 1
        figure.won += won
        figure.total += n
        figure.longest = max(figure.longest, n)
        figure.lengths[n] += 1
    figure.seconds = time.perf_counter() - began
    return figure


# -- today's policies, as joint policies --------------------------------------------------

def bots_policy(curiosity: float | None = None, read_actions: bool = True) -> Policy:
    """Today's ``quatrefoil`` bots (``ai/quatrefoil.team_choice``) as a joint policy."""
    from fourfold.games.quatrefoil.bots_seat import DEFAULT_CURIOSITY, team_choice

    c = DEFAULT_CURIOSITY if curiosity is None else curiosity
    trusted = frozenset(range(4)) if read_actions else frozenset[int]()

    def choose(public: Public, seat: int, cards: SeatCards) -> int:
        history = tuple((u % 4, a) for u, a in enumerate(public.actions))
        key = (public.face_up, c, public.start, history, public.signals, trusted)
        return team_choice(key, seat, cards.colours, cards.positions, cards.north)

    return choose


def public_policy(public: Public, seat: int, cards: SeatCards) -> int:
    """The optimal public-information policy (``solve/quatrefoil_public``): cards ignored
    except the face-up ones."""
    from fourfold.games.quatrefoil.solver_public import ALL_PAIRS, best_action, pair_bit

    colours_up = public.face_up in ("all", "colour")
    positions_up = public.face_up in ("all", "position")
    masks = []
    for k in range(4):
        corner = cards.positions[k] if positions_up else None
        colour = cards.colours[k] if colours_up else None
        corners = range(4) if corner is None else (corner,)
        tokens = range(5) if colour is None else (colour,)
        masks.append(sum(pair_bit(c, t) for c in corners for t in tokens) or ALL_PAIRS)
    signals = [[bool(s >> k & 1) for k in range(4)] for s in public.signals]
    return best_action(public.start, public.actions, signals, masks)
