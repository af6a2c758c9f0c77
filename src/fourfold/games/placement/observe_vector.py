"""The placement games' compiled family for the envs (Quarto, Folio's grids): the
``Observation.vector`` of their bundles.

``family(game)`` gives ``VectorEnv`` and the AEC env's compiled observations the
placement kernel (``fourfold.games.placement.kernel``, differential-tested against the
rules) in the shape of ``fourfold.envs.vector_kernels``: a game is the row
``x = board | supply | st``; ``ot`` (float64) holds the attribute planes' table:
``[A, then A x K attribute table, then K copies per kind]``. ``pl_observe`` writes the
planes of ``fourfold.games.placement.observe.PlacementEncoder``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from fourfold.core.errors import ConfigurationError
from fourfold.envs import vector_kernels as vk
from fourfold.envs.vector_entries import entry_points
from fourfold.envs.vector_kernels import Family, family_function, hot_family_function
from fourfold.games.placement import kernel as pk
from fourfold.games.placement.kernel_tables import P_CELLS, P_KINDS
from fourfold.games.placement.observe import PlacementEncoder
from fourfold.kernels.jit import inlined


@family_function
def pl_legal(t, x, h, keys, out):  # type: ignore[no-untyped-def]
    n = t[P_CELLS]
    k = t[P_KINDS]
    return pk.legal_actions(t, x[:n], x[n:n + k], x[n + k:], out)


@family_function
def pl_apply(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    n = t[P_CELLS]
    k = t[P_KINDS]
    pk.apply(t, x[:n], x[n:n + k], x[n + k:], action)


@hot_family_function
def pl_push(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    n = t[P_CELLS]
    k = t[P_KINDS]
    pk.push(t, x[:n], x[n:n + k], x[n + k:], h, action)


@hot_family_function
def pl_pop(t, x, h):  # type: ignore[no-untyped-def]
    n = t[P_CELLS]
    k = t[P_KINDS]
    pk.pop(t, x[:n], x[n:n + k], x[n + k:], h)


@hot_family_function
def pl_status(t, x):  # type: ignore[no-untyped-def]
    """(player to move or -1 once over, winner or -1)."""
    st = x[t[P_CELLS] + t[P_KINDS]:]
    return pk.to_move(t, st), st[pk.S_WINNER]


@family_function
def pl_wins_now(t, x, h, keys, buf):  # type: ignore[no-untyped-def]
    """Whether the player to move can win at once (the piece in hand completes a line)."""
    n = t[P_CELLS]
    st = x[n + t[P_KINDS]:]
    if pk.to_move(t, st) < 0:
        return False
    return pk.winning_cell(t, x[:n], st) >= 0


@family_function
def pl_observe(t, ot, x, keys, viewer, o, planes):  # type: ignore[no-untyped-def]
    n = t[P_CELLS]
    k = t[P_KINDS]
    st = x[n + k:]
    mover = pk.to_move(t, st)
    if not planes:
        # board kinds (-1 empty), the kind in hand (-1 none), the supply, the player to move
        for c in range(n):
            o[c] = x[c]
        o[n] = st[pk.S_HAND]
        for g in range(k):
            o[n + 1 + g] = x[n + g]
        o[n + 1 + k] = mover
        return
    # PlacementEncoder: planes of n cells (one per cell of the geometry). ``planes`` 1
    # writes every plane; ``TAIL`` only the last four (placeable, give only, to act,
    # seat), the others being kept up to date move by move by ``pl_track``
    a = np.int64(ot[0])
    hand = st[pk.S_HAND]
    if planes != vk.TAIL:
        for j in range(o.shape[0]):
            o[j] = 0.0
        for c in range(n):
            kind = x[c]
            if kind >= 0:
                o[kind * n + c] = 1.0
                for j in range(a):
                    o[(k + j) * n + c] = ot[1 + j * k + kind]
        if hand >= 0:
            base = (k + a + hand) * n
            for c in range(n):
                o[base + c] = 1.0
        for g in range(k):
            _supply_plane(ot, o, n, k, a, g, x[n + g])
    place = 3 * k + a
    m = pk.placeable(t, st) if mover >= 0 else 0
    give_only = 1.0 if mover >= 0 and hand < 0 else 0.0
    acting = 1.0 if mover >= 0 and mover == viewer else 0.0
    seat = np.float32(viewer) if viewer > 0 else 0.0
    for c in range(n):
        o[place * n + c] = (m >> c) & 1
        o[(place + 1) * n + c] = give_only
        o[(place + 2) * n + c] = acting
        o[(place + 3) * n + c] = seat


@inlined
def _supply_plane(ot, o, n, k, a, g, left):  # type: ignore[no-untyped-def]
    value = np.float32(left) / np.float32(ot[1 + a * k + g])
    base = (2 * k + a + g) * n
    for c in range(n):
        o[base + c] = value


@family_function
def pl_track(t, ot, x, action, o, planes):  # type: ignore[no-untyped-def]
    """Before ``action`` is applied: update the planes it changes (the piece placed, its
    attributes, the hand and the supply of the kind given), a few cache lines instead of
    the whole tensor."""
    if planes != vk.TAIL:
        return
    n = t[P_CELLS]
    k = t[P_KINDS]
    a = np.int64(ot[0])
    hand = x[n + k + pk.S_HAND]
    place = action // (k + 1)
    give = action % (k + 1)
    if place < n:
        o[hand * n + place] = 1.0
        for j in range(a):
            # the cell was empty, so its attribute entries are 0: write only the others
            # (each attribute plane is its own cache line, and most rows are cold)
            value = ot[1 + j * k + hand]
            if value != 0:
                o[(k + j) * n + place] = value
        base = (k + a + hand) * n
        for c in range(n):
            o[base + c] = 0.0
    if give < k:
        base = (k + a + give) * n
        for c in range(n):
            o[base + c] = 1.0
        _supply_plane(ot, o, n, k, a, give, x[n + give] - 1)


ENTRIES = entry_points(__name__, "pl", legal=pl_legal, apply=pl_apply, push=pl_push, pop=pl_pop,
                       status=pl_status, wins_now=pl_wins_now, observe=pl_observe,
                       track=pl_track)


class PlacementRows:
    """Loads a placement position into the kernel's row (``Family.load``)."""

    def __init__(self, game: Any, tables: Any) -> None:
        self.game = game
        self.cell_x = [int(v) for v in tables.cell_x]
        self.cell_y = [int(v) for v in tables.cell_y]
        self.neighbours = [int(v) for v in tables.neighbours]
        self.no_keys = np.zeros(1, dtype=np.int64)

    def __call__(self, state: Any) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        return self._placement_row(state), self.no_keys

    def _placement_row(self, state: Any) -> npt.NDArray[np.int64]:
        """The kernel row ``board | supply | st`` of a placement position, built with
        Python integers (``PlacementEngine.load`` without its NumPy scalar arithmetic and
        the hash, which the observation does not read)."""
        geometry = self.game.geometry
        board = [-1] * len(self.cell_x)
        occ = adj = 0
        minx = miny = 1 << 20
        maxx = maxy = -(1 << 20)
        for cell, kind in state.board:
            i = geometry.index(cell)
            board[i] = kind
            occ |= 1 << i
            adj |= self.neighbours[i]
            minx, maxx = min(minx, self.cell_x[i]), max(maxx, self.cell_x[i])
            miny, maxy = min(miny, self.cell_y[i]), max(maxy, self.cell_y[i])
        st = [0] * pk.NUM_FIELDS
        st[pk.S_HAND] = -1 if state.hand is None else state.hand
        st[pk.S_PLACED] = state.placed
        st[pk.S_OCC], st[pk.S_ADJ] = _signed(occ), _signed(adj)
        st[pk.S_MINX], st[pk.S_MAXX], st[pk.S_MINY], st[pk.S_MAXY] = minx, maxx, miny, maxy
        st[pk.S_WINNER] = -1 if state.line is None else (state.placed - 1) % 2
        return np.array(board + list(state.supply) + st, dtype=np.int64)


