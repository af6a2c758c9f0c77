"""Classic Dao's facts for the designer's report: its ``report`` part
(``fourfold.analysis.report.facts``)."""

from __future__ import annotations

import math
from typing import Any

from fourfold.analysis.report.facts import ReportFacts, StateCount
from fourfold.core.game import Game
from fourfold.games.sliding.report import sliding_sites


def state_count(game: Game[Any, Any]) -> StateCount:
    n = math.comb(16, 4) * math.comb(12, 4) * 2
    return StateCount(
        n, False,
        "upper bound by counting: 4 squares for each side's pieces, C(16,4) x C(12,4), times "
        "2 sides to move; it includes positions that cannot occur (a formation already on "
        "the board, a trapped corner piece); the retrograde table (docs/solutions.md) "
        "separates them")


REPORT = ReportFacts(state_space=state_count, sites=sliding_sites,
                     endings=("repetition", "stalemate"))
