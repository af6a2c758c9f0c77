"""Classic Dao solved by retrograde analysis: the value of every position.

A Dao position is four pieces of the side to move, four of the other side and
whose turn it is. The rules are the same for X and O (only the start differs),
so a position's value depends only on *which squares the side to move holds*
and *which squares the other side holds*: the table has one entry per such pair,
``C(16,4) * C(12,4) = 900,900`` of them; the 1,801,800 positions with a named
side to move are these, once with X and once with O to move. Positions that
cannot occur in play are marked invalid and left out of every count.

One module per job:

* ``index``: where a position sits in the table (a perfect hash), the entry
  format (value in the top two bits, distance in plies in the low six) and the
  rule arrays the kernels read;
* ``build``: the retrograde analysis, level by level (``build_table``);
* ``storage``: the table in memory and cached on disk, checked by a SHA-256
  (``table``, ``hold_table``);
* ``lookup``: a position's value and every move's (``lookup``, ``solve``), and
  what the game's history changes;
* ``figures``: counts over the table (``summarize``, ``symmetry_classes``);
* ``benchmark``: the figures of docs/solutions.md.

Dao's ``solver`` part (``fourfold.games.dao.solver_hooks``) reaches ``solve``.
"""

from __future__ import annotations

from fourfold.games.dao.solver.benchmark import benchmark
from fourfold.games.dao.solver.build import BuildInfo, build_table, compile_build
from fourfold.games.dao.solver.figures import Summary, by_distance, summarize, symmetry_classes
from fourfold.games.dao.solver.index import (
    DISTANCE_BITS,
    DRAW,
    INVALID,
    LOSS,
    MAX_DISTANCE,
    MOVER_SETS,
    OTHER_SETS,
    PIECES,
    SIZE,
    SQUARES,
    TABLE_VERSION,
    WIN,
    Tables,
    index_of,
    masks,
    position_at,
    tables,
)
from fourfold.games.dao.solver.lookup import BUILD_BUDGET, lookup, solve
from fourfold.games.dao.solver.storage import _TABLE as _TABLE  # the old module's private names,
from fourfold.games.dao.solver.storage import _load as _load  # which tests still reach
from fourfold.games.dao.solver.storage import _store as _store
from fourfold.games.dao.solver.storage import (
    cache_dir,
    full_table,
    hold_table,
    table,
    table_path,
)

__all__ = [
    "BUILD_BUDGET", "DISTANCE_BITS", "DRAW", "INVALID", "LOSS", "MAX_DISTANCE", "MOVER_SETS",
    "OTHER_SETS", "PIECES", "SIZE", "SQUARES", "TABLE_VERSION", "WIN", "BuildInfo", "Summary",
    "Tables", "benchmark", "build_table", "by_distance", "cache_dir", "compile_build",
    "full_table", "hold_table", "index_of", "lookup", "masks", "position_at", "solve",
    "summarize", "symmetry_classes", "table", "table_path", "tables",
]
