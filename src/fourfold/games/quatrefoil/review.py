"""Quatrefoil's review of a finished game (issue 32; docs/review.md, "Quatrefoil").

After the cards are revealed, every action is measured two ways:

- **on public information** (``solver_public``): what the team could know from the
  public record (the start, the actions, every signal, the face-up cards), as one
  public decision-maker who never sees a card. ``before``/``after`` hold the fewest
  actions still needed on average by the best public policy (the final ``stack``
  included), and how many deals (solution and position cards) and how many solutions
  were still consistent with the public information, before the action and after its
  signals were seen;
- **with the deal known** (``solver``): the fewest actions left from the arrangement
  to the solution, stack included.

An action's ``cost`` on public information is what it added to the expected number of
actions over the best action, averaged over the signals it could have drawn: so luck
neither blames nor praises it (``after`` is what was left once its signals were
seen). Its label is ``best`` (cost 0), ``costly`` or ``lost`` (a stack while some
token was out of place; a public policy never risks one: the signals are all up
exactly when the quatrefoil is solved). The costliest action is marked. ``line`` is
the shortest solution from the arrangement before the action, with the deal known;
``public_line`` what the best public policy would have played from there on this deal.

In Dual the solution is face up and there are no signals, so the public optimum is
the shortest solution itself: both measures agree, and what the team learns is which
seat holds which corner (each push shows its pusher's corner), counted as deals.
Refused before the game is over: until then the cards are hidden.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from typing import Any

from fourfold.analysis.review.own import OwnReview
from fourfold.core.errors import ConfigurationError
from fourfold.core.match import Match
from fourfold.games.quatrefoil.arrangement import (
    ACTION_NAMES,
    ALL_ARRANGEMENTS,
    MOVING_ACTIONS,
    STACK,
    Arrangement,
    act,
    correct_corners,
    format_arrangement,
    push_corner,
)
from fourfold.games.quatrefoil.game import QuatrefoilGame
from fourfold.games.quatrefoil.solver import distance, solve
from fourfold.games.quatrefoil.solver_public import (
    ALL_PAIRS,
    Masks,
    action_values,
    card_masks,
)
from fourfold.games.quatrefoil.state import Deal, QuatrefoilState

SUMMARY = ("each action's cost on public information (the public-information belief"
           " search, exact) and with the deal known (shortest paths)")
#: the longest public line worked out (the best public policy never needs this many)
PUBLIC_LINE_CAP = 60
#: decimals of the expected numbers of actions in JSON (the exact fraction is beside it)
DECIMALS = 3

Signals = tuple[bool, bool, bool, bool]
#: every deal the rules can deal: a solution and each seat's position card
ALL_DEALS: tuple[Deal, ...] = tuple(
    Deal(solution, (p[0], p[1], p[2], p[3]))
    for solution in ALL_ARRANGEMENTS for p in permutations(range(4)))


def _signals(deal: Deal, arrangement: Arrangement) -> Signals:
    s, p = deal.solution, deal.positions
    return (arrangement[p[0]] == s[p[0]], arrangement[p[1]] == s[p[1]],
            arrangement[p[2]] == s[p[2]], arrangement[p[3]] == s[p[3]])


@dataclass(frozen=True)
class Known:
    """What the public could know at one moment: the deals still possible."""

    deals: tuple[Deal, ...]

    def to_json(self) -> dict[str, int]:
        return {"deals": len(self.deals),
                "solutions": len({deal.solution for deal in self.deals})}


def _face_up(game: QuatrefoilGame, truth: Deal, deals: Iterable[Deal]) -> tuple[Deal, ...]:
    """The deals that show what lies face up as ``truth`` does: the variant's face-up
    cards, or in Dual the solution (its colour cards lie face up in a square)."""
    colour = game.face_up in ("all", "colour")
    position = game.face_up in ("all", "position")

    def shows(d: Deal) -> bool:
        if game.dual and d.solution != truth.solution:
            return False
        if colour and (d.north != truth.north
                       or any(d.colour(s) != truth.colour(s) for s in range(4))):
            return False
        return not position or d.positions == truth.positions

    return tuple(d for d in deals if shows(d))


def _cards(game: QuatrefoilGame, truth: Deal) -> Masks:
    """The absolute pair masks of the face-up cards (``solver_public.card_masks``)."""
    colour = game.face_up in ("all", "colour")
    position = game.face_up in ("all", "position")
    if not colour and not position:
        return (ALL_PAIRS,) * 4
    return card_masks([truth.positions[s] if position else None for s in range(4)],
                      [truth.colour(s) if colour else None for s in range(4)])


def _amount(value: Fraction | None) -> tuple[float | None, str | None]:
    if value is None:
        return None, None
    return round(float(value), DECIMALS), str(value)


@dataclass(frozen=True)
class Moment:
    """The fewest actions left at one moment, on public information and with the deal
    known (``None``: the game was lost), and what the public could know."""

    public: Fraction | None
    known: int | None
    known_deals: Known

    def to_json(self) -> dict[str, Any]:
        public, exact = _amount(self.public)
        return {"public": public, "public_exact": exact, "known": self.known,
                **self.known_deals.to_json()}


class _Game:
    """One finished game's public history, and the solvers' questions about it."""

    def __init__(self, match: Match[Any, Any, Any]) -> None:
        if match.outcome is None:
            raise ConfigurationError(
                "a Quatrefoil review opens once the game is over: until then the cards"
                " are hidden")
        self.match = match
        game = match.game
        if not isinstance(game, QuatrefoilGame):
            raise ConfigurationError(f"this is Quatrefoil's review, not {game.info.label()}'s")
        self.game: QuatrefoilGame = game
        final: QuatrefoilState = match.state
        self.deal = final.deal
        self.start = final.start
        self.history = final.history
        self.actions = [action for _, action in final.history]
        self.arrangements = final.arrangements
        self.signals: list[Signals] = [_signals(self.deal, a) for a in self.arrangements]
        self.cards = _cards(self.game, self.deal)
        #: the plies before the match's own start (a record set up mid-game)
        self.offset = len(match.start.history)
        self._lefts: dict[int, Fraction] = {}

    # -- what the public could know ------------------------------------------------------
    def known_after(self, count: int) -> list[Known]:
        """The deals consistent with the public record after 0 .. ``count`` actions."""
        deals = _face_up(self.game, self.deal, ALL_DEALS)
        out = []
        for i in range(count + 1):
            if self.game.dual:
                if i:
                    seat, action = self.history[i - 1]
                    corner = push_corner(action)
                    if corner is not None:
                        deals = tuple(d for d in deals if d.positions[seat] == corner)
            else:
                here, seen = self.arrangements[i], self.signals[i]
                deals = tuple(d for d in deals if _signals(d, here) == seen)
            out.append(Known(deals))
        return out

    # -- the fewest actions left -----------------------------------------------------------
    def known_left(self, i: int) -> int:
        """With the deal known: the fewest actions from the arrangement after ``i``
        actions, the stack included."""
        return distance(self.arrangements[i], self.deal.solution) + 1

    def values(self, i: int) -> dict[int, Fraction]:
        """Each action's expected number of actions to the win, itself included, on
        public information after ``i`` actions (``stack`` only where it surely wins)."""
        if self.game.dual:  # the solution is face up: the public optimum is the shortest path
            here = self.arrangements[i]
            if here == self.deal.solution:
                return {STACK: Fraction(1)}
            return {a: Fraction(1 + distance(act(here, a), self.deal.solution) + 1)
                    for a in MOVING_ACTIONS}
        found = action_values(self.start, self.actions[:i], self.signals[:i + 1], self.cards)
        if set(found) == {STACK}:  # solved and known to be: every move costs its way back
            here = self.arrangements[i]
            found = {**found, **{a: Fraction(1 + distance(act(here, a), self.deal.solution)
                                             + 1) for a in MOVING_ACTIONS}}
        return found

    def public_left(self, i: int) -> Fraction:
        """On public information: the fewest actions the best policy needs on average
        from after ``i`` actions (the next action's "before", the last one's "after")."""
        found = self._lefts.get(i)
        if found is None:
            found = self._lefts[i] = min(self.values(i).values())
        return found

    def public_line(self, i: int) -> list[str]:
        """The best public policy's actions from after ``i`` actions, on this deal."""
        if self.game.dual:
            return [ACTION_NAMES[a] for a in solve(self.arrangements[i], self.deal.solution)]
        actions, signals = list(self.actions[:i]), list(self.signals[:i + 1])
        here = self.arrangements[i]
        line: list[str] = []
        while len(line) < PUBLIC_LINE_CAP:
            values = action_values(self.start, actions, signals, self.cards)
            action = min(values, key=lambda a: (values[a], a))
            line.append(ACTION_NAMES[action])
            if action == STACK:
                break
            here = act(here, action)
            actions.append(action)
            signals.append(_signals(self.deal, here))
        return line

    def best(self, values: dict[int, Fraction]) -> list[str]:
        """The best actions on public information (all those of the least value)."""
        top = min(values.values())
        return [ACTION_NAMES[a] for a in sorted(values) if values[a] == top]


