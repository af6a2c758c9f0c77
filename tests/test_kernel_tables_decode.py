"""The placement kernel decodes an action's place by a multiply and a shift
(``kernel_tables.place_multiplier``): exact for every action of every ruleset."""

from __future__ import annotations

import pytest

import fourfold
from fourfold.games.placement.kernel_tables import (
    P_ACTIONS,
    P_KINDS,
    P_PLACE_MUL,
    PLACE_SHIFT,
    NoKernelError,
    build_tables,
    flatten,
    place_multiplier,
)

RULESETS = [("folio", "standard"), ("folio", "fixed-grid"), ("folio", "no-grid"),
            ("quarto", None)]


@pytest.mark.parametrize(("name", "variant"), RULESETS)
def test_every_action_decodes_to_its_place(name: str, variant: str | None) -> None:
    t = build_tables(fourfold.load(name, variant))
    params, flat = t.params, flatten(t)
    divisor = int(params[P_KINDS]) + 1
    mul = int(flat[P_PLACE_MUL])
    for action in range(int(params[P_ACTIONS])):
        assert (action * mul) >> PLACE_SHIFT == action // divisor


@pytest.mark.parametrize("divisor", [1, 2, 3, 7, 13, 17, 64, 1001])
def test_the_multiplier_is_exact_up_to_its_limit(divisor: int) -> None:
    actions = ((1 << PLACE_SHIFT) - 1) // divisor  # the largest count it accepts
    mul = place_multiplier(divisor, actions)
    for action in [*range(min(actions, 5_000)), *range(max(actions - 5_000, 0), actions)]:
        assert (action * mul) >> PLACE_SHIFT == action // divisor


def test_too_many_actions_are_refused() -> None:
    with pytest.raises(NoKernelError, match="too many to decode"):
        place_multiplier(13, (1 << PLACE_SHIFT) // 13 + 1)
