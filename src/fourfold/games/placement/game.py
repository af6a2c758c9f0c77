"""The placement rules shared by Folio's grid variants and Quarto.

The player to move places the piece the opponent chose for them, then gives
the opponent one of the remaining kinds; the game opens with a give by the
second player. A placement completing a line that the piece set's rule
accepts wins; with every piece placed and no such line, the game is drawn.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations_with_replacement
from typing import TypeVar

from fourfold.core.errors import NotationError, checked_action, read_part
from fourfold.core.game import PerfectInformation
from fourfold.core.outcome import Outcome
from fourfold.core.spec import GameInfo
from fourfold.games.placement import giving
from fourfold.games.placement.geometry import Cell, Geometry
from fourfold.games.placement.lines import lines_through, winning_line
from fourfold.games.placement.pieces import PieceSet
from fourfold.games.placement.state import PlacementState, Ply

EMPTY = "-"
#: at most this many moves (and their notations) are kept per game: no-grid boards are
#: unbounded
MOVES_KEPT = 1 << 16
K = TypeVar("K")
V = TypeVar("V")


class _Kept(dict[K, V]):
    """``make(key)`` for each key, made once and kept (up to ``MOVES_KEPT`` keys)."""

    def __init__(self, make: Callable[[K], V]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: K) -> V:
        value = self.make(key)
        if len(self) < MOVES_KEPT:
            self[key] = value
        return value


class PlacementGame(PerfectInformation[PlacementState, Ply]):
    """A placement game on a geometry with a piece set."""

    def __init__(self, info: GameInfo, geometry: Geometry, pieces: PieceSet) -> None:
        super().__init__(info)
        self.geometry = geometry
        self.pieces = pieces
        # Moves are made and written once each: a server lists every legal move, in
        # notation, in every view it sends, and a move's text never depends on the
        # position. Keyed by ``(place, give)`` (a tuple hashes faster than a Ply).
        self._plies: _Kept[tuple[Cell | None, int | None], Ply] = _Kept(
            lambda key: Ply(*key))
        self._move_text: _Kept[tuple[Cell | None, int | None], str] = _Kept(self._write)
        # the lines through each cell that the geometry can fill (a 4x4 board has 2 to
        # 4 of the 16 lines of four through a cell)
        self._lines_at: _Kept[Cell, tuple[tuple[Cell, ...], ...]] = _Kept(self._fitting)

    # -- rules --------------------------------------------------------------------------
    def initial_state(self, seed: int | None = None) -> PlacementState:
        return PlacementState(board=(), hand=None, supply=self.pieces.counts)

    def outcome(self, state: PlacementState) -> Outcome | None:
        if state.line is not None:
            first, last = (self.geometry.format_cell(c) for c in (state.line[0], state.line[-1]))
            winner = 0 if state.placed % 2 == 1 else 1
            return Outcome.win(winner, f"line of four from {first} to {last}: {state.line_reason}")
        return giving.ALL_PLACED if state.placed == self.pieces.total else None

    def to_move(self, state: PlacementState) -> int | None:
        if self.outcome(state) is not None:
            return None
        return giving.player_to_act(state.hand, state.placed)

    def could_still_win(self, state: PlacementState, player: int) -> bool:
        """Whether some line could still be completed with the pieces not yet placed.

        Cautious on purpose: it does not ask which player would place the last piece of
        the line, so it answers ``False`` only when no line can be won by anyone.
        """
        if self.outcome(state) is not None:
            return False
        left = list(state.supply)
        if state.hand is not None:
            left[state.hand] += 1
        board = state.pieces
        occupied = state.occupied
        cells = set(occupied) | set(self.geometry.placeable(occupied))
        seen: set[tuple[Cell, ...]] = set()
        for cell in cells:
            for line in lines_through(cell):
                if line in seen:
                    continue
                seen.add(line)
                empty = [c for c in line if c not in board]
                if self.geometry.why_unreachable(occupied | frozenset(empty)) is not None:
                    continue
                placed = [board[c] for c in line if c in board]
                if self._fillable(placed, len(empty), left):
                    return True
        return False

    def _fillable(self, placed: list[int], empty: int, left: list[int]) -> bool:
        kinds = [k for k, n in enumerate(left) if n > 0]
        for extra in combinations_with_replacement(kinds, empty):
            if all(extra.count(k) <= left[k] for k in set(extra)) and (
                    self.pieces.winning_reason([*placed, *extra]) is not None):
                return True
        return False

    def _wins(self, state: PlacementState, cell: Cell) -> tuple[tuple[Cell, ...], str] | None:
        assert state.hand is not None
        return winning_line(state.pieces, cell, self.pieces.winning_reason, state.hand,
                            self._lines_at[cell])

    def _fitting(self, cell: Cell) -> tuple[tuple[Cell, ...], ...]:
        """The lines through ``cell`` whose every cell the geometry can hold."""
        can_hold = self.geometry.can_hold
        return tuple(line for line in lines_through(cell) if all(map(can_hold, line)))

    def legal_moves(self, state: PlacementState) -> list[Ply]:
        if self.outcome(state) is not None:
            return []
        gives = giving.available_gives(state.supply)
        plies = self._plies
        if state.hand is None:
            return [plies[None, k] for k in gives]
        moves: list[Ply] = []
        for cell in self.geometry.placeable(state.occupied):
            if not gives or self._wins(state, cell) is not None:
                moves.append(plies[cell, None])
            else:
                moves.extend([plies[cell, k] for k in gives])
        return moves

    def illegal_reason(self, state: PlacementState, move: Ply) -> str | None:
        if state.hand is None:
            return giving.opening_reason(self.pieces, state.supply, move.place, move.give)
        if move.place is None:
            return giving.unplaced_reason(self.pieces, state.hand)
        reason = self.geometry.why_not(move.place, state.occupied)
        if reason is not None:
            return reason
        return giving.after_placing_reason(
            self.pieces,
            state.supply,
            f"on {self.geometry.format_cell(move.place)}",
            self._wins(state, move.place) is not None,
            move.give,
        )

    def next_state(self, state: PlacementState, move: Ply) -> PlacementState:
        supply = giving.supply_after(state.supply, move.give)
        if move.place is None:
            return PlacementState(state.board, move.give, supply)
        assert state.hand is not None
        won = self._wins(state, move.place)
        board = tuple(sorted((*state.board, (move.place, state.hand)), key=self._cell_key))
        return PlacementState(
            board,
            move.give,
            supply,
            won[0] if won else None,
            won[1] if won else None,
        )

    def _cell_key(self, item: tuple[Cell, int]) -> tuple[int, int]:
        return item[0][1], item[0][0]

    # -- dense actions ---------------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        return (self.geometry.num_cells + 1) * (self.pieces.num_kinds + 1)

    def encode(self, move: Ply) -> int:
        place = self.geometry.num_cells if move.place is None else self.geometry.index(move.place)
        return giving.give_action(place, move.give, self.pieces.num_kinds)

    def decode(self, action: int) -> Ply:
        k = self.pieces.num_kinds
        place, give = divmod(checked_action(action, self.num_actions), k + 1)
        return Ply(
            None if place == self.geometry.num_cells else self.geometry.cell(place),
            None if give == k else give,
        )

    # -- notation -------------------------------------------------------------------------
    def parse_move(self, state: PlacementState, text: str) -> Ply:
        tokens = text.split()
        example = self._example(state)
        if not tokens:
            raise NotationError("move", text, f"empty move; write for example {example!r}")
        if len(tokens) > 2:
            raise NotationError("move", text, f"too many parts; write for example {example!r}")
        if state.hand is None and self.outcome(state) is None:
            if len(tokens) != 1:
                raise NotationError(
                    "move", text, f"the first ply only gives a piece, e.g. {example!r}"
                )
            return Ply(None, self._piece(text, tokens[0]))
        return Ply(
            self._cell(text, tokens[0]),
            self._piece(text, tokens[1]) if len(tokens) == 2 else None,
        )

    def _example(self, state: PlacementState) -> str:
        first = self.pieces.name(0)
        if state.hand is None:
            return first
        cells = self.geometry.placeable(state.occupied)
        cell = self.geometry.format_cell(cells[0]) if cells else "a1"
        return f"{cell} {first}"

    def _cell(self, text: str, token: str) -> Cell:
        return read_part(self.geometry.parse_cell, text, token, "cell", text.find(token))

    def _piece(self, text: str, token: str) -> int:
        return read_part(self.pieces.parse, text, token, "piece", text.rfind(token))

    def format_move(self, state: PlacementState, move: Ply) -> str:
        return self._move_text[move.place, move.give]

    def _write(self, key: tuple[Cell | None, int | None]) -> str:
        place, give = key
        parts = []
        if place is not None:
            parts.append(self.geometry.format_cell(place))
        if give is not None:
            parts.append(self.pieces.name(give))
        return " ".join(parts)

    # -- position strings -------------------------------------------------------------------
    # ``<placements> <hand>``: placements are ``cell=piece`` joined by ``;`` in cell order
    # (``-`` when the board is empty); hand is the piece to place next (``-`` for none).
    # Who is to move follows from these, so it is not written.

    def format_position(self, state: PlacementState) -> str:
        placements = ";".join(
            f"{self.geometry.format_cell(c)}={self.pieces.name(k)}" for c, k in state.board
        )
        hand = EMPTY if state.hand is None else self.pieces.name(state.hand)
        return f"{placements or EMPTY} {hand}"

    def parse_position(self, text: str) -> PlacementState:
        def fail(reason: str, at: str | None = None) -> NotationError:
            index = text.find(at) if at else None
            return NotationError("position", text, reason, index if index != -1 else None)

        fields = text.split()
        if len(fields) != 2:
            raise fail("expected two fields, the placements and the piece in hand "
                       f"(e.g. {self._position_example()!r})")
        placements, hand_text = fields
        counts = list(self.pieces.counts)
        board: dict[Cell, int] = {}
        if placements != EMPTY:
            for item in placements.split(";"):
                cell_text, sep, piece_text = item.partition("=")
                if not sep:
                    raise fail(f"placement {item!r} is not of the form cell=piece", item)
                try:
                    cell = self.geometry.parse_cell(cell_text)
                    kind = self.pieces.parse(piece_text)
                except ValueError as exc:
                    raise fail(f"in {item!r}: {exc}", item) from None
                if cell in board:
                    raise fail(f"two pieces on {cell_text}", item)
                board[cell] = kind
                counts[kind] -= 1
                if counts[kind] < 0:
                    raise fail(f"more {self.pieces.name(kind)} placed than the set holds", item)
        hand = None
        if hand_text != EMPTY:
            try:
                hand = self.pieces.parse(hand_text)
            except ValueError as exc:
                raise fail(f"piece in hand: {exc}", hand_text) from None
            counts[hand] -= 1
            if counts[hand] < 0:
                raise fail(
                    f"the {self.pieces.name(hand)} in hand is not left in the set", hand_text
                )
        reason = self.geometry.why_unreachable(frozenset(board))
        if reason:
            raise fail(reason)
        line = None
        for cell in sorted(board, key=lambda c: (c[1], c[0])):
            line = winning_line(board, cell, self.pieces.winning_reason)
            if line:
                break
        over = line is not None or len(board) == self.pieces.total
        if over and hand is not None:
            raise fail("the game is over, so no piece can be in hand")
        if not over and hand is None and board:
            raise fail("a piece must be in hand: only the start, before the first give, has none")
        ordered = tuple(sorted(board.items(), key=lambda item: (item[0][1], item[0][0])))
        return PlacementState(
            ordered, hand, tuple(counts), line[0] if line else None, line[1] if line else None
        )

    def _position_example(self) -> str:
        cell = self.geometry.placeable(frozenset())[0]
        return f"{self.geometry.format_cell(cell)}={self.pieces.name(0)} {self.pieces.name(1)}"

