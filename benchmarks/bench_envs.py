"""Environment steps per second: ``python benchmarks/bench_envs.py [--quick] [--json]``.

The same measurements as ``fourfold bench --envs`` (``fourfold.bench.envs``): the vector
env on the numba kernels, the PettingZoo AEC env, PettingZoo's ``connect_four_v3`` and
Pgx's ``connect_four`` on CPU jax (skipped with a note without jax and pgx), all in one
run. Needs the ``research`` extra; Pgx needs ``pip install pgx==2.6.0 jax``.
"""

from __future__ import annotations

import argparse
import json

from fourfold.bench.envs import run_env_bench


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows, notes = run_env_bench(quick=args.quick)
    if args.json:
        print(json.dumps({"rows": [r.as_dict() for r in rows], "notes": notes}, indent=2))
    else:
        for r in rows:
            print(f"{r.game:18} {r.engine:24} {r.metric:12} {r.value:>14,.0f}")
        for note in notes:
            print(note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
