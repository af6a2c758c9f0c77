"""Quarto's facts for the designer's report: its ``report`` part
(``fourfold.analysis.report.facts``)."""

from __future__ import annotations

import math
from typing import Any

from fourfold.analysis.report.facts import ReportFacts, StateCount
from fourfold.core.game import Game
from fourfold.games.placement.report import placement_sites


def state_count(game: Game[Any, Any]) -> StateCount:
    # k distinct pieces on k of the 16 cells, and (before the board is full) one of the
    # 16 - k others in hand
    n = sum(math.comb(16, k) * math.perm(16, k) * max(16 - k, 1) for k in range(17))
    return StateCount(
        n, False,
        "upper bound by counting: for k = 0..16 pieces placed, C(16,k) cells x 16!/(16-k)! "
        "ordered pieces x the 16-k pieces that may be in hand; it includes boards with a "
        "line already made (which end the game) and ignores symmetry")


REPORT = ReportFacts(state_space=state_count, sites=placement_sites)
