"""Error classes shared by every game.

Every error is a ``ValueError`` (as in python-chess) and carries the pieces a
user needs to fix the problem: *what* was wrong, *where* it was, and *why*.
The CLI prints ``str(error)``; it never shows a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

class FourfoldError(ValueError):
    """Base class of every error this package raises on purpose."""


class NotationError(FourfoldError):
    """A string could not be read as a move, cell, piece, position or record.

    ``text`` is the whole input, ``index`` the character where reading failed
    (or ``None`` when the fault is not at one place) and ``reason`` says why.
    """

    def __init__(self, kind: str, text: str, reason: str, index: int | None = None) -> None:
        self.kind = kind
        self.text = text
        self.reason = reason
        self.index = index
        where = f" at character {index + 1}" if index is not None else ""
        super().__init__(f"cannot read {kind} {text!r}{where}: {reason}")


def checked_action(action: object, count: int) -> int:
    """``action`` if it is an action number below ``count``; ``FourfoldError`` if not."""
    if not isinstance(action, int) or not 0 <= action < count:
        raise FourfoldError(f"action {action!r} is not in 0..{count - 1}")
    return action


def read_part(parse: Callable[[str], T], text: str, token: str, what: str, index: int) -> T:
    """``parse(token)``, one part of the move ``text``: its ``ValueError`` becomes a
    ``NotationError`` (``bad cell 'z9': why``, ``what`` naming the part) at ``index``."""
    try:
        return parse(token)
    except ValueError as exc:
        raise NotationError("move", text, f"bad {what} {token!r}: {exc}", index) from None


class IllegalMoveError(FourfoldError):
    """A well-formed move that the rules do not allow in this position."""

    def __init__(self, move: str, position: str, reason: str) -> None:
        self.move = move
        self.position = position
        self.reason = reason
        super().__init__(f"illegal move {move!r} in position {position!r}: {reason}")


class GameOverError(IllegalMoveError):
    """A move was offered after the game had ended."""


class ConfigurationError(FourfoldError):
    """An unknown game, variant or option, or an option value that is not valid."""


class RecordError(FourfoldError):
    """A game record could not be read; ``line`` is 1-based, or ``None``."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        self.reason = reason
        self.line = line
        where = f"line {line}: " if line is not None else ""
        super().__init__(f"bad game record: {where}{reason}")
