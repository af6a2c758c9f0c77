"""Ctrl-C during a compiled search stops it and surfaces as a clean KeyboardInterrupt.

The SIGINT handler would otherwise run inside numba's object-mode glue (the clock
read at each budget check) and come out as ``SystemError: ... returned a result
with an exception set``; ``fourfold.kernels.interrupt`` defers it to after the kernel.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator

import pytest

import fourfold
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.solver import SolveLimitReached, solve_position

pytestmark = pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")


@pytest.fixture
def default_sigint() -> Iterator[None]:
    """SIGINT raising KeyboardInterrupt, as in an interactive run (a test runner started
    in the background may have it ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def test_sigint_during_a_search_raises_keyboard_interrupt(
    default_sigint: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = fourfold.load("quarto")
    assert isinstance(game, PlacementGame)
    start = game.initial_state()
    state = game.next_state(start, game.legal_moves(start)[0])  # an hour's search
    real_clock = time.perf_counter
    reads = [0]

    def clock() -> float:
        # the kernel reads the clock every few thousand nodes: press Ctrl-C on the third
        reads[0] += 1
        if reads[0] == 3:
            signal.raise_signal(signal.SIGINT)
        return real_clock()

    monkeypatch.setattr(time, "perf_counter", clock)
    # no time limit (the search must notice Ctrl-C without a deadline); the node
    # budget only bounds the test should the interrupt go unnoticed
    with pytest.raises(KeyboardInterrupt):
        solve_position(game, state, nodes=20_000_000, table_bits=16)
    monkeypatch.undo()
    assert reads[0] >= 3
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    # the solver's arrays were left consistent: the next solve is right
    with pytest.raises(SolveLimitReached):
        solve_position(game, state, nodes=1000, table_bits=16)
    late = state
    for _ in range(12):
        late = game.next_state(late, game.legal_moves(late)[0])
        if game.outcome(late) is not None:
            break
    if game.outcome(late) is None:
        assert solve_position(game, late, table_bits=16).value in (-1, 0, 1)


CHILD = textwrap.dedent(
    """
    import signal, sys
    signal.signal(signal.SIGINT, signal.default_int_handler)
    import fourfold
    from fourfold.cli.main import main
    from fourfold.games.placement.solver import SolveLimitReached, solve_position
    game = fourfold.load("quarto")
    try:  # load the compiled kernel before the clock starts
        solve_position(game, game.initial_state(), nodes=1, table_bits=16)
    except SolveLimitReached:
        pass
    print("searching", file=sys.stderr, flush=True)

    # say when the compiled search has counted nodes: the kernel is running (it holds
    # the GIL, so this thread runs only at its clock reads, inside the search)
    import threading, time
    from fourfold.games.placement.solver import kernel, solver
    counters = []
    started = solver.Solver.start

    def start(self, seconds, nodes):
        started(self, seconds, nodes)
        counters.append(self.work.st)

    solver.Solver.start = start

    def watch():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if counters and counters[-1][kernel.NODES] > 0:
                print("in the search", file=sys.stderr, flush=True)
                return
            time.sleep(0.01)
        print("the search did not start in 60 s", file=sys.stderr, flush=True)

    threading.Thread(target=watch, daemon=True).start()
    sys.exit(main(["solve", "quarto", "--seconds", "120"]))
    """
)


def test_ctrl_c_during_fourfold_solve_exits_130_without_a_traceback() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stderr is not None
        line = child.stderr.readline()
        assert line.strip() == "searching", line + child.stderr.read()
        line = child.stderr.readline()  # the child says within 60 s
        assert line.strip() == "in the search", line
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert "Traceback" not in err and "SystemError" not in err, err
    assert "interrupted" in err
    assert child.returncode == 130
