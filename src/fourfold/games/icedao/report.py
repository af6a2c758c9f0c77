"""Ice Dao's facts for the designer's report: its ``report`` part
(``fourfold.analysis.report.facts``)."""

from __future__ import annotations

from typing import Any

from fourfold.analysis.report.facts import ReportFacts, StateCount
from fourfold.core.game import Game
from fourfold.games.sliding.report import sliding_sites


def state_count(game: Game[Any, Any]) -> StateCount:
    from fourfold.games.icedao.solver import count_positions

    count = count_positions()
    return StateCount(
        count.legal, False,
        "upper bound, counted by fourfold.games.icedao.solver.count_positions: stack "
        "configurations of all 12 pieces, (C(25,2) x C(23,2))^3 = "
        f"{count.configurations:,}, times 2 sides to move, "
        "less those where the side to move already has four in a line (enumerated). An "
        "upper bound on the positions play can reach: reachability is not checked, and "
        "set-ups with pieces off the board are not counted")


REPORT = ReportFacts(state_space=state_count, sites=sliding_sites,
                     endings=("repetition", "stalemate"))
