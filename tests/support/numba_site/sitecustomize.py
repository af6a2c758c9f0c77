"""Test runs only: every Python process a test starts shares the workers' numba locks.

tests/conftest.py puts this folder on ``PYTHONPATH`` and names the run's lock folder in
``FOURFOLD_TEST_NUMBA_LOCKS`` (``support/numba_lock.py``). Python imports this module at
start-up; when the process later imports numba's dispatcher, its compilations of cached
functions take the run's locks, as the test workers' do, so a server (or one of its job
processes) never compiles a cold kernel at the same time as a worker. A process that
never imports numba pays one environment look-up; nothing here prints."""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

_TARGET = "numba.core.dispatcher"
_LOCK_MODULE = Path(__file__).resolve().parent.parent / "numba_lock.py"


def _share(folder: str) -> None:
    spec = importlib.util.spec_from_file_location("_fourfold_test_numba_lock", _LOCK_MODULE)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    # the locks only save time: a process that cannot take them compiles by itself, as
    # it would without this module, rather than fail to import numba
    with contextlib.suppress(Exception):
        spec.loader.exec_module(module)
        module.share_compilations(Path(folder))


class _Then(importlib.abc.Loader):
    """The dispatcher module's own loader, then ``_share`` once the module has run."""

    def __init__(self, loader: Any, folder: str) -> None:
        self.loader = loader
        self.folder = folder

    def create_module(self, spec: Any) -> Any:
        return self.loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self.loader.exec_module(module)
        _share(self.folder)


class _AfterDispatcher(importlib.abc.MetaPathFinder):
    """Finds nothing itself: wraps the loader of numba's dispatcher module (once)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != _TARGET:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            spec.loader = _Then(spec.loader, self.folder)
        return spec


_folder = os.environ.get("FOURFOLD_TEST_NUMBA_LOCKS")
if _folder:
    if _TARGET in sys.modules:
        _share(_folder)
    else:
        sys.meta_path.insert(0, _AfterDispatcher(_folder))
