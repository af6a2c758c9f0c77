"""The session's side of the terminal: lines typed while time and bots go on.

A person types on a reader thread, so the session's thread stays free to wait for
whichever comes first: a line, an event from the table (``wake``), or a deadline (a
clock, a bot due at its pace). A line is read only when the session asks for one
(``wait`` with a prompt), so a prompt never appears before the output it should
follow; and when something is printed while a prompt waits for its line
(asynchronous output: a bot's move in real time, a clock warning), the prompt is
printed again after it, so the cursor always sits after a prompt.

Ctrl-C reaches the session's thread as ``KeyboardInterrupt`` wherever it waits.
"""

from __future__ import annotations

import queue
import threading
from typing import Final

from fourfold.cli.play.terminal import Terminal


class Nothing:
    def __repr__(self) -> str:
        return "NOTHING"


#: what ``wait`` returns when no line came: a timeout, or a wake-up
NOTHING: Final = Nothing()

Got = str | None | Nothing


class Console:
    """A terminal with a reader thread (see the module docstring)."""

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self._inbox: queue.Queue[tuple[str, str | None]] = queue.Queue()
        self._prompts: queue.Queue[str] = queue.Queue()
        self._reader: threading.Thread | None = None
        #: the prompt whose line is being read, if any
        self.pending: str | None = None
        self.ended = False

    @property
    def colour(self) -> bool:
        return self.terminal.colour

    # -- output ------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        """Print a line; if a prompt is waiting for its line, print it again after."""
        with self.terminal.lock:
            prompt = self.pending
            if prompt is None:
                self.terminal.say(text)
                return
            # the prompt is on screen: clear it (or leave its line), print, prompt again
            self.terminal.write("\r\x1b[K" if self.terminal.can_erase else "\n")
            self.terminal.say(text)
            self.terminal.write(prompt)

    def drop_prompt(self) -> None:
        """No line is wanted any more: take the waiting prompt off the screen."""
        with self.terminal.lock:
            if self.pending is not None:
                self.terminal.write("\r\x1b[K" if self.terminal.can_erase else "\n")
            self.pending = None

    # -- input -------------------------------------------------------------------------
    def wake(self) -> None:
        """Make a ``wait`` in progress return ``NOTHING`` (safe from any thread)."""
        self._inbox.put(("wake", None))

    def wait(self, prompt: str | None, timeout: float | None) -> Got:
        """Wait up to ``timeout`` seconds (``None``: no limit) for a line, or until woken.

        With a ``prompt`` a line is wanted: a read starts (the prompt is shown) unless
        one is already waiting. Returns the line, ``None`` when input has ended, or
        ``NOTHING`` on a timeout or a wake-up.
        """
        if prompt is not None and self.ended:
            return None
        if prompt is not None and self.pending is None:
            self._start_read(prompt)
        try:
            kind, line = self._inbox.get(timeout=None if timeout is None else max(0.0, timeout))
        except queue.Empty:
            return NOTHING
        if kind == "wake":
            return NOTHING
        self.pending = None
        self.ended = line is None
        return line

    def ask(self, prompt: str) -> str | None:
        """Wait for one line (wake-ups ignored); ``None`` when input has ended."""
        while True:
            got = self.wait(prompt, None)
            if not isinstance(got, Nothing):
                return got

    def _start_read(self, prompt: str) -> None:
        with self.terminal.lock:
            self.pending = prompt
            self._prompts.put(prompt)
        if self._reader is None:
            self._reader = threading.Thread(target=self._read, name="play-input", daemon=True)
            self._reader.start()

    def _read(self) -> None:
        while True:
            prompt = self._prompts.get()
            line = self.terminal.ask(prompt)
            self._inbox.put(("line", line))
            if line is None:
                return
