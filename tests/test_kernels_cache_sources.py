"""numba's cache of a compiled function is keyed by the sources it is compiled from.

numba keys a function's on-disk cache on the function's own file; a cached function
calling (or inlining, or reading a constant of) another module keeps running the old
code of that module after it changes. ``fourfold.kernels.jit`` adds a digest of every
package module the function's file imports to the key: these tests show the stale
cache on a two-module package without it, and a rebuilt one with it, and that every
cached function of this package goes through it.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fourfold.kernels import jit

PACKAGE = Path(jit.__file__).resolve().parent.parent

# Prints the compiled function's result and whether it came from the cache.
_RUN = """
import sys
from pathlib import Path
if sys.argv[1] == "keyed":
    from fourfold.kernels.jit import cache_by_sources
    cache_by_sources("twomod", Path(sys.argv[2]) / "twomod")
from twomod.user import total
print(total(), total.stats.cache_hits.get(total.signatures[0], 0) > 0)
"""

_DEP = """
from numba import njit

SCALE = {scale}


@njit(inline="always")
def helper(x):
    return x * SCALE
"""

_USER = """
from numba import njit

from twomod.dep import helper


@njit(cache=True)
def total():
    return helper(3)
"""


def _package(root: Path, scale: int) -> None:
    (root / "twomod").mkdir(exist_ok=True)
    (root / "twomod" / "__init__.py").write_text("")
    (root / "twomod" / "dep.py").write_text(_DEP.format(scale=scale))
    (root / "twomod" / "user.py").write_text(_USER)


def _run(root: Path, cache: Path, mode: str) -> tuple[int, bool]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache),
               PYTHONPATH=os.pathsep.join([str(root), str(PACKAGE.parent)]))
    out = subprocess.run([sys.executable, "-c", _RUN, mode, str(root)], env=env,
                         capture_output=True, text=True, timeout=300, check=True)
    value, hit = out.stdout.split()
    return int(value), hit == "True"


@pytest.mark.parametrize("mode", ["plain", "keyed"])
def test_a_change_to_an_inlined_module_rebuilds_the_cache_only_when_keyed(
    tmp_path: Path, mode: str
) -> None:
    root = tmp_path / "src"
    root.mkdir()
    cache = tmp_path / "cache"
    _package(root, scale=1)
    assert _run(root, cache, mode) == (3, False)
    assert _run(root, cache, mode) == (3, True)
    _package(root, scale=2)  # user.py, the cached function's own file, is unchanged
    if mode == "plain":
        # numba's own key: the old helper keeps running from the cache
        assert _run(root, cache, mode) == (3, True)
    else:
        assert _run(root, cache, mode) == (6, False)
        assert _run(root, cache, mode) == (6, True)


def test_the_digest_covers_the_modules_imported_through_others() -> None:
    floating = PACKAGE / "games" / "placement" / "solver" / "floating.py"
    closure = {str(p.relative_to(PACKAGE)) for p in jit.source_closure(floating)}
    assert {"games/placement/solver/kernel.py", "games/placement/solver/tables.py",
            "kernels/search.py", "kernels/jit.py"} <= closure
    dao = PACKAGE / "games" / "dao" / "kernel.py"
    # the templates ``specialise`` compiles as the kernel's functions
    assert "kernels/sliding_loops.py" in {
        str(p.relative_to(PACKAGE)) for p in jit.source_closure(dao)}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _cached_modules() -> list[Path]:
    """The package's files that compile a function with numba's cache."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_bytes())
        if any(isinstance(node, ast.Call) and _name(node.func) in ("njit", "jit")
               and any(k.arg == "cache" for k in node.keywords)
               for node in ast.walk(tree)):
            found.append(path)
    return found


def test_every_cached_function_of_the_package_is_keyed_by_its_sources() -> None:
    """Each file compiling a cached function imports ``kernels.jit`` (directly or through
    the modules it imports), so the key is installed before numba makes its cache."""
    files = _cached_modules()
    assert len(files) > 5
    jit_file = PACKAGE / "kernels" / "jit.py"
    missing = [str(f.relative_to(PACKAGE)) for f in files
               if jit_file not in jit.source_closure(f)]
    assert missing == []


def test_the_placement_search_loads_with_the_keyed_locator() -> None:
    code = ("import fourfold.games.placement.solver.floating as f, fourfold.kernels.jit as j;"
            "import fourfold.games.dao.solver.build as b;"
            "print(all(isinstance(d._cache._impl.locator, j.SourceClosureLocator)"
            " for d in (f.float_search, f.load_box, b._build)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, check=True)
    assert out.stdout.split() == ["True"]
