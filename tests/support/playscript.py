"""A console for whole play sessions in simulated time: scripted lines at given times.

``ScriptedConsole(clock, script)``: each script item is ``(seconds, line)`` (a line the
person types that many seconds after the start) or ``(seconds, callable)`` (something
that happens then, e.g. another seat's action). While nothing is due the console moves
the ``ManualClock`` instead of sleeping, so real-time sessions run in no time.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from fourfold.cli.play.console import NOTHING, Console, Got
from fourfold.cli.play.terminal import Terminal
from fourfold.table import ManualClock

Item = tuple[float, "str | Callable[[], object]"]


class ScriptedConsole(Console):
    def __init__(self, clock: ManualClock, script: list[Item]) -> None:
        self.out = io.StringIO()
        super().__init__(Terminal(io.StringIO(), self.out))
        self.clock = clock
        self.script = [(clock.now + at, item) for at, item in script]

    def wait(self, prompt: str | None, timeout: float | None) -> Got:
        if not self._inbox.empty():  # an event woke us: nothing typed
            self._inbox.get()
            return NOTHING
        if self.script and (timeout is None or self.script[0][0] <= self.clock.now + timeout):
            at, item = self.script[0]
            if callable(item) or prompt is not None:
                self.script.pop(0)
                self.clock.now = max(self.clock.now, at)
                if callable(item):
                    item()
                    return NOTHING
                self.terminal.say(f"{prompt}{item}")
                return item
        if timeout is None:
            if prompt is not None:
                return None  # the script is over: input has ended
            return super().wait(None, None)  # a bot thinks on its thread: wait for it
        self.clock.advance(timeout)
        return NOTHING
