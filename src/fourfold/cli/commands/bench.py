"""``fourfold bench [--quick] [--json]``: playout and search speed, rules vs kernels vs C."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.table import Table


def register(sub: Any) -> None:
    p = sub.add_parser("bench", help="measure playouts/s and alpha-beta nodes/s per ruleset")
    p.add_argument("--quick", action="store_true", help="shorter runs (about a minute)")
    p.add_argument("--json", action="store_true", help='print {"rows": [...]} as JSON')
    p.set_defaults(run=run)


def ratio_notes(rows: list[Any]) -> dict[tuple[str, str], str]:
    """Per (game, metric): kernel vs reference and kernel vs C, as text."""
    value = {(r.game, r.engine, r.metric): r.value for r in rows}
    notes: dict[tuple[str, str], str] = {}
    for game, engine, metric in value:
        if engine != "kernel":
            continue
        parts = []
        ref = value.get((game, "reference", metric))
        if ref:
            parts.append(f"{value[(game, engine, metric)] / ref:,.0f}x reference")
        c = value.get((game, "c", metric))
        if c:
            parts.append(f"{value[(game, engine, metric)] / c:.2f}x C")
        notes[(game, metric)] = ", ".join(parts)
    return notes


def run(args: argparse.Namespace) -> int:
    from fourfold.bench import run_bench

    console = Console(stderr=True)
    with console.status("benchmarking (compiles the kernels on first use)...") as status:

        def progress(row: Any) -> None:
            status.update(f"measured {row.game} {row.engine} {row.metric}")

        rows, notes = run_bench(quick=args.quick, on_row=progress)
    if args.json:
        print(json.dumps({"rows": [r.as_dict() for r in rows], "notes": notes}, indent=2))
        return 0
    ratios = ratio_notes(rows)
    table = Table(title="fourfold bench" + (" (quick)" if args.quick else ""))
    for column in ("ruleset", "metric", "engine", "per second", "ratio"):
        table.add_column(column, justify="right" if column in ("per second",) else "left")
    for r in rows:
        ratio = ratios.get((r.game, r.metric), "") if r.engine == "kernel" else ""
        table.add_row(r.game, r.metric, r.engine, f"{r.value:,.0f}", ratio)
    Console().print(table)
    for note in notes:
        print(note)
    return 0
