"""Saving a placement solver's transposition table to disk and loading it back.

A long solve (an opening of Folio under same-colour-or-size, say) can stop at
its time limit, save everything it has proven, and go on later from there:
every entry holds proven bounds of a position, with scores that mean the same
from any root, so a reloaded table only saves work, it never changes a value.
A table is only valid for the ruleset, table size and key layout it was built
with; the file's sidecar records them and loading refuses any other.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from fourfold.core.errors import FourfoldError
from fourfold.games.placement.solver import kernel as k4
from fourfold.games.placement.solver.solver import Solver


class TableFileError(FourfoldError):
    """A saved table cannot be used: missing, unreadable or built for another solver."""


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".json")


def describe(solver: Solver) -> dict[str, Any]:
    """What a table's entries depend on."""
    pieces, geometry, counts = solver.ruleset
    st = solver.work.st
    return {
        "key_format": k4.KEY_FORMAT,
        "pieces": pieces,
        "geometry": geometry,
        "counts": list(counts),
        "entries": int(solver.work.tt.shape[0]),
        "canon_max": int(st[k4.CANON_MAX]),
        "dead_lines": int(st[k4.DEAD_LINES]),
    }


def save_table(solver: Solver, path: str | Path) -> None:
    """Write the solver's table to ``path`` (a ``.npy`` file) and its description beside it.
    The table is written to a temporary name first, so a crash never leaves half a file."""
    path = Path(path)
    temporary = path.with_name(path.name + ".partial.npy")
    np.save(temporary, solver.work.tt)
    os.replace(temporary, path)
    _sidecar(path).write_text(json.dumps(describe(solver), indent=1) + "\n")


def load_table(solver: Solver, path: str | Path) -> None:
    """Fill the solver's table from ``path``; raise ``TableFileError`` if it was saved by a
    solver with another ruleset, table size or key layout (the table is then untouched)."""
    path = Path(path)
    try:
        saved = json.loads(_sidecar(path).read_text())
    except (OSError, ValueError) as exc:
        raise TableFileError(f"cannot read the description of {path}: {exc}") from exc
    wanted = describe(solver)
    if saved != wanted:
        diff = ", ".join(
            f"{k} {saved.get(k)!r} (this solver: {wanted[k]!r})"
            for k in wanted
            if saved.get(k) != wanted[k]
        )
        raise TableFileError(f"{path} was saved by another solver: {diff}")
    try:
        table = np.load(path, mmap_mode="r")
    except (OSError, ValueError) as exc:
        raise TableFileError(f"cannot read {path}: {exc}") from exc
    if table.shape != solver.work.tt.shape or table.dtype != solver.work.tt.dtype:
        raise TableFileError(f"{path} holds a {table.shape} {table.dtype} table, not the solver's")
    solver.work.tt[:] = table
