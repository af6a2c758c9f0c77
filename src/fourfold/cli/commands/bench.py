"""``fourfold bench [--quick] [--json]``: playout and search speed, rules vs kernels vs C.

``fourfold bench --solvers [--quick] [--json]`` times the exact solvers instead, on
fixed seeded position sets (``fourfold.bench.solvers``).

``fourfold bench --envs [--quick] [--json]`` measures environment steps per second: the
vectorised env, the PettingZoo AEC env, and PettingZoo's and Pgx's connect four, all in
the same run (``fourfold.bench.envs``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from fourfold.bench.timing import paired_ratios


def register(sub: Any) -> None:
    p = sub.add_parser("bench", help="measure playouts/s and alpha-beta nodes/s per ruleset")
    p.add_argument("--quick", action="store_true", help="shorter runs (about a minute)")
    p.add_argument("--json", action="store_true",
                   help='print {"rows": [...]} (with --solvers: {"solvers": [...]}) as JSON')
    p.add_argument("--solvers", action="store_true",
                   help="time the solvers on fixed position sets instead (a few minutes;"
                        " --quick: about a minute)")
    p.add_argument("--envs", action="store_true",
                   help="measure RL environment steps/s instead (vector env, AEC env,"
                        " PettingZoo and Pgx connect four)")
    p.set_defaults(run=run)


def ratio_notes(rows: list[Any]) -> dict[tuple[str, str], str]:
    """Per (game, metric): kernel vs reference and kernel vs C, as text. Against C: the
    ratio of the best runs per wall-clock second, of the best per CPU second, and the
    lowest and highest ratio of one round (both ran in the same rounds, interleaved)."""
    by_key = {(r.game, r.engine, r.metric): r for r in rows}
    notes: dict[tuple[str, str], str] = {}
    for (game, engine, metric), row in by_key.items():
        if engine != "kernel":
            continue
        parts = []
        ref = by_key.get((game, "reference", metric))
        if ref is not None and ref.value:
            parts.append(f"{row.value / ref.value:,.0f}x reference")
        c = by_key.get((game, "c", metric))
        if c is not None and c.value:
            detail = []
            if row.cpu and c.cpu:
                detail.append(f"per CPU s {row.cpu / c.cpu:.2f}x")
            if row.runs and c.runs:
                low, high = paired_ratios(row.cpu_runs, c.cpu_runs)
                detail.append(f"rounds {low:.2f}-{high:.2f}x")
            parts.append(f"{row.value / c.value:.2f}x C"
                         + (f" ({', '.join(detail)})" if detail else ""))
        notes[(game, metric)] = ", ".join(parts)
    return notes


def _measure(
    what: str, bench: Callable[..., tuple[list[Any], list[str]]], quick: bool,
    label: Callable[[Any], str],
) -> tuple[list[Any], list[str]]:
    """``(rows, notes)`` of one bench, with a status line naming each row as it lands."""
    with Console(stderr=True).status(what) as status:
        return bench(quick=quick, on_row=lambda row: status.update(f"measured {label(row)}"))


def _print_json(rows: list[Any], notes: list[str]) -> int:
    print(json.dumps({"rows": [r.as_dict() for r in rows], "notes": notes}, indent=2))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.solvers:
        return run_solvers(args)
    if getattr(args, "envs", False):
        return run_envs(args)
    from fourfold.bench import run_bench

    rows, notes = _measure("benchmarking (compiles the kernels on first use)...", run_bench,
                           args.quick, lambda r: f"{r.game} {r.engine} {r.metric}")
    if args.json:
        return _print_json(rows, notes)
    ratios = ratio_notes(rows)
    table = Table(title="fourfold bench" + (" (quick)" if args.quick else ""),
                  caption="best of the interleaved rounds; median and worst per wall-clock"
                          " second; per CPU s: the best per second of CPU time")
    for column in ("ruleset", "metric", "engine", "best /s", "median", "worst", "per CPU s",
                   "ratio"):
        table.add_column(column, justify="left" if column in ("ruleset", "metric", "engine",
                                                              "ratio") else "right")
    for r in rows:
        ratio = ratios.get((r.game, r.metric), "") if r.engine == "kernel" else ""
        table.add_row(r.game, r.metric, r.engine, f"{r.value:,.0f}", _figure(r.median),
                      _figure(r.low), _figure(r.cpu), ratio)
    # the rows need about 170 columns: piped output is not cut to 80
    Console(width=None if sys.stdout.isatty() else 180).print(table)
    for note in notes:
        print(note)
    return 0


def _figure(value: float | None) -> str:
    return "" if value is None else f"{value:,.0f}"


def run_solvers(args: argparse.Namespace) -> int:
    """Every solver set (``fourfold.bench.solvers``): a table, or JSON with ``--json``."""
    from fourfold.bench import solvers

    console = Console(stderr=True)
    before = solvers.machine()
    with console.status("solving (loads the solver kernels first)...") as status:

        def finished(row: solvers.SolverRow) -> None:
            console.log(f"{row.set}: {row.positions} positions in {row.seconds:.2f} s")

        rows = solvers.run_solver_bench(quick=args.quick, on_progress=status.update,
                                        on_row=finished)
    after = solvers.machine()
    if args.json:
        print(json.dumps({"machine": before, "load_average_after": after["load_average"],
                          "solvers": [r.as_dict() for r in rows]}, indent=2))
        return 0
    table = Table(title="fourfold bench --solvers" + (" (quick)" if args.quick else ""),
                  caption=f"{solvers.machine_text(before)} (after: {after['load_average']})")
    table.add_column("set", no_wrap=True)
    for column in ("positions", "seconds", "mean s", "max s", "nodes", "nodes/s"):
        table.add_column(column, justify="right")
    table.add_column("values")
    table.add_column("checksum", no_wrap=True)
    for r in rows:
        rate = r.nodes_per_s
        table.add_row(
            r.set, f"{r.positions:,}", f"{r.seconds:.2f}", f"{r.mean_seconds:.3f}",
            f"{r.max_seconds:.3f}", "-" if r.nodes is None else f"{r.nodes:,}",
            "-" if rate is None else f"{rate:,.0f}",
            ", ".join(f"{n:,} {v}" for v, n in r.values.items()), r.checksum,
        )
    # the rows need about 150 columns: piped output is not cut to 80
    Console(width=None if sys.stdout.isatty() else 160).print(table)
    print("nodes: alpha-beta nodes (quarto, folio), proof-search nodes (icedao), table"
          " look-ups (dao-probe); the Dao build counts none (time only)")
    return 0


def run_envs(args: argparse.Namespace) -> int:
    """Environment steps per second (``fourfold.bench.envs``): a table, or JSON."""
    from fourfold.bench.envs import run_env_bench

    rows, notes = _measure("measuring environments (compiles the kernels on first use)...",
                           run_env_bench, args.quick, lambda r: f"{r.game} {r.engine}")
    if args.json:
        return _print_json(rows, notes)
    table = Table(title="fourfold bench --envs" + (" (quick)" if args.quick else ""))
    for column in ("game", "engine", "metric", "per second"):
        table.add_column(column, justify="right" if column == "per second" else "left")
    for r in rows:
        table.add_row(r.game, r.engine, r.metric, f"{r.value:,.0f}")
    Console().print(table)
    for note in notes:
        print(note)
    return 0