def _ply(g: _Game, i: int, known: Sequence[Known]) -> dict[str, Any]:
    """Action ``i`` (from 0, over the whole history) reviewed."""
    seat, action = g.history[i]
    before = g.public_left(i)
    values = g.values(i)
    here = g.arrangements[i]
    ended = action == STACK
    lost = ended and here != g.deal.solution
    # a stack is valued only where it surely wins: any other stack lost the game
    cost = None if lost else values[action] - before
    after_public: Fraction | None
    if lost:
        after_public, after_known = None, None
    elif ended:
        after_public, after_known = Fraction(0), 0
    else:
        after_public, after_known = g.public_left(i + 1), g.known_left(i + 1)
    before_known = g.known_left(i)
    known_cost = None if after_known is None else 1 + after_known - before_known
    if lost:
        wrong = 4 - correct_corners(here, g.deal.solution)
        label, says = "lost", f"lost the game: stacked with {wrong} of 4 tokens out of place"
    elif cost == 0:
        label, says = "best", "best"
    else:
        assert cost is not None
        label, says = "costly", f"cost {float(cost):.2f} actions"
    public_cost, public_exact = _amount(cost)
    return {
        "ply": i - g.offset + 1, "move": g.match.notation[i - g.offset],
        "player": g.match.players[seat],
        "before": Moment(before, before_known, known[i]).to_json(),
        "after": Moment(after_public, after_known,
                        known[i] if ended else known[i + 1]).to_json(),
        "cost": {"public": public_cost, "public_exact": public_exact, "known": known_cost},
        "label": label, "says": says, "best": g.best(values),
        "signals": None if g.game.dual else list(g.signals[i + 1]),
        "line": [ACTION_NAMES[a] for a in solve(here, g.deal.solution)],
        "public_line": g.public_line(i),
    }


