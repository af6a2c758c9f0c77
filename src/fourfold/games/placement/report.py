"""The board sites of the placement games, for the report's board coverage
(``fourfold.analysis.report.facts``); ``REPORT`` is Folio's ``report`` part (its
grid variants have boards; no-grid's lattice and freeform's table have none)."""

from __future__ import annotations

from typing import Any

from fourfold.analysis.report.facts import ReportFacts, Sites
from fourfold.core.game import Game
from fourfold.games.placement.geometry import Board


def placement_sites(game: Game[Any, Any]) -> Sites | None:
    """The cells of a board; ``None`` for a geometry without a fixed set of cells."""
    geometry = getattr(game, "geometry", None)
    if not isinstance(geometry, Board):  # no-grid's lattice, freeform's table: no board
        return None
    return geometry.num_cells, lambda state: frozenset(state.occupied)


REPORT = ReportFacts(sites=placement_sites)
