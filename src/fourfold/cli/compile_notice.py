"""One line on stderr when the command starts compiling numba kernels.

The first solve (or bot, or playout) after an install or an upgrade compiles its numba
kernels, which takes up to a minute or more in silence; later runs load them from
numba's cache. ``install`` listens for numba's ``numba:compile`` event, which numba
fires only when it compiles (a kernel loaded from the cache returns before it), and
prints one line the first time. numba is not imported for it: a command that never
imports numba pays nothing (the listener is registered when numba is first imported).
Only the ``fourfold`` command installs it; the library stays quiet.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

NOTICE = ("fourfold: compiling the kernels (first run after an install or upgrade;"
          " about a minute)...")

_state = {"installed": False, "shown": False}
#: the line shown (``reword``: a command's own)
_notice = [NOTICE]


def reword(text: str) -> None:
    """Show ``text`` instead of ``NOTICE``: a command whose first compile is a different
    amount of work says its own (``fourfold serve``: its warm-up)."""
    _notice[0] = text


def _listen() -> None:
    from numba.core import event

    class Notice(event.Listener):
        def on_start(self, ev: Any) -> None:
            if not _state["shown"]:
                _state["shown"] = True
                print(_notice[0], file=sys.stderr, flush=True)

        def on_end(self, ev: Any) -> None:
            pass

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
