"""Reading lines and writing text at the terminal, and deciding whether to use colour.

Colour is used only when the output is a terminal, ``NO_COLOR`` is unset (or
empty) and ``TERM`` is not ``dumb``. When input does not come from a terminal
(a pipe or a file), each line read is echoed after its prompt so that the
transcript reads like the session it was.

Output may come from two threads (the session, and the reader that writes the
prompt), so every write takes one lock.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import TextIO


def wants_colour(stream: TextIO) -> bool:
    """Whether ``stream`` should get ANSI colour (https://no-color.org)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _isatty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Terminal:
    """Line input and text output on two streams (standard input/output by default)."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.colour = wants_colour(self.stdout)
        self.interactive = _isatty(self.stdin)
        #: whether the cursor can be sent back to the start of the prompt's line
        self.can_erase = _isatty(self.stdout) and os.environ.get("TERM") != "dumb"
        self.lock = threading.RLock()

    def say(self, text: str = "") -> None:
        self.write(text + "\n")

    def write(self, text: str) -> None:
        with self.lock:
            self.stdout.write(text)
            self.stdout.flush()

    def ask(self, prompt: str) -> str | None:
        """One line without its newline, or ``None`` at end of input."""
        self.write(prompt)
        return self.read_line()

    def read_line(self) -> str | None:
        """The next line (the prompt already written), or ``None`` at end of input."""
        try:
            line = self.stdin.readline()
        except (EOFError, OSError, ValueError):
            line = ""
        if not line:
            self.say()
            return None
        line = line.rstrip("\r\n")
        if not self.interactive:
            self.say(line)
        return line