def _costliest(plies: Sequence[dict[str, Any]]) -> int | None:
    """The ply that cost the most: a lost stack first, then the greatest public cost."""
    worst: tuple[Fraction, int] | None = None
    for p in plies:
        if p["label"] == "lost":
            return int(p["ply"])
        if p["label"] == "costly":
            cost = Fraction(p["cost"]["public_exact"])
            if worst is None or cost > worst[0]:
                worst = (cost, int(p["ply"]))
    return None if worst is None else worst[1]


def review_match(match: Match[Any, Any, Any]) -> dict[str, Any]:
    """The review of a finished Quatrefoil match, as JSON (docs/review.md)."""
    g = _Game(match)
    game = g.game
    n = len(g.history)
    known = g.known_after(n)
    plies = [_ply(g, i, known) for i in range(g.offset, n)]
    last = g.arrangements[-1]
    stacked = bool(g.history) and g.history[-1][1] == STACK
    outcome = match.outcome
    assert outcome is not None
    start_public, start_exact = _amount(g.public_left(g.offset))
    return {
        "kind": "actions", "game": game.name, "variant": game.info.variant,
        "options": game.info.option_strings(), "players": list(match.players),
        "result": outcome.score(game.num_players), "termination": outcome.reason,
        "solver": SUMMARY,
        "face_up": "solution" if game.dual else game.face_up,
        "start": format_arrangement(g.arrangements[g.offset]),
        "solution": format_arrangement(g.deal.solution),
        "cards": [f"{'BGPRY'[g.deal.colour(s)]}@{('NW', 'NE', 'SW', 'SE')[g.deal.positions[s]]}"
                  for s in range(4)],
        "fewest": {"public": start_public, "public_exact": start_exact,
                   "known": g.known_left(g.offset), **known[g.offset].to_json()},
        "actions": len(plies),
        "plies": plies,
        "costliest": _costliest(plies),
        # from the last arrangement, when the game ended without a stack (the clock, or
        # the team gave up)
        "end_line": [] if stacked else [ACTION_NAMES[a] for a in solve(last, g.deal.solution)],
    }


def _show(body: dict[str, Any], console: Any) -> None:
    from fourfold.games.quatrefoil.review_text import show

    show(body, console)


REVIEW = OwnReview(SUMMARY, review_match, _show)
