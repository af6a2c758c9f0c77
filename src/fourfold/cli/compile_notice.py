"""One line on stderr when the command starts compiling numba kernels.

The first solve (or bot, or playout) after an install or an upgrade compiles its numba
kernels, which takes a minute or more in silence; later runs load them from numba's
cache. ``install`` listens for numba's ``numba:compile`` event, which numba fires only
when it compiles (a kernel loaded from the cache returns before it), and prints one line
once a compile has gone on for ``QUIET_SECONDS``: a few small functions numba cannot
keep in its cache (the solvers' clock check, which steps into Python for a moment) are
compiled again in every process, in a fraction of a second, and are no reason to warn.
numba is not imported for it: a command that never imports numba pays nothing (the
listener is registered when numba is first imported). Only the ``fourfold`` command
installs it; the library stays quiet.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import threading
import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any

NOTICE = ("fourfold: compiling the kernels (first run after an install or upgrade;"
          " a minute or more, longer on a busy machine)...")

#: a compile shorter than this says nothing (read when numba is first imported)
QUIET_SECONDS = 1.0

_state: dict[str, Any] = {"installed": False, "shown": False}
#: the line shown (``reword``: a command's own)
_notice = [NOTICE]


def reword(text: str) -> None:
    """Show ``text`` instead of ``NOTICE``: a command whose first compile is a different
    amount of work says its own (``fourfold serve``: its warm-up)."""
    _notice[0] = text


def _show() -> None:
    with _lock:
        if _state["shown"]:
            return
        _state["shown"] = True
    print(_notice[0], file=sys.stderr, flush=True)


_lock = threading.Lock()


class _Running:
    """The compile going on: how deep (compiles nest: a kernel compiles the kernels it
    calls, and the outermost one is timed), since when, and the timer that says it."""

    def __init__(self) -> None:
        self.depth = 0
        self.since = 0.0
        self.timer: threading.Timer | None = None


def _listen() -> None:
    from numba.core import event

    quiet = QUIET_SECONDS
    running = _Running()

    class Notice(event.Listener):
        def on_start(self, ev: Any) -> None:
            running.depth += 1
            if running.depth > 1 or _state["shown"]:
                return
            running.since = time.monotonic()
            running.timer = threading.Timer(quiet, _show)  # said while the compile goes on
            running.timer.daemon = True
            running.timer.start()

        def on_end(self, ev: Any) -> None:
            running.depth -= 1
            if running.depth > 0 or running.timer is None:
                return
            running.timer.cancel()
            running.timer = None
            # a compile that went on that long is said even if the timer had no turn
            if time.monotonic() - running.since >= quiet:
                _show()

    event.register("numba:compile", Notice())  # type: ignore[no-untyped-call]


class _WhenImported(importlib.abc.MetaPathFinder):
    """Finds numba as usual, and registers the listener once its package has run."""

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if name != "numba":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        loader = None if spec is None else spec.loader
        if loader is None:
            return spec
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            _listen()

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install() -> None:
    """Print ``NOTICE`` on stderr when this process first compiles a numba kernel."""
    if _state["installed"]:
        return
    _state["installed"] = True
    if "numba" in sys.modules:
        _listen()
    else:
        sys.meta_path.insert(0, _WhenImported())
