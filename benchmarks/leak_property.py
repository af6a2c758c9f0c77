"""The leak property of every hidden-information ruleset, by the hundred thousand cases.

    .venv/bin/python benchmarks/leak_property.py --cases 100000 [--seed 0] [--start 0]
        [--max-seconds 3600] [--jobs 2]

Runs the cases of ``tests/test_conformance_leaks.py`` (``tests/support/leak_harness.py``):
for every Quatrefoil ruleset and every recipient, a deal, a script of attempted
actions, a twin deal that agrees on all the recipient may know, two tables, and a
byte-for-byte comparison of everything the recipient is sent. Case ``i`` is fully
determined by ``--seed`` and ``i``, so a long run can be done in pieces with
``--start`` (case numbers ``start .. start + cases - 1``). Stops at ``--cases`` or
``--max-seconds``, whichever comes first, and prints the count per ruleset and the
time; exits 1 on the first leak, naming the case to replay.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support.leak_harness import RECIPIENTS, RULESETS, CaseResult, run_case

PAIRS = [(label, recipient) for label, _, _ in RULESETS for recipient in RECIPIENTS]
CHUNK = 200


def case(seed: int, i: int) -> CaseResult:
    label, recipient = PAIRS[i % len(PAIRS)]
    return run_case(label, recipient, seed * 1_000_000_007 + i)


def chunk(seed: int, first: int, count: int, deadline: float) -> list[tuple[int, CaseResult]]:
    out = []
    for i in range(first, first + count):
        if time.time() > deadline:
            break
        out.append((i, case(seed, i)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=3 * 3600)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.cases < 1 or args.start < 0 or args.jobs < 1:
        parser.error("--cases and --jobs must be positive and --start not negative")
    began = time.time()
    deadline = began + args.max_seconds
    counts: Counter[tuple[str, str]] = Counter()
    done = 0
    failures: list[str] = []
    starts = range(args.start, args.start + args.cases, CHUNK)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(chunk, args.seed, first,
                               min(CHUNK, args.start + args.cases - first), deadline)
                   for first in starts]
        for future in futures:
            for i, result in future.result():
                done += 1
                kind = ("leak" if result.failure else "no twin" if not result.compared
                        else "trivial" if result.trivial else "compared")
                counts[(result.label, kind)] += 1
                if result.failure:
                    failures.append(f"case {i} (--seed {args.seed} --start {i} --cases 1):"
                                    f" {result.failure}")
            if failures:
                for f in futures:
                    f.cancel()
                break
    elapsed = time.time() - began
    print(f"cases {args.start}..{args.start + done - 1} (seed {args.seed}): {done} cases"
          f" in {elapsed:.1f} s ({done / max(elapsed, 1e-9):.0f}/s, {args.jobs} jobs)")
    print(f"{'ruleset':26} {'cases':>7} {'twin≠deal':>10} {'trivial':>8} {'no twin':>8}"
          f" {'leaks':>6}")
    for label, _, _ in RULESETS:
        row = [counts[(label, k)] for k in ("compared", "trivial", "no twin", "leak")]
        print(f"{label:26} {sum(row):7} {row[0]:10} {row[1]:8} {row[2]:8} {row[3]:6}")
    for f in failures:
        print("LEAK", f)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
