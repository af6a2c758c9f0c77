"""The presenter of Folio freeform: pieces on a character plot of the table, with axes.

The plot is a window on the table around the pieces (a square of world units;
two characters across per row down, so units look square). Each piece is its
two-letter name at its position; the last one placed is shown in brackets in
the list below the plot, which also gives every piece's exact coordinates,
since the plot can only place them to the nearest character.

The **assist** (off by default; the play command ``assist on`` / ``assist off``)
says whether a notional grid still fits the pieces and draws one: its outline
and inner lines as dots, the free cell centres as ``o``. It is a help for
people learning the game; with it on, challenges hold no mystery.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from rich.text import Text

from fourfold.core.game import Game
from fourfold.games.folio.freeform import fitting
from fourfold.games.folio.freeform.game import FreeformGame
from fourfold.games.folio.freeform.notation import format_number, format_point
from fourfold.games.folio.freeform.state import FreeformPly, FreeformState
from fourfold.games.folio.freeform.window import window
from fourfold.games.folio.text import folio_style
from fourfold.games.placement.text import describe_giving_turn, explain_giving
from fourfold.render.presenter import Presenter, wrap_words
from fourfold.render.style import join_lines, to_string

ROWS = 21  # plot height in characters; the width is twice this (plus labels)


def example_move(game: FreeformGame, state: FreeformState) -> str:
    """A legal move to show as an example: a place next to the last piece (the first
    of the lattice's legal places nearest it) and a piece still in the supply."""
    moves = [m for m in game.legal_moves(state) if not m.challenge and m.place is not None]
    giving = [m for m in moves if m.give is not None] or moves
    if not giving:
        return "challenge"
    x0, y0 = state.pieces[-1][:2] if state.pieces else (0.0, 0.0)
    best = min(giving, key=lambda m: (math.hypot(m.place[0] - x0, m.place[1] - y0)
                                      if m.place is not None else math.inf))
    return game.format_move(state, best)


def _freeform(game: Game[Any, Any]) -> FreeformGame:
    if not isinstance(game, FreeformGame):
        raise TypeError(f"the freeform presenter cannot show {game.info.label()}")
    return game


def _ticks(start: float, span: float) -> list[float]:
    """Round values to label along an axis of the window."""
    step = 1.0 if span <= 8 else 2.0 if span <= 16 else 5.0
    first = math.ceil(start / step) * step
    values = (first + i * step for i in range(int(span / step) + 1))
    return [v for v in values if v < start + span]


def plot(
    game: FreeformGame, state: FreeformState, grid: fitting.Grid | None = None
) -> list[Text]:
    """The character plot with axes: rows from top to bottom, y labels on the left."""
    rows, cols = ROWS, 2 * ROWS
    x0, y0, span = window(game, state, () if grid is None else (grid,))
    cells: list[list[tuple[str, str]]] = [[(" ", "")] * cols for _ in range(rows)]

    def at(x: float, y: float) -> tuple[int, int] | None:
        col = math.floor((x - x0) / span * cols)
        row = rows - 1 - math.floor((y - y0) / span * rows)
        return (row, col) if 0 <= row < rows and 0 <= col < cols else None

    def put(x: float, y: float, mark: str, style: str = "") -> None:
        spot = at(x, y)
        if spot is not None:
            cells[spot[0]][spot[1]] = (mark, style)

    # axes through the first piece (the table's centre)
    for col in range(cols):
        put(x0 + (col + 0.5) * span / cols, 0.0, "-", "dim")
    for row in range(rows):
        put(0.0, y0 + (row + 0.5) * span / rows, "|", "dim")
    put(0.0, 0.0, "+", "dim")
    if grid is not None:
        corners = [(0, 0), (4, 0), (4, 4), (0, 4), (0, 0)]
        for (u0, v0), (u1, v1) in itertools.pairwise(corners):
            for step in range(4 * cols + 1):
                f = step / (4 * cols)
                put(*grid.point(u0 + (u1 - u0) * f, v0 + (v1 - v0) * f), ".", "cyan")
        taken = set(grid.cells)
        for c in range(4):
            for r in range(4):
                if (c, r) not in taken:
                    put(*grid.centre((c, r)), "o", "cyan")
    for i, (x, y, kind) in enumerate(state.pieces):
        name = game.pieces.name(kind)
        style = folio_style(kind)
        style = f"{style} reverse" if i == len(state.pieces) - 1 else style
        spot = at(x, y)
        if spot is not None:
            row, col = spot
            col = min(col, cols - 2)
            cells[row][col] = (name[0], style)
            cells[row][col + 1] = (name[1], style)
    labels = {}
    for value in _ticks(y0, span):
        spot = at(x0, value)
        if spot is not None:
            labels[spot[0]] = f"{format_number(value):>6} "
    lines = []
    for row in range(rows):
        text = Text(labels.get(row, " " * 7), "dim")
        for mark, style in cells[row]:
            text.append(mark, style)
        lines.append(text)
    ticks = [" "] * (cols + 14)
    for value in _ticks(x0, span):
        spot = at(value, y0)
        if spot is not None:
            label = format_number(value)
            begin = 7 + spot[1] - len(label) // 2
            ticks[begin:begin + len(label)] = list(label)
    lines.append(Text("".join(ticks).rstrip(), "dim"))
    return lines


class FreeformPresenter(Presenter):
    """Plot, turns and moves of Folio freeform, with an optional grid assist."""

    def __init__(self) -> None:
        #: whether ``draw`` says if a grid still fits, and draws it (the terminal's
        #: ``assist`` command switches it)
        self.assist = False

    def draw(self, game: Game[Any, Any], state: Any, last_move: Any | None, *,
             colour: bool = False, viewer: int | None = None) -> str:
        g = _freeform(game)
        grid = g.grid(state) if self.assist else None
        lines = plot(g, state, grid)
        lines.append(Text(""))
        lines.extend(Text(line) for line in self.piece_lines(g, state))
        if self.assist:
            lines.append(Text(self.assist_line(g, state, grid), "cyan"))
        lines.append(Text(self.hand_line(g, state)))
        left = [g.pieces.name(k) + (f"×{n}" if n > 1 else "")
                for k, n in enumerate(state.supply) if n > 0]
        lines.extend(Text(line) for line in wrap_words(
            f"Pieces left to give ({sum(state.supply)}):", left or ["none"]))
        return to_string(join_lines(lines), colour)

    def piece_lines(self, game: FreeformGame, state: FreeformState) -> list[str]:
        if not state.pieces:
            return ["No piece on the table yet; the first goes at 0.0,0.0."]
        words = []
        for i, (x, y, kind) in enumerate(state.pieces):
            word = f"{game.pieces.name(kind)}@{format_point((x, y))}"
            words.append(f"[{word}]" if i == len(state.pieces) - 1 else word)
        h = format_number(game.table.side / 2)
        return wrap_words(f"On the table (-{h}..{h}), in order:", words)

    @staticmethod
    def assist_line(game: FreeformGame, state: FreeformState, grid: fitting.Grid | None) -> str:
        if grid is not None:
            return f"Assist: a grid fits: {grid.describe()}"
        if state.broken is not None:
            return (f"Assist: no grid fits since placement {state.broken}"
                    " (a challenge by the other player wins)")
        return "Assist: no grid fits"

    @staticmethod
    def hand_line(game: FreeformGame, state: FreeformState) -> str:
        player = game.to_move(state)
        if player is None:
            return "In hand: nothing (the game is over)"
        if state.hand is None:
            return (f"In hand: nothing yet; {game.player_name(1)} opens by choosing the piece"
                    f" {game.player_name(0)} places first")
        return (f"In hand: {game.pieces.name(state.hand)} ({game.pieces.describe(state.hand)}),"
                f" for {game.player_name(player)} to place")

    def describe_turn(self, game: Game[Any, Any], state: Any) -> str:
        g = _freeform(game)
        return describe_giving_turn(g, state, lambda other, hand: (
            f"place the {hand} at the centre, 0.0,0.0, and give {other} a piece,"
            f" e.g. {example_move(g, state)}"
            if not state.pieces else
            f"place the {hand} at x,y, then give {other} a piece"
            f" (e.g. {example_move(g, state)}), or type challenge"))

    def explain_move(self, game: Game[Any, Any], before: Any, move: Any) -> str:
        assert isinstance(move, FreeformPly)
        if move.challenge:
            return "challenged: is there a grid that fits every piece?"
        where = "" if move.place is None else f"at {format_point(move.place)}"
        return explain_giving(_freeform(game), before, move, where)

    def move_help(self, game: Game[Any, Any], state: Any) -> str:
        g = _freeform(game)
        h = format_number(g.table.side / 2)
        later = "1.25,-0.5 Gs"
        if state.pieces and state.hand is not None and any(state.supply) \
                and g.to_move(state) is not None:
            later = example_move(g, state)  # a move legal now: never a piece already out
        return "\n".join([
            f"The game opens with a give only: {g.player_name(1)} names the piece"
            f" {g.player_name(0)} places first, e.g. {g.pieces.name(0)}",
            "Later: where to place the piece in hand, x,y in decimals (no spaces), then the"
            f" piece you give, e.g. {later}",
            f"Anywhere on the table (-{h} to {h} on each axis) at least 1.0 from every piece;"
            " the first piece goes at 0.0,0.0.",
            "A placement that wins, or places the last piece, gives nothing: just 1.25,-0.5",
            "Instead of placing you may type challenge: if no 4x4 grid fits the pieces, whoever"
            " broke it first loses; otherwise you lose.",
            f"Pieces: {g.pieces.hint}.  Type 'assist on' to see whether a grid fits, and one.",
        ])

    def list_moves(self, game: Game[Any, Any], state: Any) -> list[str]:
        g = _freeform(game)
        moves = g.legal_moves(state)
        if not moves:
            return ["No legal moves: the game is over."]
        if state.hand is None:
            gives = [g.pieces.name(m.give) for m in moves if m.give is not None]
            return wrap_words(f"{len(moves)} legal moves: give any of", gives)
        places = {m.place for m in moves if m.place is not None}
        wins = sorted({m.place for m in moves if m.place is not None and m.give is None
                       and any(state.supply)})
        lines = [
            f"{len(places)} points of the 0.5 lattice are legal places (any other point at"
            " least 1.0 from every piece on the table is too), each with a give;"
        ]
        if wins:
            lines.extend(wrap_words("winning places (nothing given):",
                                    [format_point(p) for p in wins]))
        if any(m.challenge for m in moves):
            lines.append("or: challenge")
        return lines


#: the ``presenter`` part of the freeform variant's extension bundle
PRESENTER = FreeformPresenter()
