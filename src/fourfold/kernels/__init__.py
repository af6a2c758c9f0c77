"""Compiled fast paths (numba), differential-tested against the readable rules in ``games/``.

``engine_for(game)`` gives the fastest ``Engine`` for a configured game: the
compiled kernel where one exists, else the readable rules behind the same
interface. Kernels hold no rules of their own beyond what the tests check
against the readable rules move by move.

A game provides its kernel through its extension bundle (the protocol): the
part ``kernel`` names a callable that takes the configured game and returns an
``Engine`` (``fourfold.kernels.engine``) on the compiled kernel, or ``None``
when this configuration has none (then the readable rules serve). Generic
machinery lives here: the ``Engine`` interface and its reference twin, the one
alpha-beta (``search``), the shared playout and perft loops
(``sliding_loops``), the jit decorators (``jit``), random numbers (``rng``) and
Ctrl-C handling (``interrupt``). A game's kernel and engine live in its folder
(``games/<game>/kernel.py``, ``kernel_engine.py``).
"""

from __future__ import annotations

from typing import Any

from fourfold.core.extensions import part
from fourfold.core.game import Game
from fourfold.kernels.engine import Engine, ReferenceEngine, SearchResult


def kernel_engine(game: Game[Any, Any]) -> Engine | None:
    """The compiled engine for ``game``, or ``None`` if it has no kernel."""
    make = part(game, "kernel")
    if make is None:
        return None
    engine: Engine | None = make(game)
    return engine


def engine_for(game: Game[Any, Any], *, compiled: bool = True) -> Engine:
    """The compiled engine when there is one (and ``compiled``), else the reference one."""
    engine = kernel_engine(game) if compiled else None
    return engine if engine is not None else ReferenceEngine(game)


__all__ = ["Engine", "ReferenceEngine", "SearchResult", "engine_for", "kernel_engine"]
