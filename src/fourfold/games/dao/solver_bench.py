"""The solver benchmark sets of classic Dao (``fourfold bench --solvers``).

The retrograde build of the whole table from scratch (``dao.build_table``; numba's
compilation is done before the clock starts), and a probe set: ``dao.solve`` (the
value of the position and of every move) on positions reached by random play. Both
run with ``$FOURFOLD_CACHE`` pointing at a temporary folder and keep the table in
memory only: the user's cache is neither read nor written.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import fourfold
from fourfold.bench.solvers import Answer, SolverSet, answer, played_position
from fourfold.core.game import Game

#: Dao probe positions (quick, full): position i is i % 40 random plies, seed DAO_SEED + i
DAO_PROBES = (1_000, 5_000)
DAO_SEED = 7_000
# -- classic Dao -------------------------------------------------------------------------------

#: tables built by this bench, by the fingerprint of the rules (memory only)
_DAO_BUILT: dict[str, Any] = {}


@contextmanager
def private_dao_cache() -> Iterator[None]:
    """Point ``$FOURFOLD_CACHE`` at a temporary folder for the duration, so that the Dao
    solver neither reads nor writes the user's cache; forget the table held for it."""
    from fourfold.games.dao import solver as dao

    saved = os.environ.get("FOURFOLD_CACHE")
    with tempfile.TemporaryDirectory(prefix="fourfold-bench-") as folder:
        os.environ["FOURFOLD_CACHE"] = folder
        try:
            yield
        finally:
            dao.hold_table(None)
            if saved is None:
                os.environ.pop("FOURFOLD_CACHE", None)
            else:
                os.environ["FOURFOLD_CACHE"] = saved


def _dao_compile() -> None:
    """Compile (or load from numba's cache) the build kernel, off the clock."""
    from fourfold.games.dao import solver as dao

    dao.compile_build()


def _dao_build(_: None) -> Answer:
    """Build the table; its value counts (about 10 ms) are on the clock too."""
    from fourfold.games.dao import solver as dao

    packed, _info = dao.build_table()
    _DAO_BUILT[dao.tables().fingerprint()] = packed
    summary = dao.summarize(packed)
    values = {"win": summary.wins, "loss": summary.losses, "draw": summary.draws}
    return Answer(values, hashlib.sha256(packed.tobytes()).hexdigest(), None)


def _dao_table_in_memory() -> None:
    """Give the Dao solver the table this bench built (building it if no set did), in
    memory under the private cache's path."""
    from fourfold.games.dao import solver as dao

    fingerprint = dao.tables().fingerprint()
    if fingerprint not in _DAO_BUILT:
        _DAO_BUILT[fingerprint] = dao.build_table()[0]
    dao.hold_table(_DAO_BUILT[fingerprint])


def _dao_probe(game: Game[Any, Any], state: Any) -> Answer:
    from fourfold.games.dao import solver as dao

    solution = dao.solve(game, state)
    assert solution is not None
    return answer(solution.value.value, solution.distance, solution.nodes)


def dao_build_set() -> SolverSet:
    return SolverSet(
        name="dao-build", game=fourfold.load("dao"),
        method="retrograde build of all 900,900 entries (time only)",
        positions=lambda: [None], solve=_dao_build, setup=_dao_compile,
        session=private_dao_cache,
    )


def dao_probe_positions(count: int) -> list[Any]:
    game = fourfold.load("dao")
    return [played_position(game, i % 40, DAO_SEED + i) for i in range(count)]


def dao_probe_set(count: int) -> SolverSet:
    game = fourfold.load("dao")
    return SolverSet(
        name="dao-probe", game=game,
        method="table value of the position and of every move (nodes: look-ups)",
        positions=partial(dao_probe_positions, count), solve=partial(_dao_probe, game),
        setup=_dao_table_in_memory, session=private_dao_cache,
    )


def dao_sets(quick: bool) -> list[SolverSet]:
    """Dao's sets (``GameSolvers.bench``): the build, then the probes."""
    return [dao_build_set(), dao_probe_set(DAO_PROBES[0 if quick else 1])]
