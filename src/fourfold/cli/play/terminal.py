"""Reading lines and writing text at the terminal, and deciding whether to use colour.

Colour is used only when the output is a terminal, ``NO_COLOR`` is unset (or
empty) and ``TERM`` is not ``dumb``. When input does not come from a terminal
(a pipe or a file), each line read is echoed after its prompt so that the
transcript reads like the session it was.

Output may come from two threads (the session, and the reader that writes the
prompt), so every write takes one lock. Output that can no longer be written (a pipe
whose reader has gone, as in ``fourfold play | head``; a closed terminal) ends the
session as the end of input does: nobody can see a prompt any more, so none waits for a
line, and the record is still saved with ``--save``.
"""

from __future__ import annotations

import contextlib
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


def replace_undecodable(stream: TextIO) -> None:
    """Bytes that are not text in the input's encoding (a Latin-1 terminal's "é", a
    stray byte in a piped file) become U+FFFD, so the line they are on is refused with a
    reason like any unreadable move; before, the decoding error read as the end of input
    and the session ended without a word."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(OSError, ValueError):
            reconfigure(errors="replace")


def _isatty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Terminal:
    """Line input and text output on two streams (standard input/output by default)."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin if stdin is not None else sys.stdin
        if self.stdin is sys.stdin:
            replace_undecodable(self.stdin)
        self.stdout = stdout if stdout is not None else sys.stdout
        self.colour = wants_colour(self.stdout)
        self.interactive = _isatty(self.stdin)
        #: whether the cursor can be sent back to the start of the prompt's line
        self.can_erase = _isatty(self.stdout) and os.environ.get("TERM") != "dumb"
        self.lock = threading.RLock()
        #: whether the output went away (its later writes are dropped)
        self.lost = False

    def say(self, text: str = "") -> None:
        self.write(text + "\n")

    def write(self, text: str) -> None:
        with self.lock:
            if self.lost:
                return
            try:
                self.stdout.write(text)
                self.stdout.flush()
            except OSError:  # a broken pipe, a terminal that went away
                self.lost = True
                self._drop_output()

    def _drop_output(self) -> None:
        """Send what standard output still holds to the null device, so that Python's
        last flush at exit does not print a broken pipe's traceback."""
        if self.stdout is not sys.stdout:
            return
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, sys.stdout.fileno())
            os.close(null)
        except (OSError, ValueError):
            pass

    def ask(self, prompt: str) -> str | None:
        """One line without its newline, or ``None`` at end of input (or once the
        output is lost: no one sees the prompt)."""
        self.write(prompt)
        if self.lost:
            return None
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
