"""Play the level ladder of one ruleset: each level against the one below, and 5 against 1.

    python benchmarks/level_matches.py folio --variant fixed-grid --games 200 --seed 1 \
        --out results.jsonl

Each finished match appends one JSON line (``fourfold.analysis.MatchResult.summary``
plus the ruleset and the wall time); a progress line per game goes to stderr.
This is the measurement behind the level table in docs/bots.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import fourfold
from fourfold.analysis import play_match

PAIRS = (("level2", "level1"), ("level3", "level2"), ("level4", "level3"),
         ("level5", "level4"), ("level5", "level1"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--variant", default=None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", default=None, help="e.g. level2:level1,level5:level1")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    game = fourfold.load(args.game, args.variant)
    pairs = PAIRS
    if args.pairs:
        pairs = tuple(tuple(p.split(":")) for p in args.pairs.split(","))  # type: ignore[misc]
    for a, b in pairs:
        start = time.time()

        def progress(one: object, result: object, a: str = a, b: str = b) -> None:
            r = result  # MatchResult
            print(f"{game.info.label()} {a}-{b}: +{r.wins} ={r.draws} -{r.losses}",  # type: ignore[attr-defined]
                  file=sys.stderr, flush=True)

        result = play_match(game, a, b, args.games, args.seed, on_game=progress)
        row = {"game": args.game, "variant": game.info.variant, **result.summary(),
               "seconds": round(time.time() - start, 1)}
        with open(args.out, "a", encoding="utf-8") as out:
            out.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
