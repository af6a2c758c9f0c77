"""Time per grid-fitting check (Folio freeform) for 2..16 pieces.

    python benchmarks/bench_fit.py [--positions N] [--seed S]

For each number of pieces it times ``fitting.fit`` on three kinds of positions:
``fit``   pieces near cell centres of a random turned, scaled, moved grid on the
          table (errors up to half the tolerance);
``edge``  the same with errors up to the full tolerance (still fitting);
``none``  a fitting position with one piece moved half a cell (mostly unfittable:
          the search must rule out every assignment).
It prints milliseconds per check (wall-clock mean and worst, and mean CPU time,
which a busy machine disturbs less) and how many positions fitted.
"""

from __future__ import annotations

import argparse
import cmath
import math
import random
import time

from fourfold.games.folio.freeform.fitting import TOLERANCE, Point, fit

CELLS = [(c, r) for c in range(4) for r in range(4)]


def position(rng: random.Random, n: int, jitter: float) -> list[Point]:
    return scaled_position(rng, n, jitter)[0]


def scaled_position(rng: random.Random, n: int, jitter: float) -> tuple[list[Point], float]:
    while True:
        s = rng.uniform(1.0, 2.2)
        z = s * cmath.exp(1j * rng.uniform(0, 2 * math.pi))
        origin = complex(rng.uniform(-9, 5), rng.uniform(-9, 5))
        pts = [
            origin + z * complex(c + 0.5, r + 0.5)
            + cmath.rect(rng.uniform(0, jitter * TOLERANCE * s), rng.uniform(0, 2 * math.pi))
            for c, r in rng.sample(CELLS, n)
        ]
        first = pts[0]
        corners = [origin - first + z * k for k in (0, 4, 4j, 4 + 4j)]
        if all(max(abs(c.real), abs(c.imag)) <= 7.75 for c in corners):
            return [(p.real - first.real, p.imag - first.imag) for p in pts], s


def moved(rng: random.Random, n: int) -> list[Point]:
    pts, scale = scaled_position(rng, n, 0.5)
    k = rng.randrange(1, n)
    step = cmath.rect(0.5 * scale, rng.uniform(0, 2 * math.pi))
    pts[k] = (pts[k][0] + step.real, pts[k][1] + step.imag)
    return pts


def measure(positions: list[list[Point]]) -> tuple[float, float, float, int]:
    """Mean wall-clock ms, worst wall-clock ms, mean CPU ms per check, and how many fitted."""
    times = []
    fitted = 0
    cpu_start = time.process_time()
    for pts in positions:
        start = time.perf_counter()
        grid = fit(pts)
        times.append(time.perf_counter() - start)
        fitted += grid is not None
    cpu = (time.process_time() - cpu_start) / len(positions)
    return 1000 * sum(times) / len(times), 1000 * max(times), 1000 * cpu, fitted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200, help="positions per row")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    count = args.positions
    print(f"ms per check, {count} positions each: wall-clock mean / worst, CPU mean,"
          " (how many fitted)")
    print(f"{'pieces':>6}  {'fit':>29}  {'edge':>29}  {'none':>29}")
    for n in range(2, 17):
        cells = []
        for kind in ("fit", "edge", "none"):
            if kind == "fit":
                positions = [position(rng, n, 0.5) for _ in range(count)]
            elif kind == "edge":
                positions = [position(rng, n, 1.0) for _ in range(count)]
            else:
                positions = [moved(rng, n) for _ in range(count)]
            mean, worst, cpu, fitted = measure(positions)
            cells.append(f"{mean:5.2f} / {worst:5.2f} {cpu:5.2f} ({fitted:3d})")
        print(f"{n:>6}  {'  '.join(cells)}", flush=True)


if __name__ == "__main__":
    main()
