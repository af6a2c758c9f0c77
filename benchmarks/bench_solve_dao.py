"""Build the classic Dao table from scratch and print its figures (docs/solutions.md).

    .venv/bin/python benchmarks/bench_solve_dao.py [--json]

``fourfold.games.dao.solver.benchmark`` builds twice into a fresh temporary cache (the
first build includes numba's compilation unless numba's own cache holds the
kernels; the second is the pure build), stores and reloads the table through the
cache, and reports build times, the start value with every opening move, the
counts of won/lost/drawn positions and the longest forced win. This script adds
the machine. ``fourfold bench --solvers`` times the build alone (and table probes).
"""

from __future__ import annotations

import argparse
import json


def main() -> int:
    parser = argparse.ArgumentParser(description="Build and measure the classic Dao table.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from fourfold.bench.solvers import machine
    from fourfold.games.dao import solver as dao

    report = {"machine": machine(), **dao.benchmark()}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
