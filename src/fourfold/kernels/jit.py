"""How the kernels are compiled: four decorators over ``numba.njit`` (always cached).

* ``cached``: ``njit(cache=True)``, for the package's other compiled functions.
* ``inlined``: small helpers (move generation, apply/undo, win tests) inlined
  into their callers by numba, so a search node pays no call.
* ``no_refcount``: the hot loops (search, playouts), compiled without numba's
  reference counting (``_nrt=False``). With it, every inlined helper takes an
  atomic increment and decrement on each array it receives, at every node:
  a third of the search's time. These loops allocate nothing, create no arrays
  and copy array slices element by element, which is all that running without
  reference counting requires (numba refuses to compile anything else).
* ``no_refcount_nogil``: the same for a search that another thread runs beside it (the
  placement solver's helper): it releases the GIL while it runs.

And one way to write a compiled loop once for several games: ``specialise`` compiles a
template (a plain function naming its game-specific helpers as globals) as a function of
the game's own module, with the game's helpers in place of those names.

Importing this module also makes numba's cache of every cached function of this package
(``cache=True``) depend on the sources it is compiled from: numba keys a function's cache
on its own source file only, yet the compiled code holds what it inlines, calls and reads
from other modules (the kernels' helpers, their constants, the templates of
``specialise``). ``SourceClosureLocator`` adds to that key a digest of every module of this
package the function's file imports, directly or through those modules
(``source_closure``), so a change to any of them recompiles the function instead of
running the old code from the cache.
"""

from __future__ import annotations

import ast
import hashlib
import sys
import types
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from numba import njit
from numba.core.caching import (
    CompileResultCacheImpl,
    InTreeCacheLocator,
    UserProvidedCacheLocator,
)

_NO_REFCOUNT: dict[str, Any] = {"_nrt": False}


def cached(fn: Callable[..., Any]) -> Any:
    """``fn`` compiled as ``njit(cache=True)`` does (for a module that needs no other
    decorator here: importing this module is what keys its cache by its sources)."""
    return njit(cache=True)(fn)


def inlined(fn: Callable[..., Any]) -> Any:
    return njit(cache=True, inline="always")(fn)


def no_refcount(fn: Callable[..., Any]) -> Any:
    return njit(cache=True, **_NO_REFCOUNT)(fn)


def no_refcount_nogil(fn: Callable[..., Any]) -> Any:
    """``no_refcount`` for a search called from Python that releases the GIL while it
    runs, so that another thread can search at the same time (``solver.helper``)."""
    return njit(cache=True, nogil=True, **_NO_REFCOUNT)(fn)


def specialise(template: Callable[..., Any], module: str, name: str,
               jit: Callable[[Callable[..., Any]], Any], **names: Any) -> Any:
    """``template`` compiled (by ``jit``, e.g. ``no_refcount``) as the function ``name`` of
    ``module``, each global in ``names`` (a helper, a constant, a kernel module) bound to
    the given value, the template's other globals to those of its own module.

    Numba calls the bound helpers by name, so it inlines the ones compiled ``inlined``
    and caches the result, which it would not for a closure (the cache key of a closure
    holds its dispatchers' per-process ids) nor for functions passed in from Python. The
    code is the template's; it is filed under ``module``'s source file, so numba caches
    it beside that module, keys it by ``name``, and rebuilds it when that file or any
    module it imports changes (``SourceClosureLocator``: the template's module is one of
    them, since the kernel module imports it to call this)."""
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


# -- the cache's key: the sources a cached function is compiled from ----------------------

#: The packages (name: directory) whose functions' caches depend on their imports.
_ROOTS: dict[str, Path] = {}


def cache_by_sources(package: str, root: Path) -> None:
    """Key the cache of each cached function of ``package`` (the modules under ``root``)
    by ``source_digest`` too (this package's is registered below)."""
    _ROOTS[package] = root.resolve()


