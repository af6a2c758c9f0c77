"""The presenter of the sliding games: Ice Dao and classic Dao.

Each square shows its contents: in Ice Dao the stack from the bottom up
(``GlBs`` is a small blue on a large green), in Dao ``X`` or ``O``. The last
move is marked without colour: ``[..]`` where the piece stopped and ``(..)``
the square it left; a winning line or formation is written ``*..*``. File
letters and rank numbers run along every edge. Below the board: what the marks
mean, how often the position has occurred when it repeats, and the length cap
when one is set. (The ``draw`` offer of the terminal is in
``fourfold.cli.play.sliding``.)
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from rich.text import Text

from fourfold.core.game import Game
from fourfold.games.dao.game import DaoGame
from fourfold.games.dao.state import SIDE_LETTERS, DaoState
from fourfold.games.icedao.game import IceDaoGame
from fourfold.games.icedao.pieces import colour, describe, stack_name
from fourfold.games.icedao.state import IceDaoState
from fourfold.games.sliding.geometry import Square, SquareBoard
from fourfold.games.sliding.moves import Pass, Slide
from fourfold.render.presenter import WIDTH, Presenter
from fourfold.render.style import join_lines, to_string

EMPTY = "·"
ARRIVED = ("[", "]")
LEFT = ("(", ")")
LINE = ("*", "*")
PLAIN = (" ", " ")

SIDE_STYLES = ("bold blue", "bold green")  # Ice Dao Blue, Green
DAO_STYLES = ("bold yellow", "bold magenta")  # Dao X, O
MARK_STYLE = "reverse"
LINE_STYLE = "underline"
EMPTY_STYLE = "dim"
LABEL_STYLE = "dim"

SlidingGame = IceDaoGame | DaoGame
SlidingState = IceDaoState | DaoState


def _sliding(game: Game[Any, Any]) -> SlidingGame:
    if not isinstance(game, (IceDaoGame, DaoGame)):
        raise TypeError(f"the Ice Dao presenter cannot show {game.name}")
    return game


def _winning_squares(state: SlidingState) -> tuple[Square, ...]:
    if isinstance(state, IceDaoState):
        return state.line or ()
    return state.formation or ()


def _square_text(game: SlidingGame, state: Any, square: Square) -> list[tuple[str, str]]:
    """The pieces on a square as (letters, style) parts, bottom to top; empty: ``[]``."""
    if isinstance(game, IceDaoGame):
        return [(stack_name((p,)), SIDE_STYLES[colour(p)]) for p in state.board[square]]
    owner = state.board[square]
    return [] if owner is None else [(SIDE_LETTERS[owner], DAO_STYLES[owner])]


def _cell_width(game: SlidingGame) -> int:
    return 6 if isinstance(game, IceDaoGame) else 1  # a stack of three, or one letter


def board_lines(game: SlidingGame, state: SlidingState, last_move: Any | None) -> list[Text]:
    """The board, top rank first, with file letters and rank numbers on every edge."""
    board: SquareBoard = game.board
    width = _cell_width(game)
    origin = last_move.origin if isinstance(last_move, Slide) else None
    arrival = state.arrival if last_move is not None else None
    winning = set(_winning_squares(state))

    def edge() -> Text:
        text = Text("  ")
        for x in range(board.size):
            text.append(" " + board.files[x].center(width) + " ", LABEL_STYLE)
        text.rstrip()
        return text

    def cell(square: Square) -> Text:
        parts = _square_text(game, state, square)
        if square == arrival:
            marks, extra = ARRIVED, " " + MARK_STYLE
        elif square == origin:
            marks, extra = LEFT, " " + MARK_STYLE
        elif square in winning:
            marks, extra = LINE, " " + LINE_STYLE
        else:
            marks, extra = PLAIN, ""
        if not parts:
            parts = [(EMPTY, EMPTY_STYLE)]
        pad = width - sum(len(letters) for letters, _ in parts)
        text = Text(" " * (pad // 2) + marks[0])
        for letters, style in parts:
            text.append(letters, style + extra)
        text.append(marks[1] + " " * (pad - pad // 2))
        return text

    lines = [edge()]
    for y in range(board.size - 1, -1, -1):
        row = Text()
        row.append(f"{y + 1} ", LABEL_STYLE)
        for x in range(board.size):
            row.append_text(cell(board.square(x, y)))
        row.append(f" {y + 1}", LABEL_STYLE)
        lines.append(row)
    lines.append(edge())
    return lines


def legend(game: SlidingGame, state: SlidingState, last_move: Any | None) -> list[str]:
    """What the marks and letters mean, then history notes (repetition, length cap)."""
    parts = []
    if isinstance(last_move, Slide) and state.arrival is not None:
        parts.append(f"{ARRIVED[0]} {ARRIVED[1]} moved here")
        parts.append(f"{LEFT[0]} {LEFT[1]} moved from")
    if isinstance(last_move, Pass):
        parts.append("last move: pass")
    if _winning_squares(state):
        parts.append(f"{LINE[0]} {LINE[1]} winning " + (
            "line" if isinstance(game, IceDaoGame) else "formation"))
    lines = textwrap.wrap("   ".join(parts), WIDTH, break_on_hyphens=False)
    if isinstance(game, IceDaoGame):
        lines.append("B Blue, G Green; s small, m medium, l large; stacks bottom to top")
    side = game.player_name(state.to_play)
    if state.repetitions > 1:
        lines.append(
            f"This position, with {side} to move, has now occurred {state.repetitions} times;"
            + (" a third time draws." if state.repetitions == 2 else "")
        )
    if game.max_plies is not None:
        lines.append(f"Ply {state.plies} of at most {game.max_plies} (length cap).")
    return lines


def _mover_letter(game: SlidingGame, player: int) -> str:
    return "BG"[player] if isinstance(game, IceDaoGame) else SIDE_LETTERS[player]


class SlidingPresenter(Presenter):
    """Boards, turns and move lists for Ice Dao and classic Dao."""

    def draw(self, game: Game[Any, Any], state: Any, last_move: Any | None, *,
             colour: bool = False, viewer: int | None = None) -> str:
        g = _sliding(game)
        lines = board_lines(g, state, last_move)
        lines.extend(Text(line, "dim") for line in legend(g, state, last_move))
        return to_string(join_lines(lines), colour)

    def describe_turn(self, game: Game[Any, Any], state: Any) -> str:
        g = _sliding(game)
        player = g.to_move(state)
        if player is None:
            return "The game is over."
        moves: Sequence[Any] = g.legal_moves(state)
        example = g.format_move(state, moves[0])
        letter = _mover_letter(g, player)
        if isinstance(g, IceDaoGame):
            task = f"slide one of your top pieces ({letter}) as far as it goes, e.g. {example}"
            return task + (", or pass" if Pass() in moves else "")
        return f"slide one of your pieces ({letter}) as far as it goes, e.g. {example}"

    def explain_move(self, game: Game[Any, Any], before: Any, move: Any) -> str:
        g = _sliding(game)
        if isinstance(move, Pass):
            return "passed (a zero-square move)"
        if not isinstance(move, Slide):
            return ""
        target = g.stop(before, move.origin, move.direction)
        name = g.board.name
        way = f"{move.direction_name} from {name(move.origin)} to {name(target)}"
        if isinstance(g, DaoGame):
            return f"slid {way}"
        stack = before.board[move.origin]
        words = f"the {describe(stack[-1])} slid {way}"
        if before.board[target]:
            words += f", onto the {describe(before.board[target][-1])}"
        if len(stack) > 1:
            words += f", uncovering the {describe(stack[-2])}"
        return words

    def move_help(self, game: Game[Any, Any], state: Any) -> str:
        g = _sliding(game)
        last = g.board.name(g.board.num_squares - 1)
        moves = game.legal_moves(state)
        example = game.format_move(state, moves[0]) if moves else "a1-a3"
        lines = [
            f"The square of your piece, a hyphen, and the square where it stops: {example}",
            "A piece goes as far as it can: only the square where it really stops is accepted.",
            f"Squares: a1 (bottom left) to {last}.",
        ]
        if isinstance(g, IceDaoGame):
            lines[1:1] = [
                "Only the top piece of a stack moves.",
                "pass is the zero-square move (when one of your top pieces is blocked somewhere).",
            ]
        else:
            lines.insert(1, "Every move goes at least one square: there is no pass.")
        lines.append("Type 'draw' to offer a draw by agreement.")
        return "\n".join(lines)

    def list_moves(self, game: Game[Any, Any], state: Any) -> list[str]:
        g = _sliding(game)
        moves = g.legal_moves(state)
        if not moves:
            return ["No legal moves: the game is over."]
        by_origin: dict[Square, list[str]] = {}
        passing = False
        for m in moves:
            if isinstance(m, Slide):
                by_origin.setdefault(m.origin, []).append(game.format_move(state, m))
            else:
                passing = True
        lines = [f"{len(moves)} legal moves:"]
        for origin, texts in by_origin.items():
            pieces = "".join(t for t, _ in _square_text(g, state, origin)[-1:])
            lines.extend(textwrap.wrap(f"{g.board.name(origin)} {pieces}: {' '.join(texts)}",
                                       WIDTH, initial_indent="  ", subsequent_indent="      "))
        if passing:
            lines.append("  pass (one of your top pieces is blocked in some direction)")
        return lines


#: the ``presenter`` part of Ice Dao's and Dao's extension bundles
PRESENTER = SlidingPresenter()
