"""The task runner's local executors (fourfold.distributed.executors): the same results
in this process and on a pool of processes, the tasks of a dead worker run again, and a
failing task stops the pool. (Dask runs are in test_distributed.py.)"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from fourfold.cli.main import main
from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.distributed import (
    DaskCluster,
    InProcess,
    LocalProcesses,
    executor_for,
    run_tasks,
)
from fourfold.distributed.executors import ALLOWED_FAILURES
from support.wait import wait_until


def cli(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue()


def test_the_flags_choose_the_executor() -> None:
    assert executor_for(None, 0) == InProcess()
    assert executor_for(None, 1) == InProcess()
    assert executor_for(None, 3) == LocalProcesses(3)
    assert executor_for("tcp://127.0.0.1:8786") == DaskCluster("tcp://127.0.0.1:8786")
    assert isinstance(executor_for(), LocalProcesses | InProcess)
    with pytest.raises(ConfigurationError, match="--workers starts local worker processes"):
        executor_for("tcp://127.0.0.1:8786", 2)


def test_match_and_tournament_are_identical_on_local_processes(tmp_path: Path) -> None:
    match = ["match", "quarto", "--bots", "random,greedy", "--games", "6", "--seed", "7",
             "--json"]
    assert cli(*match) == cli(*match, "--workers", "2")
    records = ["match", "folio", "--bots", "random,level1", "--games", "3", "--seed", "3"]
    cli(*records, "--records", str(tmp_path / "here.txt"))
    cli(*records, "--records", str(tmp_path / "pool.txt"), "--workers", "2")
    here = (tmp_path / "here.txt").read_bytes()
    assert here and here == (tmp_path / "pool.txt").read_bytes()
    tournament = ["tournament", "quarto", "--bots", "random,greedy,level1", "--games", "2",
                  "--seed", "11", "--json"]
    assert cli(*tournament) == cli(*tournament, "--workers", "2")


def dies_once(task: tuple[int, str]) -> int:
    """``n * n``; the first run of task 3 kills its worker in the middle."""
    n, folder = task
    marker = Path(folder) / f"{n}-ran"
    if n == 3 and not marker.exists():
        marker.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return n * n


def always_dies(task: tuple[int, str]) -> int:
    n, folder = task
    (Path(folder) / f"{n}-{os.getpid()}").touch()
    if n == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


def test_the_tasks_of_a_dead_worker_run_again(tmp_path: Path) -> None:
    tasks = [(n, str(tmp_path)) for n in range(8)]
    arrived: list[int] = []
    results = run_tasks(dies_once, tasks, workers=2, progress=False,
                        on_result=lambda i, _: arrived.append(i))
    assert results == [n * n for n in range(8)]
    assert (tmp_path / "3-ran").exists()  # it did die once
    assert sorted(arrived) == list(range(8))  # every task reported once


def test_a_task_that_kills_every_worker_is_given_up(tmp_path: Path) -> None:
    tasks = [(n, str(tmp_path)) for n in range(3)]
    with pytest.raises(FourfoldError, match=f"died {ALLOWED_FAILURES + 1} times"):
        run_tasks(always_dies, tasks, workers=2, progress=False)
    runs = [m for m in tmp_path.iterdir() if m.name.startswith("1-")]
    assert len(runs) == ALLOWED_FAILURES + 1


def fails_on_two(task: tuple[int, str]) -> int:
    n, folder = task
    (Path(folder) / f"{n}-{os.getpid()}").touch()
    if n == 2:
        raise ValueError("task 2 failed")
    return n


def test_a_failing_task_stops_the_run_and_its_workers(tmp_path: Path) -> None:
    tasks = [(n, str(tmp_path)) for n in range(4)]
    with pytest.raises(ValueError, match="task 2 failed"):
        run_tasks(fails_on_two, tasks, workers=2, progress=False)
    workers = {int(m.name.split("-")[1]) for m in tmp_path.iterdir()}
    assert os.getpid() not in workers
    for pid in workers:  # ended and reaped: no stray worker keeps running
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_a_resumed_local_run_takes_the_journaled_tasks(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    first = run_tasks(square, [1, 2, 3], workers=2, progress=False, journal=journal,
                      job={"job": "squares"})
    lines = journal.read_text().splitlines()
    assert first == [1, 4, 9] and len(lines) == 4
    again = run_tasks(square, [1, 2, 3], workers=2, progress=False, journal=journal,
                      job={"job": "squares"})
    assert again == first and journal.read_text().splitlines() == lines
    assert json.loads(lines[0]) == {"job": {"job": "squares"}}


def square(n: int) -> int:
    return n * n


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ctrl_c_ends_a_local_run_and_its_workers() -> None:
    command = [sys.executable, "-m", "fourfold.cli.main", "match", "folio", "--bots",
               "mcts,mcts", "--games", "40", "--workers", "2"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, preexec_fn=lambda: signal.signal(
                                   signal.SIGINT, signal.SIG_DFL))
    try:
        workers = wait_until(lambda: len(children(process.pid)) >= 2 and children(process.pid),
                             60, "two worker processes")
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, (out, err)
    assert "Traceback" not in err and err.strip().count("\n") == 0, err
    for pid in workers:
        assert wait_until(lambda pid=pid: not Path(f"/proc/{pid}").exists()
                          or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2:3],
                          10, f"worker {pid} to end")