def _module_file(name: str) -> Path | None:
    """The source file of the registered package's module ``name`` (dotted), or None."""
    parts = name.split(".")
    root = _ROOTS.get(parts[0])
    if root is None:
        return None
    base = root.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _root_of(path: Path) -> Path | None:
    return next((root for root in _ROOTS.values() if path.is_relative_to(root)), None)


def _type_checking(node: ast.AST) -> bool:
    """Whether ``node`` is an ``if TYPE_CHECKING:`` block (imports for mypy only)."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


@cache
def _imports(path: Path, mtime_ns: int, size: int) -> tuple[Path, ...]:
    """The package's modules that the file ``path`` imports (anywhere in it but in
    ``if TYPE_CHECKING:``), as files (``mtime_ns`` and ``size`` key the memo, so an
    edited file is read again). ``from package import name`` counts the module
    ``package.name`` if there is one, else ``package`` (whose ``name`` it is)."""
    found: set[Path | None] = set()
    todo: list[ast.AST] = [ast.parse(path.read_bytes(), str(path))]
    while todo:
        node = todo.pop()
        if _type_checking(node):
            continue
        todo.extend(ast.iter_child_nodes(node))
        if isinstance(node, ast.Import):
            found.update(_module_file(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            for alias in node.names:
                found.add(_module_file(f"{node.module}.{alias.name}")
                          or _module_file(node.module))
    return tuple(sorted(file for file in found if file is not None))


def source_closure(path: Path) -> tuple[Path, ...]:
    """``path`` and every package module it imports, directly or through others, sorted."""
    seen = {path}
    todo = [path]
    while todo:
        file = todo.pop()
        stat = file.stat()
        for dep in _imports(file, stat.st_mtime_ns, stat.st_size):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return tuple(sorted(seen))


@cache
def _file_digest(path: Path, mtime_ns: int, size: int) -> bytes:
    """The digest of the file ``path`` (memo keyed as ``_imports``)."""
    return hashlib.sha256(path.read_bytes()).digest()


def source_digest(path: Path) -> str:
    """A digest of the sources of ``source_closure(path)``: their names and contents."""
    digest = hashlib.sha256()
    root = _root_of(path)
    for file in source_closure(path):
        stat = file.stat()
        digest.update(str(file.relative_to(root) if root else file).encode() + b"\0")
        digest.update(_file_digest(file, stat.st_mtime_ns, stat.st_size))
    return digest.hexdigest()


@cache
def _digest_once(path: Path) -> str:
    """``source_digest(path)``, once a process: the modules it covers are loaded by then
    (numba takes the stamp when a function is decorated), and they are what it compiles."""
    return source_digest(path)


class SourceClosureLocator:
    """A mixin over numba's cache locators: for a function of a registered package, the
    source stamp (numba's cache index is valid only for the stamp it was saved with) is numba's
    own, of the function's file, with ``source_digest`` of that file; other functions are
    left to numba's locators."""

    _py_file: str

    def get_source_stamp(self) -> Any:
        own = super().get_source_stamp()  # type: ignore[misc]
        return own, _digest_once(Path(self._py_file).resolve())

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if _root_of(Path(py_file).resolve()) is None:
            return None
        return super().from_function(py_func, py_file)  # type: ignore[misc]


class _UserDirLocator(SourceClosureLocator, UserProvidedCacheLocator):
    """In ``NUMBA_CACHE_DIR`` when it is set."""


class _InTreeLocator(SourceClosureLocator, InTreeCacheLocator):
    """In the ``__pycache__`` beside the source otherwise."""


def _install() -> None:
    """Put the locators above first in numba's list (once); numba picks the first that
    accepts a function when the function is decorated with ``cache=True``."""
    classes = CompileResultCacheImpl._locator_classes
    if _UserDirLocator not in classes:
        classes[:0] = [_UserDirLocator, _InTreeLocator]


cache_by_sources(__name__.split(".")[0], Path(__file__).parent.parent)
_install()
