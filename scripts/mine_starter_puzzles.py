"""Mine (or re-theme) the starter set shipped in ``src/fourfold/puzzles/data/<game>.json``.

    python scripts/mine_starter_puzzles.py GAME [--variant V] [--count 12] [--seed 1]
        [--seconds 1] [--budget 600] [--games 200] [--work FILE]
    python scripts/mine_starter_puzzles.py GAME --rederive

Mining is bounded (``--budget`` seconds per run) and resumable: after every position
offered, the run's progress (positions offered, puzzles found) is saved in ``--work``
(default ``.mine-<game>-<variant>-<seed>.json`` in the current folder); running the
same command again carries on from there, and the set is written once ``--count``
puzzles are found (the work file is then removed). The same seed offers the same
positions in the same order, and a budget in nodes (Ice Dao) or a solver that proves
every value (the solved games) certifies the same puzzles, so a resumed run finds
what one long run would.

``--rederive`` re-certifies every shipped puzzle of GAME from its position (the same
certification as mining) and rewrites the file with the themes derived now; a puzzle
whose certified line is no longer the stored one stops the run with the position.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from fourfold.core.registry import load
from fourfold.puzzles.certify import certify
from fourfold.puzzles.mine import mine
from fourfold.puzzles.puzzle import Puzzle

DATA = Path(__file__).resolve().parent.parent / "src" / "fourfold" / "puzzles" / "data"


def _write(path: Path, data: Any) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data) + "\n")
    temporary.replace(path)


def _shipped(game: str) -> list[Puzzle]:
    path = DATA / f"{game}.json"
    return [Puzzle.from_json(item, f"{path}, #{i + 1}")
            for i, item in enumerate(json.loads(path.read_text()))] if path.exists() else []


def rederive(game: str, seconds: float) -> int:
    again = []
    for puzzle in _shipped(game):
        configured, state = puzzle.load()
        found = certify(configured, state, seconds)
        if found is None or found.solution != puzzle.solution:
            print(f"{puzzle.position}: no longer certified as {' '.join(puzzle.solution)}",
                  file=sys.stderr)
            return 1
        again.append(found.to_json())
        print(f"{found.position}: {found.theme}")
    _write(DATA / f"{game}.json", again)
    return 0


def run(args: argparse.Namespace) -> int:
    game = load(args.game, args.variant)
    work = Path(args.work or f".mine-{game.name}-{game.info.variant}-{args.seed}.json")
    done: dict[str, Any] = {"offered": 0, "puzzles": []}
    if work.exists():
        done = json.loads(work.read_text())
        print(f"resuming: {done['offered']} positions offered, {len(done['puzzles'])} found")

    def found(puzzle: Puzzle) -> None:
        done["puzzles"].append(puzzle.to_json())
        print(f"{len(done['puzzles'])}. {puzzle.theme}: {puzzle.position}", flush=True)

    def progress(offered: int) -> None:
        done["offered"] = offered
        _write(work, done)

    wanted = args.count - len(done["puzzles"])
    if wanted > 0:
        mine(game, wanted, args.seed, seconds=args.seconds, budget=args.budget,
             games=args.games, found=found, start=done["offered"], progress=progress)
    if len(done["puzzles"]) < args.count:
        _write(work, done)
        print(f"{len(done['puzzles'])} of {args.count} found; run again to go on ({work})")
        return 3
    others = [p.to_json() for p in _shipped(game.name) if p.variant != game.info.variant]
    _write(DATA / f"{game.name}.json", others + done["puzzles"][:args.count])
    work.unlink(missing_ok=True)
    print(f"wrote {args.count} puzzles of {game.info.label()} to {DATA / game.name}.json")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("--variant", default=None)
    p.add_argument("--count", type=int, default=12)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--budget", type=float, default=600.0)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--work", default=None)
    p.add_argument("--rederive", action="store_true")
    args = p.parse_args()
    if args.rederive:
        return rederive(load(args.game).name, args.seconds)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