def _signed(bits: int) -> int:
    """A 64-bit pattern as the int64 holding it."""
    bits &= (1 << 64) - 1
    return bits - (1 << 64) if bits >> 63 else bits


def family(game: Any) -> Family:
    """The placement kernel's family for a configured placement game."""
    from fourfold.games.placement.kernel_engine import PlacementEngine
    from fourfold.games.placement.kernel_tables import NoKernelError

    try:
        engine = PlacementEngine(game)
    except NoKernelError as exc:
        raise ConfigurationError(f"no vectorised env for {game.info.label()}: {exc}") from None
    board, supply, st, _ = pk.new_position(engine.t)
    x0 = np.concatenate([board, supply, st]).astype(np.int64)
    cells, kinds = len(board), len(supply)
    encoder = PlacementEncoder(game)
    if encoder.rows * encoder.cols != cells:  # invariant: planes are the geometry's cells
        raise ConfigurationError(f"no vectorised planes for {game.info.label()}")
    attrs = encoder.attr_table.astype(np.float64)
    ot = np.concatenate([[len(attrs)], attrs.ravel(), encoder.counts.astype(np.float64)])
    high = max(kinds - 1, int(encoder.counts.max()), 1)
    return Family(engine.t, ot, x0, (vk.LOOKAHEAD_ROWS, pk.NUM_FIELDS + 1), (),
                  cells + kinds + 2, high, game.num_actions,
                  ENTRIES.kernels, ENTRIES.view,
                  PlacementRows(game, engine.tables))
