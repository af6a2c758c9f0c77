"""The starter set: puzzles mined once and shipped in the package
(``puzzles/data/<game>.json``, written by ``scripts/mine_starter_puzzles.py``), so
that ``fourfold puzzle`` has puzzles on a fresh install."""

from __future__ import annotations

import json
from importlib import resources

from fourfold.core.errors import FourfoldError
from fourfold.puzzles.puzzle import Puzzle


def starter_games() -> list[str]:
    """The games the starter set has puzzles for."""
    folder = resources.files("fourfold.puzzles") / "data"
    return sorted(p.name.removesuffix(".json") for p in folder.iterdir()
                  if p.name.endswith(".json"))


def starter(game: str | None = None) -> list[Puzzle]:
    """The shipped puzzles of one game (every game's when ``None``)."""
    names = starter_games() if game is None else [game]
    found: list[Puzzle] = []
    for name in names:
        source = resources.files("fourfold.puzzles") / "data" / f"{name}.json"
        if not source.is_file():
            have = ", ".join(starter_games())
            raise FourfoldError(f"the starter set has no puzzles of {name} (it has: {have})")
        where = f"starter puzzles of {name}"
        found += [Puzzle.from_json(item, f"{where}, #{i + 1}")
                  for i, item in enumerate(json.loads(source.read_text()))]
    return found
