"""What ``fourfold serve`` says while its warm-up compiles hint kernels (the first start
after an install or upgrade). It used to promise "about a minute", which took over five
on a busy machine (4 min 45 s here at load 7-13, 12 rulesets); now it says what it is
doing, then each ruleset as its kernels are compiled (how many, how long, how many
rulesets of how many), then the whole warm-up's time; ``GET /api/warm-up`` counts the
rulesets done of the total.

Compiling every kernel takes minutes, so the real server here compiles one kernel of
its own: a plugin game (``FOURFOLD_GAMES``, made in the test's folder from
``tests/plugin_game``) whose solver calls a numba kernel cached beside it, so cold in
every run; the other rulesets load from numba's cache as the rest of the suite left it.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import httpx
import pytest

import fourfold
from support.server import Server
from support.wait import wait_until

TESTS = Path(__file__).resolve().parent
#: one ruleset's line
READY = re.compile(r"^fourfold serve: warm-up: (.+): (\d+) kernel\(s\) compiled in (\d+ s|\d+"
                   r" min \d+ s) \((\d+) of (\d+) rulesets, (\d+ s|\d+ min \d+ s) so far\)$",
                   re.MULTILINE)

PLUGIN = {
    "__init__.py": '''
from fourfold.core.spec import GameSpec
from plugin_game.game import NoughtsGame

SPEC = GameSpec(package=__name__, name="coldnoughts", title="Cold noughts",
                summary="noughts and crosses whose solver first calls a kernel of its own",
                factory=NoughtsGame)
''',
    "solver_hooks.py": '''
import numba

from fourfold.solve.position import GameSolvers, SolverEntry
from plugin_game.solver_hooks import solve as noughts


@numba.njit(cache=True)
def _kernel(x):
    return x + 1


def solve(game, state, seconds):
    _kernel(1)
    return noughts(game, state, seconds)


SOLVERS = GameSolvers(positions=(SolverEntry(solve, None, "a kernel, then noughts' solver"),))
''',
    "text.py": "from plugin_game.text import PRESENTER  # noqa: F401\n",
    "svg.py": "from plugin_game.svg import DRAWER  # noqa: F401\n",
    "observe.py": "from plugin_game.observe import OBSERVATION  # noqa: F401\n",
}


def built_in() -> set[str]:
    return {fourfold.load(name, v.name).info.label() for name in fourfold.game_names()
            for v in fourfold.get_spec(name).variants if v.unavailable is None}


def test_a_start_that_compiles_says_what_it_compiles_as_it_goes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rulesets = {*built_in(), "coldnoughts (standard)"}
    package = tmp_path / "plugins" / "coldnoughts"
    package.mkdir(parents=True)
    for name, text in PLUGIN.items():
        (package / name).write_text(text.lstrip())
    shutil.copy(TESTS / "plugin_game" / "rules.md", package / "rules.md")
    monkeypatch.setenv("FOURFOLD_GAMES", "coldnoughts")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(package.parent), str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])]))
    server = Server(tmp_path, extra=("--warm-up",), own_group=True).start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            done = wait_until(lambda: (s := http.get("/api/warm-up").json())["state"]
                              != "running" and s, seconds=900, what="the warm-up to end",
                              every=0.5)
        assert done["state"] == "done", done
        assert done["total"] == len(rulesets) and set(done["rulesets"]) == rulesets
        out = server.output()
        assert "about a minute" not in out, out
        assert ("fourfold serve: warm-up: compiling the hint kernels numba's cache did not"
                " hold (after an install or upgrade: all of them, minutes on a busy"
                " machine)") in out, out
        told = {m.group(1): m.groups() for m in READY.finditer(out)}
        assert "coldnoughts (standard)" in told, out
        _, kernels, _, place, total, _ = told["coldnoughts (standard)"]
        assert int(kernels) >= 1 and int(place) == int(total) == len(rulesets)
        assert re.search(r"^fourfold serve: warm-up: done in (\d+ s|\d+ min \d+ s): hints"
                         r" are at full speed now$", out, re.MULTILINE), out
    finally:
        code = server.ctrl_c()
    assert code == 0 and "Traceback" not in server.output(), server.output()

