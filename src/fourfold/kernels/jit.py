"""How the kernels are compiled: two decorators over ``numba.njit`` (always cached).

* ``inlined``: small helpers (move generation, apply/undo, win tests) inlined
  into their callers by numba, so a search node pays no call.
* ``no_refcount``: the hot loops (search, playouts), compiled without numba's
  reference counting (``_nrt=False``). With it, every inlined helper takes an
  atomic increment and decrement on each array it receives, at every node:
  a third of the search's time. These loops allocate nothing, create no arrays
  and copy array slices element by element, which is all that running without
  reference counting requires (numba refuses to compile anything else).

And one way to write a compiled loop once for several games: ``specialise`` compiles a
template (a plain function naming its game-specific helpers as globals) as a function of
the game's own module, with the game's helpers in place of those names.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any

from numba import njit

_NO_REFCOUNT: dict[str, Any] = {"_nrt": False}


def inlined(fn: Callable[..., Any]) -> Any:
    return njit(cache=True, inline="always")(fn)


def no_refcount(fn: Callable[..., Any]) -> Any:
    return njit(cache=True, **_NO_REFCOUNT)(fn)


def specialise(template: Callable[..., Any], module: str, name: str,
               jit: Callable[[Callable[..., Any]], Any], **names: Any) -> Any:
    """``template`` compiled (by ``jit``, e.g. ``no_refcount``) as the function ``name`` of
    ``module``, each global in ``names`` (a helper, a constant, a kernel module) bound to
    the given value, the template's other globals to those of its own module.

    Numba calls the bound helpers by name, so it inlines the ones compiled ``inlined``
    and caches the result, which it would not for a closure (the cache key of a closure
    holds its dispatchers' per-process ids) nor for functions passed in from Python. The
    code is the template's; it is filed under ``module``'s source file, so numba caches
    it beside that module, keys it by ``name``, and rebuilds it when that file changes
    (as for a function written there; a change to the template's own module, like one to
    any function numba inlines, needs the cache cleared)."""
    source = sys.modules[module].__file__
    if source is None:
        # invariant: the kernels are modules loaded from files
        raise ValueError(f"cannot specialise {template.__name__} into {module}: no file")
    code = template.__code__.replace(co_filename=source, co_name=name, co_qualname=name)
    bound = dict(template.__globals__)
    bound.update(names)
    fn = types.FunctionType(code, bound, name, template.__defaults__, template.__closure__)
    fn.__qualname__ = name
    fn.__module__ = module
    fn.__doc__ = template.__doc__
    return jit(fn)
