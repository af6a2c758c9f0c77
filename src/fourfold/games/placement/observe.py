"""Observation tensors: one seat's ``View`` as a float32 array, per game family.

An encoder reads only a ``View`` (``game.view(state, seat)``), never the referee's
state, so an observation can hold nothing its seat may not know: two deals a seat
cannot tell apart give it identical tensors (tests/test_envs.py checks this). The
planes of every family are listed by ``plane_names`` and described in docs/envs.md.

Families are chosen by the type of the rules (``PlacementGame``, ``SlidingGame``...),
the same surface every game of a family shares, never by a game's name.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np
import numpy.typing as npt

from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game, View

Tensor = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class Encoder(ABC):
    """Turns one seat's view into a fixed-shape float32 tensor with values in [0, 1]."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game

    @property
    @abstractmethod
    def shape(self) -> tuple[int, ...]:
        """``(planes, rows, columns)`` for board games, ``(features,)`` otherwise."""

    @abstractmethod
    def plane_names(self) -> list[str]:
        """One name per plane (or feature), in tensor order, for docs and debugging."""

    @abstractmethod
    def encode(self, view: View) -> Tensor:
        """The tensor of ``view`` (a new array)."""

    def observe(self, view: View) -> tuple[Tensor, Mask]:
        """The tensor of ``view`` and the viewer's legal-action mask (int8, all zeros when
        it does not act): what an env hands an agent each step."""
        mask = np.asarray(self.game.view_legal_action_mask(view), dtype=np.int8)
        return self.encode(view), mask


# -- placement games: Quarto and Folio's grid variants ---------------------------------------


def piece_attributes(pieces: Any) -> list[tuple[str, list[bool]]]:
    """``(name, has[kind])`` for each attribute plane of a piece set."""
    from fourfold.games.folio.pieces import COLOUR_NAMES, SIZE_NAMES, FolioPieces, colour, size
    from fourfold.games.quarto.pieces import WORDS, QuartoPieces

    kinds = range(pieces.num_kinds)
    if isinstance(pieces, QuartoPieces):
        out = []
        for i, (yes, no) in enumerate(WORDS):
            out.append((yes, [bool(k >> i & 1) for k in kinds]))
            out.append((no, [not k >> i & 1 for k in kinds]))
        return out
    if isinstance(pieces, FolioPieces):
        return [(c, [colour(k) == i for k in kinds]) for i, c in enumerate(COLOUR_NAMES)] + [
            (s, [size(k) == i for k in kinds]) for i, s in enumerate(SIZE_NAMES)
        ]
    return []


class PiecePlanes(Encoder):
    """The planes every placement encoder shares: a plane per kind and per attribute,
    the piece in hand and the supply, then ``tail`` planes of the encoder's own."""

    def __init__(self, game: Any, tail: int) -> None:
        super().__init__(game)
        self.pieces = game.pieces
        self.kinds = self.pieces.num_kinds
        self.attributes = piece_attributes(self.pieces)
        self.attr_table = np.array([has for _, has in self.attributes], dtype=np.float32)
        self.counts = np.array(self.pieces.counts, dtype=np.float32)
        k, a = self.kinds, len(self.attributes)
        self.o_attr, self.o_hand, self.o_supply, self.o_place = k, k + a, 2 * k + a, 3 * k + a
        self.planes = 3 * k + a + tail

    def piece_plane_names(self) -> list[str]:
        names = [self.pieces.name(k) for k in range(self.kinds)]
        return (
            [f"piece {n}" for n in names]
            + [f"attribute {n}" for n, _ in self.attributes]
            + [f"in hand {n}" for n in names]
            + [f"supply {n}" for n in names]
        )


