"""Quatrefoil's team with private cards: every figure of docs/solutions.md, exactly.

    .venv/bin/python benchmarks/quatrefoil_team.py [--face-up none colour position all]

For each way of showing cards, over every case (``games/quatrefoil/solver_team/cases``):
today's ``quatrefoil`` bots (on the one-start cases, or with ``--bots-every-deal`` on
the whole deal space, which their figure needs to be exact), the public-information
optimum's policy and the
``optimal`` bot's policy, each played by the exact evaluator, and the two proven lower
bounds (``games/quatrefoil/solver_team/bound``, and ``bound_first``, the tighter one),
with the gap. One JSON line per figure, then a table. Runs for about ten minutes on a
busy 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import time
from fractions import Fraction

from fourfold.games.quatrefoil.solver_team.bound import lower_bound
from fourfold.games.quatrefoil.solver_team.bound_first import first_exact_bound
from fourfold.games.quatrefoil.solver_team.cases import FACE_UP, every_deal
from fourfold.games.quatrefoil.solver_team.evaluate import bots_policy, evaluate, public_policy
from fourfold.games.quatrefoil.solver_team.policy import WEIGHTS, choose


def _frac(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator} = {float(f):.4f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--face-up", nargs="+", default=["none", "colour", "position"],
                        choices=FACE_UP)
    parser.add_argument("--bots-every-deal", action="store_true",
                        help="play today's bots on all 342,720 deals (they are not exactly"
                        " symmetric; about 10 minutes per row on a busy machine)")
    args = parser.parse_args()
    rows = []
    for face_up in args.face_up:
        figures = {}
        for name, policy in (("bots", bots_policy()), ("public", public_policy),
                             ("optimal", choose)):
            space = every_deal() if name == "bots" and args.bots_every_deal else None
            figure = evaluate(policy, face_up, space)
            figures[name] = figure
            print(json.dumps({"policy": name, **figure.as_dict()}), flush=True)
        began = time.perf_counter()
        b = lower_bound(face_up)
        print(json.dumps({"bound": face_up, "total": b.total, "cases": b.cases,
                          "seconds": round(time.perf_counter() - began, 1)}), flush=True)
        began = time.perf_counter()
        first = first_exact_bound(face_up)
        print(json.dumps({"first_exact_bound": face_up, "total": first.total,
                          "cases": first.cases,
                          "seconds": round(time.perf_counter() - began, 1)}), flush=True)
        rows.append((face_up, figures, b.value, first.value))
    print(f"\noptimal policy weights {WEIGHTS}")
    print("| face up | bots | public optimum | optimal bot | old bound | lower bound | gap |")
    print("|---|---|---|---|---|---|---|")
    for face_up, figures, old, value in rows:
        best = figures["optimal"].mean
        print(f"| {face_up} | {_frac(figures['bots'].mean)} | {_frac(figures['public'].mean)}"
              f" | {_frac(best)} | {_frac(old)} | {_frac(value)} | {_frac(best - value)} |")


if __name__ == "__main__":
    main()
