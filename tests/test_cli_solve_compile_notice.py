"""The ``fourfold`` command says, once, when it has been compiling numba kernels for a
while, and says nothing when they load from numba's cache or compile in a moment (each
case in a fresh process, with its own cache folder)."""

from __future__ import annotations

import json
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

#: a Quarto position whose solve checks the clock (tens of thousands of nodes): numba
#: compiles that check in every process, as it steps into Python and is never cached
SETUP = "a1=TLQH;d1=TLQF;d2=SLQH;d3=TLRF;a4=SDRF;d4=SDQH SLQF"

RUN = '''
import sys
from fourfold.cli import compile_notice
compile_notice.QUIET_SECONDS = float(sys.argv[1])
compile_notice.install()
assert "numba" not in sys.modules  # not imported for the notice
import kernels
print(kernels.twice(2) + kernels.thrice(1))
'''


def run(folder: Path, quiet: float = 0.0) -> subprocess.CompletedProcess[str]:
    """The two kernels called in a fresh process; a compile of ``quiet`` seconds or more
    (any, with 0) is said."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "cache"),
           "PYTHONPATH": os.pathsep.join([str(folder), *sys.path])}
    return subprocess.run([sys.executable, "-c", RUN, str(quiet)], cwd=folder, env=env, text=True,
                          capture_output=True, timeout=300, check=True)


def test_a_compile_is_announced_once_and_a_cache_load_not_at_all(tmp_path: Path) -> None:
    (tmp_path / "kernels.py").write_text(KERNELS)
    first = run(tmp_path)
    assert first.stdout.strip() == "7"
    assert first.stderr.count(NOTICE) == 1  # two kernels compiled, one line
    again = run(tmp_path)
    assert again.stdout.strip() == "7" and NOTICE not in again.stderr


def test_a_compile_over_in_a_moment_is_not_announced(tmp_path: Path) -> None:
    # as the solvers' clock check, which numba cannot cache, is compiled in every process
    (tmp_path / "kernels.py").write_text(KERNELS)
    done = run(tmp_path, quiet=600)
    assert done.stdout.strip() == "7" and NOTICE not in done.stderr


def test_a_solve_on_a_warm_cache_says_nothing_of_compiling() -> None:
    solve = [sys.executable, "-m", "fourfold.cli.main", "solve", "quarto", "--setup",
             SETUP, "--json"]
    # the first run fills numba's cache (the suite's own) if no test has yet
    first = subprocess.run(solve, text=True, capture_output=True, timeout=1200)
    assert first.returncode == 0, first.stderr
    warm = subprocess.run(solve, text=True, capture_output=True, timeout=600)
    assert warm.returncode == 0 and warm.stderr == "", warm.stderr
    assert json.loads(warm.stdout)["value"] == json.loads(first.stdout)["value"]


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