class PlacementEncoder(PiecePlanes):
    """Quarto and Folio grids: a plane per kind, per attribute, the piece in hand, the
    supply, the cells the next piece may go on (Folio standard's floating 4x4 area),
    whether this ply only gives, whether the viewer acts and which seat it is."""

    game: Any

    def __init__(self, game: Any) -> None:
        from fourfold.games.placement.geometry import Board, Lattice

        super().__init__(game, tail=4)
        geo = game.geometry
        if isinstance(geo, Board):
            self.rows, self.cols = geo.height, geo.width
        elif isinstance(geo, Lattice):
            self.rows = self.cols = geo.side
        else:  # pragma: no cover - every placement geometry is one of the two
            raise ConfigurationError(f"no observation planes for {type(geo).__name__}")
        self.cells = [divmod(i, self.cols) for i in range(game.geometry.num_cells)]

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.planes, self.rows, self.cols)

    def plane_names(self) -> list[str]:
        return [*self.piece_plane_names(), "placeable", "give only", "to act", "seat"]

    def encode(self, view: View) -> Tensor:
        game = self.game
        state = view.observation
        out = np.zeros(self.shape, dtype=np.float32)
        geo = game.geometry
        for cell, kind in state.board:
            r, c = self.cells[geo.index(cell)]
            out[kind, r, c] = 1.0
            if self.attributes:
                out[self.o_attr:self.o_hand, r, c] = self.attr_table[:, kind]
        over = game.outcome(state) is not None
        if state.hand is not None:
            out[self.o_hand + state.hand] = 1.0
        supply = np.asarray(state.supply, dtype=np.float32) / self.counts
        out[self.o_supply:self.o_place] = supply[:, None, None]
        if not over:
            for cell in geo.placeable(state.occupied):
                r, c = self.cells[geo.index(cell)]
                out[self.o_place, r, c] = 1.0
            if state.hand is None:
                out[self.o_place + 1] = 1.0
        if view.player is not None and view.player in game.view_actors(view):
            out[self.o_place + 2] = 1.0
        if view.player:
            out[self.o_place + 3] = float(view.player)
        return out


# -- Folio freeform: the continuous table on its action lattice --------------------------------


