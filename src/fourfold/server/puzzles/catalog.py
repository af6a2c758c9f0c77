"""The puzzles the server offers: the starter set shipped in the package, each with a
stable id (a digest of its game, variant, options and position), and the daily puzzle."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from fourfold.puzzles.puzzle import Puzzle
from fourfold.puzzles.starter import starter


def puzzle_id(puzzle: Puzzle) -> str:
    key = json.dumps([puzzle.game, puzzle.variant, sorted(puzzle.options.items()),
                      puzzle.position])
    return hashlib.sha256(key.encode()).hexdigest()[:12]


@lru_cache(maxsize=1)
def catalog() -> dict[str, Puzzle]:
    """Every puzzle by id, in the starter set's order."""
    return {puzzle_id(p): p for p in starter()}


def daily_id(day: str) -> str:
    """The day's puzzle (``day``: ``YYYY-MM-DD``, UTC): the same for every browser and
    instance, a different one each day in turn."""
    ids = sorted(catalog())
    return ids[int(hashlib.sha256(f"daily-puzzle {day}".encode()).hexdigest(), 16) % len(ids)]
