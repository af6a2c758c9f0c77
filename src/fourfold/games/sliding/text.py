"""Text for the sliding games: what Ice Dao and classic Dao share on a terminal.

Each square shows its contents (a game's ``SlidingPresenter.square_text``: in Ice
Dao the stack from the bottom up, in Dao one letter). The last move is marked
without colour: ``[..]`` where the piece stopped and ``(..)`` the square it left; a
winning line or formation is written ``*..*``. File letters and rank numbers run
along every edge. Below the board: what the marks mean, how often the position has
occurred when it repeats, and the length cap when one is set. Each game's presenter
(``games/icedao/text.py``, ``games/dao/text.py``) says what its pieces look like and
how its moves read. (The ``draw`` offer of the terminal is in
``fourfold.games.sliding.terminal``.)
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from rich.text import Text

from fourfold.core.game import Game
from fourfold.games.sliding.game import SlidingGame
from fourfold.games.sliding.geometry import Square, SquareBoard
from fourfold.games.sliding.moves import Pass, Slide
from fourfold.render import marks as board_marks
from fourfold.render.presenter import WIDTH, Presenter
from fourfold.render.style import join_lines, to_string

LEFT = ("(", ")")  # where the last slide started

AnySliding = SlidingGame[Any]


def _sliding(game: Game[Any, Any]) -> AnySliding:
    if not isinstance(game, SlidingGame):
        raise TypeError(f"the sliding presenter cannot show {game.name}")
    return game


class SlidingPresenter(Presenter):
    """Boards, turns and move lists of a sliding game. A game's subclass says what its
    squares show (``square_text``), which squares won, and adds its own words."""

    #: the width of a square's contents, in characters
    cell_width = 1
    #: what the winning squares are called
    win_name = "line"
    #: how the mover's pieces are called in the turn line
    movable = "pieces"
    #: lines of ``move_help`` after the first: what moves the game has
    move_rules: tuple[str, ...] = ()
    #: a line saying what the letters mean, or ``None``
    key: str | None = None

    def square_text(self, game: AnySliding, state: Any, square: Square) -> list[tuple[str, str]]:
        """The pieces on a square as (letters, style) parts, bottom to top; empty: ``[]``."""
        return []

    def winning_squares(self, state: Any) -> tuple[Square, ...]:
        """The squares of the winning line or formation (none while the game goes on)."""
        return ()

    def mover_letter(self, game: AnySliding, player: int) -> str:
        """The letter of ``player``'s pieces."""
        return game.player_name(player)[:1]

    def slid(self, game: AnySliding, before: Any, move: Slide, target: Square, way: str) -> str:
        """Words for a slide ``way`` (``N from a1 to a4``) made from ``before``."""
        return f"slid {way}"

    def board_lines(self, game: AnySliding, state: Any, last_move: Any | None) -> list[Text]:
        """The board, top rank first, with file letters and rank numbers on every edge."""
        board: SquareBoard = game.board
        width = self.cell_width
        origin = last_move.origin if isinstance(last_move, Slide) else None
        arrival = state.arrival if last_move is not None else None
        winning = set(self.winning_squares(state))

        def edge() -> Text:
            text = Text("  ")
            for x in range(board.size):
                text.append(" " + board.files[x].center(width) + " ", board_marks.LABEL_STYLE)
            text.rstrip()
            return text

        def cell(square: Square) -> Text:
            parts = self.square_text(game, state, square)
            if square == arrival:
                marks, extra = board_marks.LAST, " " + board_marks.LAST_STYLE
            elif square == origin:
                marks, extra = LEFT, " " + board_marks.LAST_STYLE
            elif square in winning:
                marks, extra = board_marks.LINE, " " + board_marks.LINE_STYLE
            else:
                marks, extra = board_marks.PLAIN, ""
            if not parts:
                parts = [(board_marks.EMPTY, board_marks.EMPTY_STYLE)]
            pad = width - sum(len(letters) for letters, _ in parts)
            text = Text(" " * (pad // 2) + marks[0])
            for letters, style in parts:
                text.append(letters, style + extra)
            text.append(marks[1] + " " * (pad - pad // 2))
            return text

        lines = [edge()]
        for y in range(board.size - 1, -1, -1):
            row = Text()
            row.append(f"{y + 1} ", board_marks.LABEL_STYLE)
            for x in range(board.size):
                row.append_text(cell(board.square(x, y)))
            row.append(f" {y + 1}", board_marks.LABEL_STYLE)
            lines.append(row)
        lines.append(edge())
        return lines

    def legend(self, game: AnySliding, state: Any, last_move: Any | None) -> list[str]:
        """What the marks and letters mean, then history notes (repetition, length cap)."""
        parts = []
        if isinstance(last_move, Slide) and state.arrival is not None:
            parts.append(f"{board_marks.LAST[0]} {board_marks.LAST[1]} moved here")
            parts.append(f"{LEFT[0]} {LEFT[1]} moved from")
        if isinstance(last_move, Pass):
            parts.append("last move: pass")
        if self.winning_squares(state):
            parts.append(f"{board_marks.LINE[0]} {board_marks.LINE[1]} winning {self.win_name}")
        lines = textwrap.wrap("   ".join(parts), WIDTH, break_on_hyphens=False)
        if self.key is not None:
            lines.append(self.key)
        side = game.player_name(state.to_play)
        if state.repetitions > 1:
            lines.append(
                f"This position, with {side} to move, has now occurred {state.repetitions}"
                " times;" + (" a third time draws." if state.repetitions == 2 else "")
            )
        if game.max_plies is not None:
            lines.append(f"Ply {state.plies} of at most {game.max_plies} (length cap).")
        return lines

    def draw(self, game: Game[Any, Any], state: Any, last_move: Any | None, *,
             colour: bool = False, viewer: int | None = None) -> str:
        g = _sliding(game)
        lines = self.board_lines(g, state, last_move)
        lines.extend(Text(line, "dim") for line in self.legend(g, state, last_move))
        return to_string(join_lines(lines), colour)

    def describe_turn(self, game: Game[Any, Any], state: Any) -> str:
        g = _sliding(game)
        player = g.to_move(state)
        if player is None:
            return "The game is over."
        moves: Sequence[Any] = g.legal_moves(state)
        example = g.format_move(state, moves[0])
        letter = self.mover_letter(g, player)
        task = f"slide one of your {self.movable} ({letter}) as far as it goes, e.g. {example}"
        return task + (", or pass" if Pass() in moves else "")

    def explain_move(self, game: Game[Any, Any], before: Any, move: Any) -> str:
        g = _sliding(game)
        if isinstance(move, Pass):
            return "passed (a zero-square move)"
        if not isinstance(move, Slide):
            return ""
        target = g.stop(before, move.origin, move.direction)
        name = g.board.name
        way = f"{move.direction_name} from {name(move.origin)} to {name(target)}"
        return self.slid(g, before, move, target, way)

    def move_help(self, game: Game[Any, Any], state: Any) -> str:
        g = _sliding(game)
        last = g.board.name(g.board.num_squares - 1)
        moves = game.legal_moves(state)
        example = game.format_move(state, moves[0]) if moves else "a1-a3"
        lines = [
            f"The square of your piece, a hyphen, and the square where it stops: {example}",
            *self.move_rules,
            "A piece goes as far as it can: only the square where it really stops is accepted.",
            f"Squares: a1 (bottom left) to {last}.",
            "Type 'draw' to offer a draw by agreement.",
        ]
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
            pieces = "".join(t for t, _ in self.square_text(g, state, origin)[-1:])
            lines.extend(textwrap.wrap(f"{g.board.name(origin)} {pieces}: {' '.join(texts)}",
                                       WIDTH, initial_indent="  ", subsequent_indent="      "))
        if passing:
            lines.append("  pass (one of your top pieces is blocked in some direction)")
        return lines
