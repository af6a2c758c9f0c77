"""A game's facts for the designer's report: the ``report`` part of its bundle.

Which sites a state occupies, how many positions there are, and what a cooperative
deal's optimum is are game knowledge, so the report asks each game's extension
bundle (``core.extensions``) for them: ``Extensions(report="package.module:ATTR")``
names a ``ReportFacts`` value. Each field is optional; a game without the part (or
without a field) gets no figure for it, and the report says so:

- ``state_space(game) -> StateCount | None``: the number of positions (exact or an
  upper bound, ``StateCount.exact`` says which) and how it was obtained, for this
  variant and options; ``None`` when there is no count.
- ``sites(game) -> Sites | None``: the board's fixed set of sites, as ``(number of
  sites, state -> the sites holding a piece)``, for Ludii's board coverage; ``None``
  when the configured board has no fixed set of sites.
- ``optimum(game, start) -> int``: a cooperative game's fewest actions for the deal
  of ``start`` with full information (the report compares the teams with it), and
  ``optimum_source``: how it is computed, as the report quotes it.
- ``optimum_facts(game) -> list of dicts``: facts from the game's solvers for the
  report's cooperative section (``fact``, ``value``, ``float``, ``source``).
- ``endings``: which of the endings ``repetition`` and ``stalemate`` (the side to move
  cannot move) the rules have; the report gives the rates of these only (a game that
  cannot end so would show a 0% that says nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fourfold.core.extensions import typed_part
from fourfold.core.game import Game

#: ``(sites of the board, state -> the sites holding a piece)``
Sites = tuple[int, Callable[[Any], frozenset[Any]]]


@dataclass(frozen=True)
class StateCount:
    """A state-space figure and how it was obtained."""

    positions: int
    exact: bool
    method: str


@dataclass(frozen=True)
class ReportFacts:
    """What a game's ``report`` part must be (see the module docstring)."""

    state_space: Callable[[Game[Any, Any]], StateCount | None] | None = None
    sites: Callable[[Game[Any, Any]], Sites | None] | None = None
    optimum: Callable[[Game[Any, Any], Any], int] | None = None
    optimum_source: str = ""
    optimum_facts: Callable[[Game[Any, Any]], list[dict[str, Any]]] | None = None
    endings: tuple[str, ...] = ()


NO_FACTS = ReportFacts()


def facts_of(game: Game[Any, Any]) -> ReportFacts:
    """The ``report`` part of a configured game (``NO_FACTS`` if it has none)."""
    return typed_part(game, "report", ReportFacts, NO_FACTS)
