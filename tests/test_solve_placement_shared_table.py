"""The placement solver's table is safe to share between two processes (``paired``).

Each row keeps its key words XOR its data word, and a look-up reads the data word once
and checks the key against it (``kernel.find``). A row caught half-written by the
other process, key words of one write with the data of another, is then no entry at
all: never one position's key read with another position's bounds.
"""

from __future__ import annotations

import numpy as np

from fourfold.games.placement.solver import kernel as k4

HI, LO = np.int64(0x1234_5678_9ABC), np.int64(0x0FED_CBA9_8765)
OTHER_LO = np.int64(0x0FED_CBA9_8766)


def workspace() -> k4.Workspace:
    return k4.new_workspace(16, 8)


def test_a_stored_entry_is_found_with_its_bounds() -> None:
    w = workspace()
    assert k4.find(w, HI, LO) == (-1, -1)
    k4.store(w, HI, LO, np.int64(-3), np.int64(5), np.int64(7), np.int64(9))
    row, data = k4.find(w, HI, LO)
    assert row >= 0 and k4.probe(w, HI, LO) == data
    assert (k4.entry_lower(data), k4.entry_upper(data)) == (-3, 5)
    assert (k4.entry_move(data), k4.entry_work(data)) == (7, 9)
    # tightened in place: the same row, the narrower bounds, the move kept
    k4.store(w, HI, LO, np.int64(0), np.int64(8), np.int64(-1), np.int64(9))
    again, data = k4.find(w, HI, LO)
    assert again == row
    assert (k4.entry_lower(data), k4.entry_upper(data), k4.entry_move(data)) == (0, 5, 7)


def test_a_half_written_row_is_no_entry() -> None:
    w = workspace()
    k4.store(w, HI, LO, np.int64(-3), np.int64(5), np.int64(7), np.int64(9))
    row, first = k4.find(w, HI, LO)
    k4.store(w, HI, LO, np.int64(0), np.int64(0), np.int64(2), np.int64(9))
    _, second = k4.find(w, HI, LO)
    assert first != second
    kept = w.tt[row].copy()
    # the data word of the second write under the key words of the first
    w.tt[row, k4.TT_HI] = HI ^ first
    w.tt[row, k4.TT_LO] = LO ^ first
    assert k4.find(w, HI, LO) == (-1, -1)
    # one key word of another position's write (same slot) with this one's other words
    w.tt[row] = kept
    w.tt[row, k4.TT_LO] = OTHER_LO ^ second
    assert k4.find(w, HI, LO) == (-1, -1)
    assert k4.find(w, HI, OTHER_LO) == (-1, -1)
    w.tt[row] = kept
    assert k4.find(w, HI, LO) == (row, second)
