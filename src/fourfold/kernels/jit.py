"""How the kernels are compiled: two decorators over ``numba.njit`` (always cached).

* ``inlined``: small helpers (move generation, apply/undo, win tests) inlined
  into their callers by numba, so a search node pays no call.
* ``no_refcount``: the hot loops (search, playouts), compiled without numba's
  reference counting (``_nrt=False``). With it, every inlined helper takes an
  atomic increment and decrement on each array it receives, at every node:
  a third of the search's time. These loops allocate nothing, create no arrays
  and copy array slices element by element, which is all that running without
  reference counting requires (numba refuses to compile anything else).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import njit

_NO_REFCOUNT: dict[str, Any] = {"_nrt": False}


def inlined(fn: Callable[..., Any]) -> Any:
    return njit(cache=True, inline="always")(fn)


def no_refcount(fn: Callable[..., Any]) -> Any:
    return njit(cache=True, **_NO_REFCOUNT)(fn)
