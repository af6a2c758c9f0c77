"""The ``fourfold`` command says, once, when it starts compiling numba kernels, and says
nothing when they load from numba's cache (each case in a fresh process, with its own
cache folder)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from fourfold.cli.compile_notice import NOTICE

KERNELS = '''
import numba

@numba.njit(cache=True)
def twice(x):
    return 2 * x

@numba.njit(cache=True)
def thrice(x):
    return 3 * x
'''

RUN = '''
import sys
from fourfold.cli.compile_notice import install
install()
assert "numba" not in sys.modules  # not imported for the notice
import kernels
print(kernels.twice(2) + kernels.thrice(1))
'''


def run(folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "cache"),
           "PYTHONPATH": os.pathsep.join([str(folder), *sys.path])}
    return subprocess.run([sys.executable, "-c", RUN], cwd=folder, env=env, text=True,
                          capture_output=True, timeout=300, check=True)


def test_a_compile_is_announced_once_and_a_cache_load_not_at_all(tmp_path: Path) -> None:
    (tmp_path / "kernels.py").write_text(KERNELS)
    first = run(tmp_path)
    assert first.stdout.strip() == "7"
    assert first.stderr.count(NOTICE) == 1  # two kernels compiled, one line
    again = run(tmp_path)
    assert again.stdout.strip() == "7" and NOTICE not in again.stderr


def test_a_command_that_never_uses_numba_does_not_import_it() -> None:
    code = ("import sys\nfrom fourfold.cli.main import main\n"
            "assert main(['rules', 'dao']) == 0\nassert 'numba' not in sys.modules")
    done = subprocess.run([sys.executable, "-c", code], text=True, capture_output=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert NOTICE not in done.stderr


def test_the_command_installs_the_notice_and_a_caller_of_main_does_not() -> None:
    code = ("import sys\nfrom fourfold.cli import compile_notice\n"
            "from fourfold.cli.main import main\n"
            "assert main(['rules', 'dao']) == 0\nassert not compile_notice._state['installed']\n"
            "sys.argv = ['fourfold', 'rules', 'dao']\nassert main() == 0\n"
            "assert compile_notice._state['installed']")
    done = subprocess.run([sys.executable, "-c", code], text=True, capture_output=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