class FreeformEncoder(PiecePlanes):
    """Folio freeform: pieces at the nearest point of the action lattice (0.5 apart),
    the same kind, attribute, hand and supply planes as the grids, the lattice points
    where a placement is legal, whether a challenge is possible (the grid is broken),
    whether this ply only gives, whether the viewer acts and which seat it is."""

    game: Any

    def __init__(self, game: Any) -> None:
        super().__init__(game, tail=5)
        self.side = game.side

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.planes, self.side, self.side)

    def plane_names(self) -> list[str]:
        return [*self.piece_plane_names(), "legal placement", "challenge possible",
                "give only", "to act", "seat"]

    def _rc(self, x: float, y: float) -> tuple[int, int] | None:
        step = 0.5
        half = self.game.radius
        c = round(x / step) + half
        r = round(y / step) + half
        if 0 <= r < self.side and 0 <= c < self.side:
            return r, c
        return None

    def _lattice_rc(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Row and column of each action-lattice point (-1 off the planes), computed once."""
        if not hasattr(self, "_rc_table"):
            rows, cols = [], []
            for x, y in self.game.lattice:
                rc = self._rc(x, y)
                rows.append(-1 if rc is None else rc[0])
                cols.append(-1 if rc is None else rc[1])
            self._rc_table = (np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64))
        return self._rc_table

    def observe(self, view: View) -> tuple[Tensor, Mask]:
        """``encode`` and the mask in one pass over the legal placements (no move objects:
        a mid-game position has thousands of legal moves, twelve gives per placement)."""
        from fourfold.games.placement.giving import available_gives

        game = self.game
        state = view.observation
        out = self._pieces(view)
        mask = np.zeros(game.num_actions, dtype=np.int8)
        if view.player is None or view.player not in game.view_actors(view):
            return out, mask
        k = self.kinds
        gives = np.array(available_gives(state.supply), dtype=np.int64)
        nowhere = len(game.lattice)
        if state.hand is None:
            mask[nowhere * (k + 1) + gives] = 1
        else:
            # the rules' own list of legal placements (cached per position by the game)
            placements = game._placements(state)
            xy = np.array([p for p, _ in placements], dtype=np.float64).reshape(-1, 2)
            # lattice point (x, y) = ((i - r) * 0.5, (j - r) * 0.5) has index j * side + i
            ij = np.rint(xy / 0.5).astype(np.int64) + game.radius
            index = ij[:, 1] * game.side + ij[:, 0]
            wins = np.array([w for _, w in placements], dtype=bool)
            if len(gives) == 0:
                wins[:] = True
            mask[index[wins] * (k + 1) + k] = 1
            rest = index[~wins]
            mask[(rest[:, None] * (k + 1) + gives[None, :]).ravel()] = 1
            rows, cols = self._lattice_rc()
            on = rows[index] >= 0
            out[self.o_place, rows[index][on], cols[index][on]] = 1.0
            if state.pieces:
                mask[-1] = 1
                out[self.o_place + 1] = 1.0
        out[self.o_place + 3] = 1.0
        return out, mask

    def encode(self, view: View) -> Tensor:
        return self.observe(view)[0]

    def _pieces(self, view: View) -> Tensor:
        """Every plane but the legal placements, the challenge and "to act"."""
        game = self.game
        state = view.observation
        out = np.zeros(self.shape, dtype=np.float32)
        for x, y, kind in state.pieces:
            rc = self._rc(x, y)
            if rc is not None:
                out[kind, rc[0], rc[1]] = 1.0
                out[self.o_attr:self.o_hand, rc[0], rc[1]] = self.attr_table[:, kind]
        if state.hand is not None:
            out[self.o_hand + state.hand] = 1.0
        supply = np.asarray(state.supply, dtype=np.float32) / self.counts
        out[self.o_supply:self.o_place] = supply[:, None, None]
        if state.hand is None and game.outcome(state) is None:
            out[self.o_place + 2] = 1.0
        if view.player:
            out[self.o_place + 4] = float(view.player)
        return out


# -- sliding games: Dao and Ice Dao --------------------------------------------------------


class DaoEncoder(Encoder):
    """Classic Dao, from the viewer's side: its pieces, the opponent's, the empty
    squares, how often the position occurred before (once, twice), whether the viewer
    acts, and the plies played as a fraction of the length cap (0 without one)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.size = game.board.size

    @property
    def shape(self) -> tuple[int, ...]:
        return (7, self.size, self.size)

    def plane_names(self) -> list[str]:
        return ["mine", "theirs", "empty", "seen before", "seen twice before", "to act",
                "plies / cap"]

    def encode(self, view: View) -> Tensor:
        game = self.game
        state = view.observation
        me = 0 if view.player is None else view.player
        out = np.zeros(self.shape, dtype=np.float32)
        flat = out.reshape(7, -1)
        for sq, owner in enumerate(state.board):
            flat[2 if owner is None else (0 if owner == me else 1), sq] = 1.0
        _common_sliding(game, view, state, out[3:])
        return out


class IceDaoEncoder(Encoder):
    """Ice Dao, from the viewer's side: for each size, the viewer's and the opponent's
    pieces (covered or not), the top pieces by owner and size, stack heights (one-hot
    1, 2, 3), how often the position occurred before, whether the viewer acts and the
    plies played as a fraction of the length cap."""

    SIZES = ("small", "medium", "large")

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.size = game.board.size

    @property
    def shape(self) -> tuple[int, ...]:
        return (19, self.size, self.size)

    def plane_names(self) -> list[str]:
        return (
            [f"mine {s}" for s in self.SIZES] + [f"theirs {s}" for s in self.SIZES]
            + [f"top mine {s}" for s in self.SIZES] + [f"top theirs {s}" for s in self.SIZES]
            + ["height 1", "height 2", "height 3", "seen before", "seen twice before",
               "to act", "plies / cap"]
        )

    def encode(self, view: View) -> Tensor:
        game = self.game
        state = view.observation
        me = 0 if view.player is None else view.player
        out = np.zeros(self.shape, dtype=np.float32)
        flat = out.reshape(19, -1)
        for sq, stack in enumerate(state.board):
            for piece in stack:
                side = 0 if piece // 3 == me else 1
                flat[side * 3 + piece % 3, sq] = 1.0
            if stack:
                top = stack[-1]
                flat[6 + (0 if top // 3 == me else 1) * 3 + top % 3, sq] = 1.0
                flat[11 + len(stack), sq] = 1.0
        _common_sliding(game, view, state, out[15:])
        return out


def _common_sliding(game: Any, view: View, state: Any, out: Tensor) -> None:
    """Repetition (2 planes), to act, plies over the cap: the last four planes."""
    seen = min(state.repetitions - 1, 2)
    if seen >= 1:
        out[0] = 1.0
    if seen >= 2:
        out[1] = 1.0
    if view.player is not None and view.player in game.view_actors(view):
        out[2] = 1.0
    if game.max_plies:
        out[3] = min(state.plies / game.max_plies, 1.0)


# -- Quatrefoil: cards, tokens and signals ----------------------------------------------------

HISTORY = 8  # arrangements (with their signals) and actions kept in the observation


class QuatrefoilEncoder(Encoder):
    """Quatrefoil: a flat vector of what one seat knows (docs/envs.md lists each block).

    Cards shown face down to the viewer are encoded as "unknown", never as a value.
    """

    def __init__(self, game: Any, max_steps: int = 100) -> None:
        from fourfold.games.quatrefoil.arrangement import NUM_ACTIONS

        super().__init__(game)
        self.max_steps = max_steps
        self.num_actions = NUM_ACTIONS
        self.blocks: list[tuple[str, int]] = [
            ("viewer seat", 4),
            ("colour card of each seat (5 tokens + unknown)", 4 * 6),
            ("position card of each seat (4 corners + unknown)", 4 * 5),
            ("north card (5 tokens + unknown)", 6),
            ("solution, per slot (5 tokens + unknown)", 5 * 6),
            ("arrangement now, per slot", 5 * 5),
            ("start arrangement, per slot", 5 * 5),
            (f"signals of the last {HISTORY} arrangements (4 seats + present)", HISTORY * 5),
            (f"last {HISTORY} actions (11 actions + 4 seats)", HISTORY * (NUM_ACTIONS + 4)),
            ("seat to act (4) or none", 5),
            ("actions so far / cap", 1),
        ]
        self.size = sum(n for _, n in self.blocks)

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.size,)

    def plane_names(self) -> list[str]:
        return [name for name, _ in self.blocks]

    def encode(self, view: View) -> Tensor:
        obs = view.observation
        out = np.zeros(self.size, dtype=np.float32)
        i = 0

        def one_hot(value: int | None, width: int) -> None:
            nonlocal i
            out[i + (width - 1 if value is None else value)] = 1.0
            i += width

        if view.player is not None:
            out[view.player] = 1.0
        i += 4
        for s in range(4):
            one_hot(obs.colour_cards[s], 6)
        for s in range(4):
            one_hot(obs.position_cards[s], 5)
        one_hot(obs.north, 6)
        for slot in range(5):
            one_hot(None if obs.solution is None else obs.solution[slot], 6)
        for arrangement in (obs.arrangement, obs.start):
            for slot in range(5):
                out[i + arrangement[slot]] = 1.0
                i += 5
        signals = obs.signals or ()
        for back in range(HISTORY):
            at = len(signals) - 1 - back
            if at >= 0:
                out[i:i + 4] = signals[at]
                out[i + 4] = 1.0
            i += 5
        width = self.num_actions + 4
        for back in range(HISTORY):
            at = len(obs.history) - 1 - back
            if at >= 0:
                seat, action = obs.history[at]
                out[i + action] = 1.0
                out[i + self.num_actions + seat] = 1.0
            i += width
        actors = self.game.view_actors(view)
        one_hot(actors[0] if len(actors) == 1 else None, 5)
        out[i] = min(len(obs.history) / self.max_steps, 1.0)
        return out


# -- the compiled fast path ----------------------------------------------------------------------


class CompiledEncoder(Encoder):
    """A readable encoder's tensor and the legal mask, written by the compiled kernel.

    For the games with a kernel (Quarto, Folio's grids, Dao, Ice Dao): the view's position
    is loaded into the kernel's arrays (``fourfold.kernels``, as the bots do) and
    ``fourfold.envs.view_kernels`` writes the very tensor of ``inner`` (the tests compare
    them position by position) and the mask, in a few microseconds instead of the
    readable encoder's and rules' hundreds.
    """

    def __init__(self, game: Game[Any, Any], inner: Encoder) -> None:
        from fourfold.envs import view_kernels
        from fourfold.envs.vector import family_for
        from fourfold.kernels import kernel_engine

        super().__init__(game)
        self.inner = inner
        engine = kernel_engine(game)
        if engine is None:  # invariant: compiled_encoder_for checks this first
            raise ConfigurationError(f"no kernel for {game.info.label()}")
        self.engine: Any = engine
        family = family_for(game)
        self.t, self.ot = family.t, family.ot
        self.h = np.zeros((4, 20), dtype=np.int64)
        self.buf = np.zeros(family.width, dtype=np.int64)
        kind = type(engine).__name__
        self.placement = kind == "PlacementEngine"
        self.dao = kind == "DaoEngine"
        self.key_memo: dict[str, int] = {}  # Dao: kernel key of each reference position key
        self.fn = {"PlacementEngine": view_kernels.pl_view, "DaoEngine": view_kernels.dao_view,
                   "IceDaoEngine": view_kernels.ice_view}[kind]
        self.no_keys = np.zeros(1, dtype=np.int64)
        if self.placement:
            tables = engine.tables  # type: ignore[attr-defined]
            self.cell_x = [int(v) for v in tables.cell_x]
            self.cell_y = [int(v) for v in tables.cell_y]
            self.neighbours = [int(v) for v in tables.neighbours]

    @property
    def shape(self) -> tuple[int, ...]:
        return self.inner.shape

    def plane_names(self) -> list[str]:
        return self.inner.plane_names()

    def _placement_row(self, state: Any) -> npt.NDArray[np.int64]:
        """The kernel row ``board | supply | st`` of a placement position, built with
        Python integers (``PlacementEngine.load`` without its NumPy scalar arithmetic and
        the hash, which the observation does not read)."""
        from fourfold.games.placement import kernel as pk

        geometry = self.game.geometry  # type: ignore[attr-defined]
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

    def _dao_row(self, state: Any) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """``DaoEngine.load`` with each history key converted once (a position's whole
        history is loaded every step; converting it was most of the AEC env's time)."""
        from fourfold.games.dao import kernel as dk
        from fourfold.games.dao.kernel_engine import key_from_text

        engine = self.engine
        memo = self.key_memo
        if len(memo) > 200_000:
            memo.clear()
        history = state.history[-(dk.MAX_HISTORY // 2):]
        for text in history:
            if text not in memo:
                memo[text] = key_from_text(text)
        st = engine.st
        st[:] = 0
        st[dk.S_X] = sum(1 << i for i, p in enumerate(state.board) if p == 0)
        st[dk.S_O] = sum(1 << i for i, p in enumerate(state.board) if p == 1)
        st[dk.S_SIDE] = state.to_play
        st[dk.S_PLIES] = state.plies
        engine.keys[:len(history)] = [memo[text] for text in history]
        st[dk.S_KEYS] = len(history)
        engine.load_outcome(self.game.outcome(state))
        return st, engine.keys

    def observe(self, view: View) -> tuple[Tensor, Mask]:
        if self.placement:
            x = self._placement_row(view.observation)
            keys = self.no_keys
        elif self.dao:
            x, keys = self._dao_row(view.observation)
        else:
            engine = self.engine
            engine.load(view.observation)
            x, keys = engine.st, engine.keys
        out = np.empty(self.shape, dtype=np.float32)
        mask = np.empty(self.game.num_actions, dtype=np.int8)
        viewer = -1 if view.player is None or view.declared is not None else view.player
        self.fn(self.t, self.ot, x, self.h, keys, self.buf, viewer, out.reshape(-1), mask)
        if view.declared is not None and view.player is not None:  # a declared ending
            out = self.inner.encode(view)
        return out, mask

    def encode(self, view: View) -> Tensor:
        return self.observe(view)[0]


def _signed(bits: int) -> int:
    """A 64-bit pattern as the int64 holding it."""
    bits &= (1 << 64) - 1
    return bits - (1 << 64) if bits >> 63 else bits


def compiled_encoder_for(game: Game[Any, Any], max_steps: int = 100) -> Encoder:
    """``encoder_for``, compiled where the game has a kernel (same tensors, and a mask)."""
    from fourfold.kernels import kernel_engine

    inner = encoder_for(game, max_steps)
    if game.info.spec.perfect_information and kernel_engine(game) is not None:
        return CompiledEncoder(game, inner)
    return inner


def encoder_for(game: Game[Any, Any], max_steps: int = 100) -> Encoder:
    """The encoder of a configured game's family (``max_steps``: Quatrefoil's cap, which
    scales its "actions so far" feature)."""
    from fourfold.games.dao.game import DaoGame
    from fourfold.games.folio.freeform.game import FreeformGame
    from fourfold.games.icedao.game import IceDaoGame
    from fourfold.games.placement.game import PlacementGame
    from fourfold.games.quatrefoil.game import QuatrefoilGame

    if isinstance(game, PlacementGame):
        return PlacementEncoder(game)
    if isinstance(game, FreeformGame):
        return FreeformEncoder(game)
    if isinstance(game, DaoGame):
        return DaoEncoder(game)
    if isinstance(game, IceDaoGame):
        return IceDaoEncoder(game)
    if isinstance(game, QuatrefoilGame):
        return QuatrefoilEncoder(game, max_steps)
    raise ConfigurationError(f"no observation encoder for {game.info.label()}")
