"""Every playable (game, variant) in the registry, for suites that run on all games."""

from __future__ import annotations

from typing import Any

import fourfold
from fourfold.core.game import Game


def playable_cases() -> list[tuple[str, str]]:
    cases = []
    for name in fourfold.game_names():
        for variant in fourfold.get_spec(name).variants:
            if variant.unavailable is None:
                cases.append((name, variant.name))
    return cases


def case_id(case: tuple[str, str]) -> str:
    return f"{case[0]}-{case[1]}"


def load_case(case: tuple[str, str]) -> Game[Any, Any]:
    return fourfold.load(case[0], case[1])
