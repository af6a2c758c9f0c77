"""Quatrefoil's deal as chance for OpenSpiel: the ``chance`` of its ``observation`` part.

The deal is drawn as three chance outcomes: the solution (any of the 120 arrangements),
the order of the position cards (24), then the start (any of the 119 other
arrangements), each uniform (``DEALER``, a ``fourfold.envs.observe.Dealer``).

Resampling (OpenSpiel's ``resample_from_infostate``, ISMCTS and kin): a seat's
information state in Quatrefoil is its view: its own cards, the face-up cards, the table
and every signal so far. The deals it cannot tell from the real one are the
(solution, position cards) pairs whose view to that seat is identical and under which
every action seen was legal (in Dual a push shows the pusher's corner). Under the deal's
chance probabilities (uniform solution, uniform order of the position cards, uniform
start among the others) every such deal is equally likely, so a draw is uniform over
them. Nothing but the seat's view is read to find them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations
from typing import Any

from fourfold.core.game import Game, View
from fourfold.games.quatrefoil.arrangement import ALL_ARRANGEMENTS
from fourfold.games.quatrefoil.state import Action, Deal, QuatrefoilState

ORDERS: tuple[tuple[int, int, int, int], ...] = tuple(
    (a, b, c, d) for a, b, c, d in permutations(range(4)))


@lru_cache(maxsize=256)
def consistent_deals(rules: Game[Any, Any], view: View) -> tuple[tuple[int, int], ...]:
    """Every (solution index, position-card order index) whose view equals ``view``.

    The view is the whole information state: its history and signals are replayed on
    each candidate deal, and the candidate is kept only if the seat would see exactly
    what it sees now. The real deal is always among them.
    """
    seat = view.player
    obs = view.observation
    found = []
    for s, solution in enumerate(ALL_ARRANGEMENTS):
        if solution == obs.start or (obs.solution is not None and solution != obs.solution):
            continue
        for o, order in enumerate(ORDERS):
            if any(card is not None and card != order[i]
                   for i, card in enumerate(obs.position_cards)):
                continue
            twin = QuatrefoilState(Deal(solution, order), obs.start, obs.history)
            if rules.view(twin, seat) == view and _legal_history(rules, twin):
                found.append((s, o))
    return tuple(found)


def _legal_history(rules: Any, state: Any) -> bool:
    """Whether every action that landed was legal under ``state``'s deal. In Dual a push
    must end on the pusher's own corner, so a push seen reveals the pusher's card."""
    dual = bool(getattr(rules, "dual", False))
    for version, (seat, action) in enumerate(state.history):
        before = QuatrefoilState(state.deal, state.start, state.history[:version])
        move = Action(action, seat, version) if dual else Action(action)
        if rules.illegal_reason(before, move) is not None:
            return False
    return True


class QuatrefoilDealer:
    """The deal as OpenSpiel chance: solution, order of the position cards, start."""

    max_outcomes = len(ALL_ARRANGEMENTS)

    def outcomes(self, drawn: Sequence[int]) -> list[tuple[int, float]]:
        if len(drawn) == 0:
            return [(i, 1.0 / 120) for i in range(len(ALL_ARRANGEMENTS))]
        if len(drawn) == 1:
            return [(i, 1.0 / 24) for i in range(len(ORDERS))]
        if len(drawn) == 2:
            return [(i, 1.0 / 119) for i in range(len(ALL_ARRANGEMENTS)) if i != drawn[0]]
        return []

    def deal(self, game: Game[Any, Any], drawn: Sequence[int]) -> QuatrefoilState | None:
        if len(drawn) < 3:
            return None
        solution, order, start = drawn
        p = ORDERS[order]
        return QuatrefoilState(Deal(ALL_ARRANGEMENTS[solution], (p[0], p[1], p[2], p[3])),
                               ALL_ARRANGEMENTS[start])

    def resample(self, game: Game[Any, Any], view: View) -> tuple[tuple[int, ...], ...]:
        start = ALL_ARRANGEMENTS.index(view.observation.start)
        return tuple((s, o, start) for s, o in consistent_deals(game, view))


DEALER = QuatrefoilDealer()
