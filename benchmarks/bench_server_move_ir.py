"""The server's own work per move in instructions: what a busy machine cannot disturb.

    python benchmarks/bench_server_move_ir.py [--tables 100] [--moves 600] [--source DIR]

The work of ``benchmarks/bench_server_move.py`` (two-seat Quarto tables on a fresh
SQLite hub, two connections per table whose outboxes are drained, random legal moves
through ``LiveTable.act`` round robin, a finished game replaced by a new table),
run under ``valgrind --tool=callgrind`` with instrumentation off until the tables are
made and 200 moves are played; then ``callgrind_control`` turns it on for
``--moves`` moves only. Prints the instructions (``Ir``) per move, new tables
included. Deterministic for one tree (``PYTHONHASHSEED=0``, seeded moves), so two
trees compare on a machine shared with other work, where CPU time does not
(``--source DIR``: run another tree's ``src``, e.g. a ``git archive`` export). Needs
valgrind; takes minutes (the set-up runs under valgrind too).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WARM_MOVES = 200


def worker(tables_n: int, moves_n: int, signals: Path) -> None:
    """Under valgrind: set up, play ``WARM_MOVES``, say READY, wait for ``go``, play
    ``moves_n``, say DONE, wait for ``stop``."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_server_move import MoveLoop

    def wait_for(name: str) -> None:
        deadline = time.monotonic() + 1800
        while not (signals / name).exists() and time.monotonic() < deadline:
            time.sleep(0.2)

    bench = MoveLoop("quarto", tables_n, 1)
    bench.play(WARM_MOVES)
    print(f"READY {os.getpid()}", flush=True)
    wait_for("go")
    bench.play(moves_n)
    print("DONE", flush=True)
    wait_for("stop")
    os._exit(0)  # nothing more to count


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--moves", type=int, default=600)
    p.add_argument("--source", default=None, metavar="DIR")
    p.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        worker(args.tables, args.moves, Path(args.worker))
        return 0
    if not 1 <= args.tables <= 2000 or not 1 <= args.moves <= 100_000:
        p.error("--tables is 1 to 2000 and --moves 1 to 100000")
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("valgrind (callgrind) is not installed", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="fourfold-bench-ir-"))
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if args.source:
        env["PYTHONPATH"] = str(Path(args.source).resolve())
    log = folder / "worker.log"
    child: subprocess.Popen[bytes] | None = None
    try:
        with log.open("wb") as out:
            child = subprocess.Popen(
                ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                 f"--callgrind-out-file={folder / 'callgrind.out'}", sys.executable,
                 __file__, "--worker", str(folder), "--tables", str(args.tables),
                 "--moves", str(args.moves)], stdout=out, stderr=subprocess.STDOUT, env=env)

        def wait_line(pattern: str) -> re.Match[str]:
            deadline = time.monotonic() + 3600
            while time.monotonic() < deadline:
                found = re.search(pattern, log.read_text(errors="replace"))
                if found:
                    return found
                if child is None or child.poll() is not None:
                    raise RuntimeError(f"the worker exited: {log.read_text()[-2000:]}")
                time.sleep(1)
            raise RuntimeError(f"no {pattern!r} from the worker in an hour")

        pid = wait_line(r"READY (\d+)").group(1)
        subprocess.run(["callgrind_control", "-i", "on", pid], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        (folder / "go").touch()
        wait_line(r"DONE")
        subprocess.run(["callgrind_control", "-i", "off", pid], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        (folder / "stop").touch()
        child.wait(600)
        total = int(wait_line(r"Collected : (\d+)").group(1))
        print(f"quarto: {args.tables} tables, {args.moves} moves: {total / args.moves:,.0f}"
              f" instructions per move (callgrind Ir, new tables included)")
    finally:
        if child is not None and child.poll() is None:
            child.kill()
            child.wait(60)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
