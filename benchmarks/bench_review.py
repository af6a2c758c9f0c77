"""Time the review of one whole game of every two-player ruleset (docs/review.md).

    .venv/bin/python benchmarks/bench_review.py [--seconds S] [--iterations K]
        [--only GAME] [--bots A,B] [--json]

For each playable variant of each registered two-player game of perfect information,
one seeded game between level 3 (the greedy bot, or the game's own) and level 2 is
played, then reviewed with the given time per position (the solver's) and iterations
(an estimate's), as ``fourfold review`` does by default. Reported per ruleset: plies,
seconds for the whole review (after the solver's tables are prepared, timed apart),
and how many plies the solver valued exactly. The first review of a ruleset also pays
numba's compilation unless its cache holds the kernels: run twice, read the second run.

A game with its own review (``GameSolvers.review``: Quatrefoil) is played by level 3 on
every seat, the seats that may act taking turns (a real-time variant too), up to
``OWN_CAP`` actions (then the team gives up), and reviewed as ``fourfold review``
does; ``first_seconds`` is the first review of a ruleset in this process (Quatrefoil's
public-information search fills its memo then), ``review_seconds`` a second one.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

#: actions a game with its own review is played for at most (then the team gives up)
OWN_CAP = 60


def rulesets() -> list[tuple[str, str]]:
    from fourfold.core.registry import game_names, get_spec

    found = []
    for name in game_names():
        spec = get_spec(name)
        if spec.num_players != 2 or not spec.perfect_information:
            continue
        found += [(name, v.name) for v in spec.variants if not v.unavailable]
    return found


def own_rulesets() -> list[tuple[str, str]]:
    """The rulesets with a review of their own."""
    import fourfold
    from fourfold.analysis.review.own import own_review
    from fourfold.core.registry import game_names, get_spec

    found = []
    for name in game_names():
        for v in get_spec(name).variants:
            if not v.unavailable and own_review(fourfold.load(name, v.name)) is not None:
                found.append((name, v.name))
    return found


def measure_own(name: str, variant: str) -> dict[str, Any]:
    import fourfold
    from fourfold.ai import make_bot
    from fourfold.analysis.review.own import own_review
    from fourfold.core.match import Match
    from fourfold.core.outcome import Outcome, Result

    game = fourfold.load(name, variant)
    bots = [make_bot("level3", game, seat, 1) for seat in range(game.num_players)]
    match: Any = Match(game, game.initial_state(1))
    while match.outcome is None and len(match.moves) < OWN_CAP:
        actors = game.actors(match.state)
        seat = actors[len(match.moves) % len(actors)]
        match.play(bots[seat].choose(game.view(match.state, seat)))
    if match.outcome is None:
        match.declare(Outcome(Result.TEAM_LOSS, f"gave up after {OWN_CAP} actions"))
    own = own_review(game)
    assert own is not None
    start = time.perf_counter()
    own.review(match)
    first = time.perf_counter() - start
    start = time.perf_counter()
    own.review(match)
    took = time.perf_counter() - start
    return {"game": name, "variant": variant, "plies": len(match.moves),
            "review_seconds": round(took, 2), "first_seconds": round(first, 2),
            "seconds_per_ply": round(took / max(len(match.moves), 1), 3)}


def measure(name: str, variant: str, seconds: float, iterations: int,
            bots: tuple[str, str]) -> dict[str, Any]:
    import fourfold
    from fourfold.analysis.match import play_game
    from fourfold.analysis.review.assess import prepare
    from fourfold.analysis.review.review import review

    game = fourfold.load(name, variant)
    match = play_game(game, bots, seed=1, max_plies=400)
    start = time.perf_counter()
    prepare(game)
    prepared = time.perf_counter() - start
    start = time.perf_counter()
    found = review(match, seconds=seconds, iterations=iterations)
    took = time.perf_counter() - start
    exact = sum(1 for p in found.plies if p.source == "solver")
    return {"game": name, "variant": variant, "plies": len(found.plies),
            "review_seconds": round(took, 2), "prepare_seconds": round(prepared, 2),
            "seconds_per_ply": round(took / max(len(found.plies), 1), 3),
            "exact_plies": exact}


def main() -> int:
    from fourfold.analysis.review.assess import DEFAULT_ITERATIONS
    from fourfold.analysis.review.review import DEFAULT_SECONDS

    parser = argparse.ArgumentParser(description="Time the review of a whole game.")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS)
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--only", default=None, help="one game name")
    parser.add_argument("--bots", default="level3,level2", help="the two bots (level3,level2)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from fourfold.bench.solvers import machine

    a, _, b = args.bots.partition(",")
    rows = [measure(name, variant, args.seconds, args.iterations, (a, b))
            for name, variant in rulesets() if args.only in (None, name)]
    rows += [measure_own(name, variant) for name, variant in own_rulesets()
             if args.only in (None, name)]
    if args.json:
        print(json.dumps({"machine": machine(), "rows": rows}, indent=2))
        return 0
    print(f"machine: {machine()}")
    for r in rows:
        head = (f"{r['game']:>8} {r['variant']:<15} {r['plies']:>4} plies  "
                f"{r['review_seconds']:>7.1f} s ({r['seconds_per_ply']:.2f} s/ply, ")
        if "first_seconds" in r:
            print(f"{head}the first review {r['first_seconds']:.1f} s)")
        else:
            print(f"{head}{r['exact_plies']} exact; tables {r['prepare_seconds']:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
