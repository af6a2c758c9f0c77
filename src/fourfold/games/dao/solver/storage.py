"""Where the Dao table is kept: in memory, and cached on disk between runs.

On disk: ``$FOURFOLD_CACHE`` (or ``$XDG_CACHE_HOME/fourfold``, or
``~/.cache/fourfold``), under a name that carries a hash of the rules the table
was built from (``Tables.fingerprint``), with a JSON file beside it holding the
format version and a SHA-256 of the data, checked on every load. A table that
is missing, stale or damaged is built again (``build.build_table``).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from fourfold.games.dao.solver.build import BuildInfo, build_table
from fourfold.games.dao.solver.index import SIZE, TABLE_VERSION, tables


def cache_dir() -> Path:
    """``$FOURFOLD_CACHE``, else ``$XDG_CACHE_HOME/fourfold``, else ``~/.cache/fourfold``."""
    explicit = os.environ.get("FOURFOLD_CACHE")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "fourfold"


def table_path() -> Path:
    return cache_dir() / f"dao-table-{tables().fingerprint()}.npy"


def _digest(packed: np.ndarray) -> str:
    return hashlib.sha256(packed.tobytes()).hexdigest()


def _load(path: Path) -> np.ndarray | None:
    meta_path = path.with_suffix(".json")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        packed: np.ndarray = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if (not isinstance(meta, dict) or meta.get("version") != TABLE_VERSION
            or packed.shape != (SIZE,) or packed.dtype != np.uint8
            or meta.get("sha256") != _digest(packed)):
        return None
    return packed


def _store(path: Path, packed: np.ndarray, info: BuildInfo) -> None:
    """Write atomically (a partly written file is never read as a table)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            np.save(f, packed, allow_pickle=False)
        os.replace(tmp, path)
        meta = {"version": TABLE_VERSION, "sha256": _digest(packed),
                "build_seconds": round(info.seconds, 2), "levels": info.levels}
        meta_tmp = path.with_name(f"{path.stem}.{os.getpid()}.json.tmp")
        meta_tmp.write_text(json.dumps(meta), encoding="utf-8")
        os.replace(meta_tmp, path.with_suffix(".json"))
    except OSError:
        pass  # an unwritable cache only costs a rebuild next time


#: tables in memory, by cache path
_TABLE: dict[str, np.ndarray] = {}


def table(build: bool = True) -> np.ndarray | None:
    """The packed table: from memory, else from the cache, else built (and cached);
    ``None`` if it is neither in memory nor cached and ``build`` is false."""
    path = table_path()
    key = str(path)
    if key not in _TABLE:
        packed = _load(path)
        if packed is None:
            if not build:
                return None
            packed, info = build_table()
            _store(path, packed, info)
        _TABLE[key] = packed
    return _TABLE[key]


def hold_table(packed: np.ndarray | None) -> None:
    """Use ``packed`` as the table for the current cache path (``None``: forget it), without
    touching the cache on disk (benchmarks hand over a table they built)."""
    if packed is None:
        _TABLE.pop(str(table_path()), None)
    else:
        _TABLE[str(table_path())] = packed


def full_table() -> np.ndarray:
    packed = table()
    assert packed is not None
    return packed
