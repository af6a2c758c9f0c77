"""What the interactive player needs from each game, and a fallback for any game.

A ``Presenter`` turns states into text for people: the board (``draw``), what
the player to move must do (``describe_turn``), how to write a move
(``move_help``) and the legal moves in a compact form (``list_moves``). All of
these are pure. A presenter may also add commands to the play loop
(``extra_commands``, e.g. a draw offer) or take over the whole session
(``session``, e.g. a real-time game); those receive a ``PlayContext``, the
interface the command line implements, so this module does no input/output.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from fourfold.core.game import Game
from fourfold.core.match import Match

WIDTH = 78


class PlayContext(Protocol):
    """A play session as commands and custom sessions see it (implemented by the CLI)."""

    @property
    def game(self) -> Game[Any, Any]: ...

    @property
    def match(self) -> Match[Any, Any]:
        """The history; commands may ``undo`` it or ``declare`` an ending."""
        ...

    @property
    def presenter(self) -> Presenter: ...

    @property
    def colour(self) -> bool:
        """Whether ``draw`` may use colour on this terminal."""
        ...

    @property
    def seed(self) -> int | None: ...

    def is_human(self, player: int) -> bool:
        """Whether a person (not a bot) plays this seat."""
        ...

    def player_label(self, player: int) -> str:
        """How to name a seat on screen, e.g. ``Player 2 (random)``."""
        ...

    def bot_move(self, player: int) -> Any:
        """The move the bot of this seat chooses now (it sees only its own view)."""
        ...

    def play(self, move: Any) -> str:
        """Apply a move to the match, tell the bots, and return it in notation."""
        ...

    def say(self, text: str) -> None:
        """Show text to the people at the terminal."""
        ...

    def ask(self, prompt: str) -> str | None:
        """Read one line; ``None`` when input has ended (treat it as quitting)."""
        ...

    def save(self) -> str | None:
        """Write the record if the user asked for one; return the path written, if any."""
        ...


@dataclass(frozen=True)
class Command:
    """A game-specific command of the play loop (``draw`` offers in Ice Dao, ...).

    ``run(context, argument)`` receives the rest of the typed line. It returns
    ``True`` when the game should be looked at again (the board is redrawn),
    ``False`` otherwise. It may end the game with ``context.match.declare``.
    """

    name: str
    summary: str
    run: Callable[[PlayContext, str], bool]


SessionRunner = Callable[[PlayContext], int]
"""A whole interactive session for a game that the turn loop does not fit; returns an
exit status."""


class Presenter:
    """Text for people about one game's states. Subclass it per game family."""

    #: commands added to the built-in ones (moves, undo, help, rules, board, quit)
    extra_commands: tuple[Command, ...] = ()
    #: when set, ``fourfold play`` hands the session to this instead of its turn loop
    session: SessionRunner | None = None

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
