"""Reading lines and writing text at the terminal, and deciding whether to use colour.

Colour is used only when the output is a terminal, ``NO_COLOR`` is unset (or
empty) and ``TERM`` is not ``dumb``. When input does not come from a terminal
(a pipe or a file), each line read is echoed after its prompt so that the
transcript reads like the session it was.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO


def wants_colour(stream: TextIO) -> bool:
    """Whether ``stream`` should get ANSI colour (https://no-color.org)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Terminal:
    """Line input and text output on two streams (standard input/output by default)."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.colour = wants_colour(self.stdout)
        self.interactive = self._isatty(self.stdin)

    @staticmethod
    def _isatty(stream: TextIO) -> bool:
        isatty = getattr(stream, "isatty", None)
        return bool(isatty and isatty())

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str | None:
        """One line without its newline, or ``None`` at end of input or on Ctrl-C."""
        try:
            if self.interactive and self.stdin is sys.stdin and self.stdout is sys.stdout:
                return input(prompt)  # line editing when the readline module is loaded
            self.stdout.write(prompt)
            self.stdout.flush()
            line = self.stdin.readline()
        except (EOFError, KeyboardInterrupt):
            self.say()
            return None
        if not line:
            self.say()
            return None
        line = line.rstrip("\r\n")
        if not self.interactive:
            self.say(line)
        return line
