"""Write tests/data/quarto_outside_positions.json: seeded Quarto (and Folio fixed-grid)
positions with their value and distance found by the outside solver
(tests/support/quarto_outside.c, a plain negamax written from the rules that shares no
code with fourfold's solvers). tests/test_solve_quarto_outside.py checks fourfold's exact
solver against the file, and re-runs the outside solver on some of it.

The positions are drawn by fourfold's own ``random_position`` (careful random play: legal,
not over, a piece in hand, nobody able to win at once if it could be avoided): position i
with N pieces placed uses seed ``SEED_BASE + 1000 N + i``. Regenerate with

    .venv/bin/python benchmarks/quarto_outside.py

(a few seconds; the output is the same on every run, so a changed file means a changed
position maker or outside solver).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import fourfold
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.solver_bench import random_position

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from support.quarto_outside_solver import DATA, RULESETS, build, solve

COMMAND = ".venv/bin/python benchmarks/quarto_outside.py"
SEED_BASE = 70_000
#: (ruleset, pieces placed, positions): the 90 Quarto positions of issue 34 (10, 9 and 8
#: placed), then fewer, deeper ones (the outside solver has no table: 5 placed takes it
#: seconds a position)
SETS: tuple[tuple[str, int, int], ...] = (
    ("quarto", 10, 30), ("quarto", 9, 30), ("quarto", 8, 30),
    ("quarto", 7, 10), ("quarto", 6, 10), ("quarto", 5, 6),
    ("folio-colours-or-sizes", 9, 10), ("folio-colours-or-sizes", 8, 10),
    ("folio-colours-or-sizes", 6, 6),
    ("folio-same-colour-or-size", 9, 10), ("folio-same-colour-or-size", 8, 10),
    ("folio-same-colour-or-size", 6, 6),
)


def load(ruleset: str) -> PlacementGame:
    name, variant, line_rule = RULESETS[ruleset]
    options = {"line_rule": line_rule} if line_rule else {}
    game = fourfold.load(name, variant, **options)
    assert isinstance(game, PlacementGame)
    return game


def positions() -> list[dict[str, Any]]:
    """Every position of ``SETS``, without answers."""
    drawn = []
    for ruleset, placed, count in SETS:
        game = load(ruleset)
        for i in range(count):
            seed = SEED_BASE + 1000 * placed + i
            state = random_position(game, placed, seed)
            drawn.append({"ruleset": ruleset, "placed": placed, "seed": seed,
                          "position": game.format_position(state)})
    return drawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DATA, help=f"default: {DATA}")
    args = parser.parse_args()
    drawn = positions()
    with tempfile.TemporaryDirectory() as folder:
        binary = build(Path(folder))
        start = time.perf_counter()
        answers = solve(binary, [(p["ruleset"], p["position"]) for p in drawn])
        seconds = time.perf_counter() - start
    for item, answer in zip(drawn, answers, strict=True):
        item["value"] = answer.value
        item["distance"] = answer.distance
        item["outside_nodes"] = answer.nodes
    document = {
        "about": "Quarto and Folio fixed-grid positions (fourfold's random_position, "
                 f"seed {SEED_BASE} + 1000 * placed + i) with the value and distance for "
                 "the side to move found by the outside solver tests/support/quarto_outside.c "
                 "(plain negamax from the rules; no code shared with fourfold's solvers). "
                 "Distance: plies to the end under perfect play (the winner hurries, the "
                 "loser delays). outside_nodes: the positions the outside solver searched.",
        "regenerate": COMMAND,
        "positions": drawn,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    tally: dict[tuple[str, int], dict[str, int]] = {}
    for item in drawn:
        counts = tally.setdefault((item["ruleset"], item["placed"]), {})
        counts[item["value"]] = counts.get(item["value"], 0) + 1
    for (ruleset, placed), counts in tally.items():
        print(f"{ruleset} {placed} placed: {counts}")
    print(f"{len(drawn)} positions written to {args.out}; the outside solver took "
          f"{seconds:.1f} s")


if __name__ == "__main__":
    main()
