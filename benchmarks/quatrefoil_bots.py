"""Four Quatrefoil bots together, over many seeded deals per variant.

    .venv/bin/python benchmarks/quatrefoil_bots.py [--deals 10000] [--first-seed 1000000]

For each variant: the win rate, the mean number of actions (stack included), the
mean optimum (the fewest actions that win from the same start, from the solver),
and the worst game. Nothing to Hide must equal the optimum in every game; the script
counts the games where it does not. Turn-based timed games spend
``--seconds-per-action`` seconds of clock before each action; Dual games run in
simulated real time with reactions drawn from ``--reaction LO HI`` seconds (see
``fourfold.games.quatrefoil.bots_seat.play_dual``). The bots' one tuned constant (curiosity) was
tuned on seeds 0..2999, so the default seeds start at 1,000,000.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

import fourfold
from fourfold.core.outcome import Result
from fourfold.games.quatrefoil.bots_seat import play_dual, play_turns
from fourfold.games.quatrefoil.solver import optimum

CASES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("base", "base", {}),
    ("nothing-to-hide", "nothing-to-hide", {}),
    ("half-and-half (colour up)", "half-and-half", {"face-up": "colour"}),
    ("half-and-half (position up)", "half-and-half", {"face-up": "position"}),
    ("race-the-clock", "race-the-clock", {}),
    ("dual", "dual", {}),
    ("dual (clock)", "dual", {"clock": "true"}),
)


@dataclass
class Row:
    case: str
    deals: int
    wins: int
    mean_actions: float
    mean_optimum: float
    max_actions: int
    not_optimal: int
    clock_losses: int
    mean_refused: float
    mean_seconds: float
    wall_seconds: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.deals


Work = tuple[str, dict[str, Any], int, tuple[float, float], bool, int]


def _one(args: Work) -> list[Any]:
    variant, options, spa, reaction, read_actions, seed = args
    game = fourfold.load("quatrefoil", variant, **options)
    if game.dual:
        result = play_dual(game, seed, reaction=reaction)
    else:
        result = play_turns(game, seed, seconds_per_action=spa, read_actions=read_actions)
    outcome = result.outcome
    won = outcome is not None and outcome.result is Result.TEAM_WIN
    by_clock = outcome is not None and "clock" in outcome.reason
    best = optimum(result.state.start, result.state.deal.solution)
    return [won, result.actions, best, by_clock, result.refused, result.seconds]


def run_case(
    label: str, variant: str, options: dict[str, Any], deals: int, first_seed: int,
    spa: int, reaction: tuple[float, float], jobs: int, read_actions: bool = True,
) -> Row:
    started = time.perf_counter()
    work: list[Work] = [(variant, options, spa, reaction, read_actions, first_seed + i)
                        for i in range(deals)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_one, work, chunksize=250))
    else:
        results = [_one(w) for w in work]
    wins = sum(1 for r in results if r[0])
    actions = [r[1] for r in results]
    optima = [r[2] for r in results]
    return Row(
        case=label,
        deals=deals,
        wins=wins,
        mean_actions=statistics.fmean(actions),
        mean_optimum=statistics.fmean(optima),
        max_actions=max(actions),
        not_optimal=sum(1 for a, o, r in zip(actions, optima, results, strict=True)
                        if not r[0] or a != o),
        clock_losses=sum(1 for r in results if r[3]),
        mean_refused=statistics.fmean(r[4] for r in results),
        mean_seconds=statistics.fmean(r[5] for r in results),
        wall_seconds=time.perf_counter() - started,
    )


def table(rows: list[Row]) -> str:
    lines = [
        "| variant | deals | win rate | mean actions | mean optimum | worst | not optimal |"
        " clock losses | stale refusals/game | mean clock s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.case} | {r.deals} | {100 * r.win_rate:.2f}% | {r.mean_actions:.3f} |"
            f" {r.mean_optimum:.3f} | {r.max_actions} | {r.not_optimal} | {r.clock_losses} |"
            f" {r.mean_refused:.3f} | {r.mean_seconds:.1f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--first-seed", type=int, default=1_000_000)
    parser.add_argument("--seconds-per-action", type=int, default=5)
    parser.add_argument("--reaction", type=float, nargs=2, default=(1.0, 3.0))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--signals-only", action="store_true",
                        help="turn-based bots ignore what the other seats' actions reveal")
    parser.add_argument("--only", default=None, help="run only the cases whose label has this")
    parser.add_argument("--json", default=None, help="also write the rows to this JSON file")
    args = parser.parse_args(argv)
    rows = []
    for label, variant, options in CASES:
        if args.only and args.only not in label:
            continue
        row = run_case(label, variant, options, args.deals, args.first_seed,
                       args.seconds_per_action, tuple(args.reaction), args.jobs,
                       not args.signals_only)
        rows.append(row)
        print(f"{label}: {100 * row.win_rate:.2f}% wins, {row.mean_actions:.3f} actions"
              f" (optimum {row.mean_optimum:.3f}) in {row.wall_seconds:.1f}s",
              file=sys.stderr, flush=True)
    print(table(rows))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump([asdict(r) for r in rows], fh, indent=2)
    for r in rows:
        if r.case == "nothing-to-hide" and r.not_optimal:
            print(f"Nothing to Hide missed the optimum in {r.not_optimal} games",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
