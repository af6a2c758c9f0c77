"""Ctrl-C during a compiled search: the SIGINT handler waits until the kernel returns.

A numba kernel runs no Python code, so a SIGINT only marks the signal pending; its
Python handler runs at the next moment of Python, which in a long search is the
``objmode`` block that reads the clock. ``KeyboardInterrupt`` raised there (while
numba's glue fetches the block's globals) is not checked for and surfaces as
``SystemError: ... returned a result with an exception set``. So for the length of
a search ``deferred_interrupt`` swaps in a handler that only sets a flag in the
kernel's own arrays; the kernel sees it at its next budget check and unwinds as when
out of budget, and once it has returned the caller's own handler runs (the default
one raises ``KeyboardInterrupt``, which the CLI and the play loop handle).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import numpy as np
import numpy.typing as npt


@contextmanager
def deferred_interrupt(flags: npt.NDArray[np.int64], index: int) -> Iterator[None]:
    """Within the block, SIGINT sets ``flags[index] = 1``; the handler it replaced runs
    on leaving the block. Off the main thread (where no handler runs) or with SIGINT
    ignored or left to the system, nothing is swapped."""
    flags[index] = 0
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield
        return
    frames: list[FrameType | None] = []

    def note(signum: int, frame: FrameType | None) -> None:
        flags[index] = 1
        frames.append(frame)

    signal.signal(signal.SIGINT, note)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if frames:
        previous(signal.SIGINT, frames[0])
