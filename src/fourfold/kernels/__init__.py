"""Compiled fast paths (numba), differential-tested against the readable rules in ``games/``.

``engine_for(game)`` gives the fastest ``Engine`` for a configured game: the
compiled kernel where one exists, else the readable rules behind the same
interface. Kernels hold no rules of their own beyond what the tests check
against ``fourfold.games`` move by move.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.game import Game
from fourfold.kernels.engine import Engine, ReferenceEngine, SearchResult


def kernel_engine(game: Game[Any, Any]) -> Engine | None:
    """The compiled engine for ``game``, or ``None`` if it has no kernel."""
    from fourfold.games.placement.game import PlacementGame

    if isinstance(game, PlacementGame):
        from fourfold.kernels.placement_engine import PlacementEngine
        from fourfold.kernels.placement_tables import NoKernelError

        try:
            return PlacementEngine(game)
        except NoKernelError:
            return None
    from fourfold.games.dao.game import DaoGame

    if isinstance(game, DaoGame):
        from fourfold.kernels.dao_engine import DaoEngine

        return DaoEngine(game)
    from fourfold.games.icedao.game import IceDaoGame

    if isinstance(game, IceDaoGame):
        from fourfold.kernels.icedao_engine import IceDaoEngine

        return IceDaoEngine(game)
    return None


def engine_for(game: Game[Any, Any], *, compiled: bool = True) -> Engine:
    """The compiled engine when there is one (and ``compiled``), else the reference one."""
    engine = kernel_engine(game) if compiled else None
    return engine if engine is not None else ReferenceEngine(game)


__all__ = ["Engine", "ReferenceEngine", "SearchResult", "engine_for", "kernel_engine"]
