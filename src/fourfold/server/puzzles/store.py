"""The rows of puzzle ratings (made by migrations 0008 and 0009, written only here): each puzzle's
and each solver's Glicko-2 rating, and which solver has tried which puzzle (only the
first try of a puzzle is rated)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    insert,
    select,
    update,
)

from fourfold.puzzles.puzzle import Puzzle
from fourfold.server.storage import Repository

metadata = MetaData()


def _ratings(name: str, key: str) -> Table:
    """A table of Glicko-2 ratings keyed by ``key`` (a puzzle's or a solver's id)."""
    return Table(
        name, metadata,
        Column(key, String(32), primary_key=True),
        Column("rating", Float, nullable=False),
        Column("rd", Float, nullable=False),
        Column("vol", Float, nullable=False),
        Column("plays", Integer, nullable=False),
    )


puzzle_ratings = _ratings("puzzle_ratings", "puzzle_id")
solver_ratings = _ratings("solver_ratings", "solver_id")
puzzle_attempts = Table(
    "puzzle_attempts", metadata,
    Column("solver_id", String(32), primary_key=True),
    Column("puzzle_id", String(32), primary_key=True),
    Column("solved", Boolean, nullable=False),
)
mined_puzzles = Table(
    "mined_puzzles", metadata,
    Column("puzzle_id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("table_id", String(32), nullable=False),   # the game it was mined from
    Column("body", Text, nullable=False),             # the puzzle's JSON
)


@dataclass(frozen=True)
class Rating:
    rating: float
    rd: float
    vol: float
    plays: int


#: (the solver's rating, the puzzle's, solved) -> their new ratings (``None``: unrated)
Rater = Callable[[Rating | None, Rating | None, bool], tuple[Rating, Rating]]


class PuzzleStore:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    @staticmethod
    def _get(c: Connection, table: Table, key: str) -> Rating | None:
        column = table.c.puzzle_id if table is puzzle_ratings else table.c.solver_id
        row = c.execute(select(table.c.rating, table.c.rd, table.c.vol, table.c.plays)
                        .where(column == key)).first()
        return None if row is None else Rating(float(row[0]), float(row[1]), float(row[2]),
                                               int(row[3]))

    def solver(self, solver_id: str) -> Rating | None:
        with self.repo.engine.connect() as c:
            return self._get(c, solver_ratings, solver_id)

    def puzzle(self, puzzle_id: str) -> Rating | None:
        with self.repo.engine.connect() as c:
            return self._get(c, puzzle_ratings, puzzle_id)

    def add_mined(self, puzzle_id: str, puzzle: Puzzle, table_id: str) -> bool:
        """Keep a puzzle mined from a finished game; ``False`` if it was kept before."""
        with self.repo.engine.begin() as c:
            if c.execute(select(mined_puzzles.c.puzzle_id).where(
                    mined_puzzles.c.puzzle_id == puzzle_id)).first() is not None:
                return False
            c.execute(insert(mined_puzzles).values(
                puzzle_id=puzzle_id, game=puzzle.game, table_id=table_id,
                body=json.dumps(puzzle.to_json())))
        return True

    def mined(self) -> dict[str, Puzzle]:
        """The puzzles mined from the server's games, by id, oldest first."""
        with self.repo.engine.connect() as c:
            rows = c.execute(select(mined_puzzles.c.puzzle_id, mined_puzzles.c.body)).all()
        return {str(r[0]): Puzzle.from_json(json.loads(r[1]), f"mined puzzle {r[0]}")
                for r in rows}

    def tried(self, solver_id: str) -> set[str]:
        with self.repo.engine.connect() as c:
            rows = c.execute(select(puzzle_attempts.c.puzzle_id).where(
                puzzle_attempts.c.solver_id == solver_id)).all()
        return {str(r[0]) for r in rows}

    def record(self, solver_id: str, puzzle_id: str, solved: bool,
               rate: Rater) -> tuple[Rating, Rating] | None:
        """Record the first try of ``puzzle_id`` by ``solver_id`` and rate both (``None``:
        tried before, nothing changes)."""
        with self.repo.engine.begin() as c:
            if c.execute(select(puzzle_attempts.c.solved).where(
                    puzzle_attempts.c.solver_id == solver_id,
                    puzzle_attempts.c.puzzle_id == puzzle_id)).first() is not None:
                return None
            c.execute(insert(puzzle_attempts).values(solver_id=solver_id, puzzle_id=puzzle_id,
                                                     solved=solved))
            solver = self._get(c, solver_ratings, solver_id)
            puzzle = self._get(c, puzzle_ratings, puzzle_id)
            new_solver, new_puzzle = rate(solver, puzzle, solved)
            for table, column, key, old, new in (
                    (solver_ratings, "solver_id", solver_id, solver, new_solver),
                    (puzzle_ratings, "puzzle_id", puzzle_id, puzzle, new_puzzle)):
                values = {"rating": new.rating, "rd": new.rd, "vol": new.vol,
                          "plays": new.plays}
                if old is None:
                    c.execute(insert(table).values(**{column: key}, **values))
                else:
                    c.execute(update(table).where(table.c[column] == key).values(**values))
            return new_solver, new_puzzle
