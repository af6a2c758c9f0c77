"""Resampling a hidden deal for OpenSpiel's ``resample_from_infostate`` (ISMCTS and kin).

A seat's information state in Quatrefoil is its view: its own cards, the face-up cards,
the table and every signal so far. The deals it cannot tell from the real one are the
(solution, position cards) pairs whose view to that seat is identical and under which
every action seen was legal (in Dual a push shows the pusher's corner). Under the deal's
chance probabilities (uniform solution, uniform order of the position cards, uniform
start among the others) every such deal is equally likely, so a draw is uniform over
them. Nothing but the seat's view is read to find them.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import Any

from fourfold.core.game import Game, View

ORDERS: tuple[tuple[int, int, int, int], ...] = tuple(
    (a, b, c, d) for a, b, c, d in permutations(range(4)))


@lru_cache(maxsize=256)
def consistent_deals(rules: Game[Any, Any], view: View) -> tuple[tuple[int, int], ...]:
    """Every (solution index, position-card order index) whose view equals ``view``.

    The view is the whole information state: its history and signals are replayed on
    each candidate deal, and the candidate is kept only if the seat would see exactly
    what it sees now. The real deal is always among them.
    """
    from fourfold.games.quatrefoil.arrangement import ALL_ARRANGEMENTS
    from fourfold.games.quatrefoil.state import Deal, QuatrefoilState

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
    from fourfold.games.quatrefoil.state import Action, QuatrefoilState

    dual = bool(getattr(rules, "dual", False))
    for version, (seat, action) in enumerate(state.history):
        before = QuatrefoilState(state.deal, state.start, state.history[:version])
        move = Action(action, seat, version) if dual else Action(action)
        if rules.illegal_reason(before, move) is not None:
            return False
    return True


def pick(count: int, sampler: Any) -> int:
    """An index in ``0..count-1`` from a sampler of uniform numbers in [0, 1)
    (``pyspiel.UniformProbabilitySampler`` or any callable returning one)."""
    return min(int(float(sampler()) * count), count - 1)
