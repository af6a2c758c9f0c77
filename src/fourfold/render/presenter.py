"""What the interactive player needs from each game, and a fallback for any game.

A ``Presenter`` turns states into text for people: the board (``draw``), what
the player to move must do (``describe_turn``), how to write a move
(``move_help``), the legal moves in a compact form (``list_moves``), words for a
move (``explain_move``) and notes on the history (``notes``). All of these are
pure. The play loop, its commands and sessions live in ``fourfold.cli.play``;
this package does no input/output and imports nothing from the command line.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from fourfold.core.game import Game
from fourfold.core.match import Match

WIDTH = 78


class Presenter:
    """Text for people about one game's states. Subclass it per game family."""

    def draw(self, game: Game[Any, Any], state: Any, last_move: Any | None, *,
             colour: bool = False, viewer: int | None = None) -> str:
        """The position as text; ``last_move`` (the move that led here) is marked.

        With ``colour`` the text may hold ANSI colour codes; without, it is plain
        and must make sense on its own. ``viewer`` is the seat looking at the
        screen: hidden-information games draw only ``game.view(state, viewer)``;
        ``None`` means everything may be shown (a finished game, a spectator).
        """
        if viewer is not None and not game.info.spec.perfect_information:
            return f"What {game.player_name(viewer)} sees: {game.view(state, viewer).observation}"
        return f"Position: {game.format_position(state)}"

    def describe_turn(self, game: Game[Any, Any], state: Any) -> str:
        """One line: what the player to move must do now."""
        moves = game.legal_moves(state)
        if not moves:
            return "nothing to do: the game is over"
        return f"type a move, e.g. {game.format_move(state, moves[0])}"

    def explain_move(self, game: Game[Any, Any], before: Any, move: Any) -> str:
        """Words for a move just made from ``before`` (shown after its notation), or ``""``."""
        return ""

    def move_help(self, game: Game[Any, Any], state: Any) -> str:
        """How to write a move, with an example legal here when there is one."""
        moves = game.legal_moves(state)
        example = f" For example: {game.format_move(state, moves[0])}" if moves else ""
        return "Type a move in the game's notation (see `rules`)." + example

    def list_moves(self, game: Game[Any, Any], state: Any) -> list[str]:
        """The legal moves, compactly, as lines of text."""
        names = [game.format_move(state, m) for m in game.legal_moves(state)]
        if not names:
            return ["No legal moves: the game is over."]
        wrapped = textwrap.wrap("  ".join(names), WIDTH, initial_indent="  ",
                                subsequent_indent="  ")
        return [f"{len(names)} legal moves:", *wrapped]

    def notes(self, match: Match[Any, Any]) -> list[str]:
        """Lines that depend on the history, not just the state (repetition counts...)."""
        return []


def wrap_words(label: str, words: Sequence[str]) -> list[str]:
    """``label`` then the words, wrapped to the screen width with a hanging indent."""
    return textwrap.wrap(
        f"{label} {' '.join(words)}", WIDTH, subsequent_indent=" " * 4, break_on_hyphens=False
    )
