"""The presenter of the placement games: Folio (standard, fixed-grid, no-grid) and Quarto.

Each game makes one with the colours of its pieces (``games/folio/text.py``,
``games/quarto/text.py``); ``PRESENTER`` serves a placement game without colours.
Below the board it shows the piece in hand and the pieces left to give (with
a count for kinds that still have two copies); it explains turns in the
give-then-place rhythm of RULES.md §1 and lists legal moves grouped by the
pieces each cell allows.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text

from fourfold.core.game import Game
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.geometry import Cell
from fourfold.games.placement.state import PlacementState, Ply
from fourfold.games.placement.text_board import (
    PieceStyle,
    board_lines,
    legend,
    plain_style,
)
from fourfold.render.presenter import WIDTH, Presenter, wrap_words
from fourfold.render.style import join_lines, to_string


def _placement(game: Game[Any, Any]) -> PlacementGame:
    if not isinstance(game, PlacementGame):
        raise TypeError(f"the placement presenter cannot show {game.name}")
    return game


def describe_giving_turn(
    game: Any, state: Any, placing: Callable[[str, str], str]
) -> str:
    """The turn of a give-then-place game (the placement games, Folio freeform): over,
    the first give, else ``placing(other player's name, piece in hand)`` says the rest."""
    player = game.to_move(state)
    if player is None:
        return "The game is over."
    other = game.player_name(1 - player)
    if state.hand is None:
        return f"give {other} their first piece, e.g. {game.pieces.name(0)}"
    return placing(other, f"{game.pieces.name(state.hand)} ({game.pieces.describe(state.hand)})")


def explain_giving(game: Any, before: Any, move: Any, where: str) -> str:
    """``placed the X on c3 and gave Blue the Y``: a give-then-place ply (``where`` is
    the placement's phrase: ``on c3``, ``at 1.0,0.5``)."""
    mover = game.to_move(before)
    parts = []
    if move.place is not None and before.hand is not None:
        parts.append(f"placed the {game.pieces.name(before.hand)} {where}")
    if move.give is not None and mover is not None:
        parts.append(f"gave {game.player_name(1 - mover)} the {game.pieces.name(move.give)}")
    return " and ".join(parts)


def piece_names(game: PlacementGame, supply: Sequence[int]) -> list[str]:
    """Kinds still in ``supply``, with ``×2`` after a kind that has two copies left."""
    return [
        game.pieces.name(k) + (f"×{n}" if n > 1 else "") for k, n in enumerate(supply) if n > 0
    ]


def hand_line(game: PlacementGame, state: PlacementState,
              piece_style: PieceStyle = plain_style) -> Text:
    """Which piece the player to move must place (or who gives the first one)."""
    player = game.to_move(state)
    if player is None:
        return Text("In hand: nothing (the game is over)")
    if state.hand is None:
        return Text(
            f"In hand: nothing yet; {game.player_name(1)} opens by choosing the piece"
            f" {game.player_name(0)} places first"
        )
    name = game.pieces.name(state.hand)
    return Text.assemble(
        "In hand: ",
        (name, piece_style(state.hand)),
        f" ({game.pieces.describe(state.hand)}), for {game.player_name(player)} to place",
    )


def left_lines(game: PlacementGame, state: PlacementState) -> list[Text]:
    """The pieces neither placed nor in hand, wrapped."""
    names = piece_names(game, state.supply)
    if not names:
        return [Text("Pieces left to give: none")]
    label = f"Pieces left to give ({sum(state.supply)}):"
    return [Text(line) for line in wrap_words(label, names)]


class PlacementPresenter(Presenter):
    """Boards, turns and move lists for every ``PlacementGame``, its pieces drawn in
    ``piece_style``."""

    def __init__(self, piece_style: PieceStyle = plain_style) -> None:
        self.piece_style = piece_style

    def draw(self, game: Game[Any, Any], state: Any, last_move: Any | None, *,
             colour: bool = False, viewer: int | None = None) -> str:
        g = _placement(game)
        lines = board_lines(g, state, last_move, self.piece_style)
        lines.extend(Text(line, "dim") for line in legend(g, state, last_move))
        lines.append(Text(""))
        lines.append(hand_line(g, state, self.piece_style))
        lines.extend(left_lines(g, state))
        return to_string(join_lines(lines), colour)

    def describe_turn(self, game: Game[Any, Any], state: Any) -> str:
        g = _placement(game)
        return describe_giving_turn(g, state, lambda other, hand: self._placing(
            g, state, other, hand))

    def _placing(self, game: PlacementGame, state: PlacementState, other: str, hand: str) -> str:
        example = self._example(game, state)
        if not any(state.supply):
            return f"place the {hand}, the last piece (nothing to give), e.g. {example}"
        return f"place the {hand}, then give {other} a piece, e.g. {example}"

    def explain_move(self, game: Game[Any, Any], before: Any, move: Any) -> str:
        g = _placement(game)
        where = "" if move.place is None else f"on {g.geometry.format_cell(move.place)}"
        return explain_giving(g, before, move, where)

    def _example(self, game: PlacementGame, state: PlacementState) -> str:
        moves = game.legal_moves(state)
        giving = [m for m in moves if m.give is not None]
        chosen = (giving or list(moves))[0]
        return game.format_move(state, chosen)

    def move_help(self, game: Game[Any, Any], state: Any) -> str:
        g = _placement(game)
        first, second = g.pieces.name(0), g.pieces.name(1)
        cell = g.geometry.format_cell(g.geometry.placeable(frozenset())[0])
        later = f"{cell} {second}"
        if state.hand is not None and any(state.supply) and g.to_move(state) is not None:
            later = self._example(g, state)  # a move legal now: never a piece already out
        lines = [
            f"The game opens with a give only: {g.player_name(1)} names the piece"
            f" {g.player_name(0)} places first, e.g. {first}",
            f"Later: the cell for the piece in hand, then the piece you give, e.g. {later}",
            f"A placement that wins, or places the last piece, gives nothing: just {cell}",
            f"Cells: {g.geometry.cell_hint}",
            f"Pieces: {g.pieces.hint}",
        ]
        if any(n > 1 for n in g.pieces.counts):
            lines.append("Identical pieces are one kind: name the kind to give either copy.")
        return "\n".join(lines)

    def list_moves(self, game: Game[Any, Any], state: Any) -> list[str]:
        g = _placement(game)
        moves: Sequence[Ply] = g.legal_moves(state)
        if not moves:
            return ["No legal moves: the game is over."]
        if state.hand is None:
            gives = [g.pieces.name(m.give) for m in moves if m.give is not None]
            return wrap_words(f"{len(moves)} legal moves: give any of", gives)
        by_cell: dict[Cell, list[int]] = {}
        only_place: list[Cell] = []
        for m in moves:
            assert m.place is not None
            if m.give is None:
                only_place.append(m.place)
            else:
                by_cell.setdefault(m.place, []).append(m.give)
        groups: dict[tuple[int, ...], list[Cell]] = {}
        for c, kinds in by_cell.items():
            groups.setdefault(tuple(kinds), []).append(c)
        if only_place:
            groups[()] = only_place
        hand = g.pieces.name(state.hand)
        lines = [f"{len(moves)} legal moves: place the {hand}, then give a piece"]
        for group, cells in groups.items():
            where = " ".join(g.geometry.format_cell(c) for c in cells)
            if group:
                what = "give any of " + " ".join(g.pieces.name(k) for k in group)
            elif any(state.supply):
                what = "place only, nothing given (this placement wins)"
            else:
                what = "place only: it is the last piece"
            lines.extend(textwrap.wrap(f"{where}: {what}", WIDTH, initial_indent="  ",
                                       subsequent_indent="      "))
        return lines


#: the presenter of a placement game whose pieces have no colours of their own
PRESENTER = PlacementPresenter()
