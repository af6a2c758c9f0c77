"""Dask runs (fourfold.distributed): the same results on 1 and 2 workers, resumed
journals, and the tasks of a killed worker run again.

Two small ``LocalCluster``s (1 and 2 worker processes) are shared by the module;
the killed-worker test has a cluster of its own.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import logging
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

distributed = pytest.importorskip("distributed")

import cloudpickle  # noqa: E402  (installed with distributed)

from fourfold.cli.main import main  # noqa: E402
from fourfold.distributed import Journal, JournalError, run_tasks  # noqa: E402
from support.wait import wait_until  # noqa: E402

# the workers cannot import this test module: its task functions travel by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])

ROOT = Path(__file__).resolve().parent.parent
# Quarto with 8 pieces placed and one in hand: 56 moves, 56 subtree tasks of 0.1 s or less
QUARTO8 = "a1=SLRH;c1=TDQF;c2=SLQF;a3=TDRF;b3=TLRH;c3=SDQH;b4=SDQF;c4=SLRF SDRF"
SPLIT = ["solve", "quarto", "--setup", QUARTO8, "--split", "--json", "--table-bits", "16"]


def new_cluster(workers: int) -> Any:
    return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                    dashboard_address=":0", silence_logs=logging.ERROR)


@pytest.fixture(scope="module")
def clusters() -> Iterator[dict[int, str]]:
    """Scheduler addresses of a 1-worker and a 2-worker local cluster."""
    one, two = new_cluster(1), new_cluster(2)
    try:
        yield {1: one.scheduler_address, 2: two.scheduler_address}
    finally:
        one.close()
        two.close()


def cli(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue()


def without_seconds(value: Any) -> Any:
    """A split solve's JSON without its timings (node counts and values are kept)."""
    if isinstance(value, dict):
        return {k: without_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [without_seconds(v) for v in value]
    return value


# -- the same results on any number of workers ------------------------------------------------

def test_match_json_is_byte_identical_on_1_and_2_workers(clusters: dict[int, str]) -> None:
    args = ["match", "quarto", "--bots", "random,greedy", "--games", "8", "--seed", "7",
            "--json"]
    here = cli(*args)
    one = cli(*args, "--scheduler", clusters[1])
    two = cli(*args, "--scheduler", clusters[2])
    assert one == two == here
    assert json.loads(two)["games"] == 8


def test_match_records_are_identical(clusters: dict[int, str], tmp_path: Path) -> None:
    args = ["match", "folio", "--bots", "random,level1", "--games", "4", "--seed", "3"]
    cli(*args, "--records", str(tmp_path / "here.txt"))
    cli(*args, "--records", str(tmp_path / "two.txt"), "--scheduler", clusters[2])
    here = (tmp_path / "here.txt").read_bytes()
    assert here == (tmp_path / "two.txt").read_bytes()
    assert here


def test_tournament_json_is_byte_identical_on_1_and_2_workers(clusters: dict[int, str]) -> None:
    args = ["tournament", "quarto", "--bots", "random,greedy,level1", "--games", "2",
            "--seed", "11", "--json"]
    one = cli(*args, "--scheduler", clusters[1])
    two = cli(*args, "--scheduler", clusters[2])
    assert one == two == cli(*args)


def test_split_solve_is_identical_on_1_and_2_workers(clusters: dict[int, str]) -> None:
    one = json.loads(cli(*SPLIT, "--scheduler", clusters[1]))
    two = json.loads(cli(*SPLIT, "--scheduler", clusters[2]))
    here = json.loads(cli(*SPLIT, "--workers", "0"))
    assert without_seconds(one) == without_seconds(two) == without_seconds(here)
    assert one["nodes"] == two["nodes"] > 0
    # the same value as the solver in one piece
    whole = json.loads(cli("solve", "quarto", "--setup", QUARTO8, "--json"))
    assert one["value"] == {"win": 1, "draw": 0, "loss": -1}[whole["value"]]
    values = {m["move"]: m["value"] for m in whole["moves"]}
    for move in one["moves"]:
        assert move["low"] == move["high"] == {"win": 1, "draw": 0, "loss": -1}[
            values[move["move"]]]


def test_split_replies_and_beat_agree_with_the_values(clusters: dict[int, str],
                                                     tmp_path: Path) -> None:
    # Folio fixed-grid with 9 pieces placed: each move and each of its replies a task
    setup = random_folio_position(9, seed=5)
    base = ["solve", "folio", "-v", "fixed-grid", "--setup", setup, "--split", "--json",
            "--table-bits", "16"]
    values = json.loads(cli(*base, "--workers", "0"))
    replies = json.loads(cli(*base, "--replies", "--scheduler", clusters[2]))
    auto = json.loads(cli(*base, "--beat", "auto", "--scheduler", clusters[2]))
    assert values["value"] is not None
    assert replies["value"] == auto["value"] == values["value"]
    for a, b in zip(values["moves"], replies["moves"], strict=True):
        assert (a["low"], a["high"]) == (b["low"], b["high"])
    # values after --beat auto with the same journal: each bounded move needs one more test
    journal = ["--journal", str(tmp_path / "j.jsonl"), "--workers", "0"]
    cli(*base, "--beat", "auto", *journal)
    later = json.loads(cli(*base, *journal))
    assert [(m["low"], m["high"]) for m in later["moves"]] == [
        (m["low"], m["high"]) for m in values["moves"]]
    assert any(k.endswith("?") for m in later["moves"] for k in m.get("tasks", {}))


def random_folio_position(placed: int, seed: int) -> str:
    import fourfold
    from fourfold.games.placement.solver_bench import random_position

    game = fourfold.load("folio", "fixed-grid")
    return str(game.format_position(random_position(game, placed, seed)))


# -- journals: a stopped job resumes --------------------------------------------------------

def test_a_killed_split_solve_resumes_from_its_journal(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    command = [sys.executable, "-m", "fourfold.cli.main", *SPLIT, "--workers", "0",
               "--journal", str(journal)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: process.poll() is not None
                   or (journal.exists() and len(journal.read_text().splitlines()) >= 6),
                   60, "five finished tasks in the journal")
        assert process.poll() is None, "the solve ended before it could be killed"
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    before = journal.read_text().splitlines()
    finished = [json.loads(line)["key"] for line in before[1:] if line.endswith("}")]
    assert 5 <= len(finished) < 56

    resumed = json.loads(cli(*SPLIT, "--workers", "0", "--journal", str(journal)))
    after = journal.read_text().splitlines()
    keys = [json.loads(line)["key"] for line in after[1:]]
    assert after[:len(finished) + 1] == before[:len(finished) + 1]  # kept, not recomputed
    assert len(keys) == len(set(keys)) == 56
    fresh = json.loads(cli(*SPLIT, "--workers", "0"))
    assert without_seconds(resumed) == without_seconds(fresh)

    # run again: nothing left to do, the same answer from the journal alone
    again = json.loads(cli(*SPLIT, "--workers", "0", "--journal", str(journal)))
    assert again == resumed
    assert journal.read_text().splitlines() == after


def test_a_journal_of_another_job_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    Journal(path, {"job": "a"}).record("x", 1)
    with pytest.raises(JournalError, match="another job"):
        Journal(path, {"job": "b"})
    # a last line cut short by a crash is dropped; the task runs again
    with path.open("a") as f:
        f.write('{"key": "y", "res')
    journal = Journal(path, {"job": "a"})
    assert "x" in journal and "y" not in journal
    assert run_tasks(square, [1, 2, 3], keys=["x", "y", "z"], workers=0, progress=False,
                     journal=journal) == [1, 4, 9]  # x comes from the journal: 1


def square(n: int) -> int:
    return n * n


def test_a_task_stopped_by_the_deadline_is_not_journaled(tmp_path: Path) -> None:
    import fourfold
    from fourfold.distributed.config import GameConfig
    from fourfold.games.placement.solver.split import SplitTask, finished, solve_task

    game = fourfold.load("quarto")
    task = SplitTask(GameConfig.of(game), game.format_position(game.initial_state()), ("SLQF",),
                     None, 16, deadline=time.time() - 1)
    result = solve_task(task)
    assert result["stopped"] and not finished(result)


def test_a_task_stopped_by_its_limit_goes_on_from_its_saved_table(tmp_path: Path) -> None:
    import fourfold
    from fourfold.distributed.config import GameConfig
    from fourfold.games.placement.solver.split import SplitTask, solve_task, table_name

    game = fourfold.load("folio", "fixed-grid")
    setup = random_folio_position(4, seed=4000)
    config = GameConfig.of(game)
    whole = solve_task(SplitTask(config, setup, (), None, 18))
    assert whole["nodes"] > 20_000
    stopped = solve_task(SplitTask(config, setup, (), None, 18, limit=whole["seconds"] / 20,
                                   table_dir=str(tmp_path)))
    assert stopped["stopped"]
    saved = tmp_path / table_name("")
    assert saved.exists()
    resumed = solve_task(SplitTask(config, setup, (), None, 18, table_dir=str(tmp_path)))
    assert (resumed["low"], resumed["high"]) == (whole["low"], whole["high"])
    assert resumed["nodes"] < whole["nodes"]
    assert not saved.exists()  # a finished task's table is removed


# -- a worker that dies has its tasks run again -------------------------------------------------

def gated_sample(seed: int, gate: str) -> list[float]:
    """A seeded result that holds its worker in the middle of the task: it leaves a
    marker (``<seed>-<process id>``), then waits until the test opens the gate."""
    folder = Path(gate)
    (folder / f"{seed}-{os.getpid()}").touch()
    deadline = time.monotonic() + 60
    while not (folder / "open").exists():
        if time.monotonic() > deadline:
            raise TimeoutError("the test never opened the gate")
        time.sleep(0.01)
    return slow_sample_fast(seed)


def test_tasks_of_a_killed_worker_are_run_again(tmp_path: Path) -> None:
    seeds = list(range(100, 116))
    gate = tmp_path / "gate"
    gate.mkdir()
    cluster = new_cluster(2)
    try:
        client = distributed.Client(cluster)
        pids = client.run(os.getpid)
        client.close()
        assert len(pids) == 2
        victim = sorted(pids.values())[0]

        def started_by(pid: int) -> set[str]:
            return {m.name.split("-")[0] for m in gate.iterdir()
                    if m.name != "open" and m.name.split("-")[1] == str(pid)}

        journal = tmp_path / "run.jsonl"
        with ThreadPoolExecutor(1) as pool:
            future = pool.submit(run_tasks, functools.partial(gated_sample, gate=str(gate)),
                                 seeds, scheduler=cluster.scheduler_address,
                                 progress=False, journal=journal, job={"test": "kill"})
            try:  # kill the victim in the middle of a task, then let every task finish
                lost = wait_until(lambda: started_by(victim), 60,
                                  "the victim worker in the middle of a task")
                os.kill(victim, signal.SIGKILL)
            finally:
                (gate / "open").touch()
            results = future.result(timeout=90)
        with pytest.raises(ProcessLookupError):
            os.kill(victim, 0)  # it did die
        assert results == [slow_sample_fast(s) for s in seeds]
        rerun = {m.name.split("-")[0] for m in gate.iterdir()
                 if m.name != "open" and m.name.split("-")[1] != str(victim)}
        assert lost <= rerun, (lost, rerun)  # the task it held ran again elsewhere
        keys = [json.loads(line)["key"] for line in journal.read_text().splitlines()[1:]]
        assert sorted(keys, key=int) == [str(i) for i in range(16)]
    finally:
        cluster.close()


def slow_sample_fast(seed: int) -> list[float]:
    rng = random.Random(seed)
    return [rng.random() for _ in range(3)]


@pytest.mark.parametrize("argv, message", [
    (["solve", "dao", "--split"], "--split solves Folio and Quarto"),
    (["solve", "quarto", "--journal", "x.jsonl"], "--journal goes with --split"),
    (["solve", "quarto", "--split", "--move", "XX"], "'XX' is not a legal move"),
    (["solve", "quarto", "--split", "--replies", "--beat", "0"], "cannot be used with --replies"),
    (["match", "quarto", "--bots", "random,random", "--workers", "2", "--scheduler",
      "tcp://127.0.0.1:1"], "--workers starts local worker processes"),
    (["analyze", "dao", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
     "--workers starts local worker processes"),
])
def test_clear_refusals(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
                        ) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_analyze_on_a_cluster_gives_the_report_of_one_process(
        clusters: dict[int, str], tmp_path: Path) -> None:
    args = ["analyze", "dao", "--games", "2", "--levels", "level1,level2", "--playouts", "0",
            "--solve-seconds", "0", "--json"]
    here = json.loads(cli(*args, "--workers", "1", "-o", str(tmp_path / "a.html")))
    there = json.loads(cli(*args, "--scheduler", clusters[2], "-o", str(tmp_path / "b.html")))
    here.pop("command", None)
    there.pop("command", None)
    assert here == there
