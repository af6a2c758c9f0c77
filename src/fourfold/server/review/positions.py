"""What ``GET /api/tables/{id}/review/picture`` needs of a finished game, worked out once
per table and version (kept as ``server/web/finished.py`` keeps a finished replay).

The route used to replay the whole record and parse the whole stored review on every
request: about 20 ms of CPU for a 500-ply Dao game (Dao's repetition check walks the
history at every move), which a client asking in a loop could repeat as fast as its
rate allowance lets. Now the record is replayed once per table version and every
``EVERY``-th state is kept (a 500-ply Dao game's 501 states take about 1.3 MB, each
copying the history; one in 16 of them about 85 KB), with the moves in notation and the
review's lines. A request then plays at most ``EVERY - 1`` moves of the record and the
line's few moves (``review.work.LINE_PLIES``), and draws one picture.

Hidden information: a review exists only for a finished game, whose cards are all face
up, and each picture is drawn from ``revealed_view(state, None)``, the same for every
caller. So one entry serves every caller (its recipient is ``None``), and nothing here
is any seat's own view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.core.record import Record

#: one state kept per this many plies: a request replays at most ``EVERY - 1`` moves
EVERY = 16


@dataclass(frozen=True)
class ReviewPositions:
    """A finished game's states, one in ``EVERY`` kept, and its review's lines."""

    game: Game[Any, Any]
    #: the states before plies 1, 1 + EVERY, 1 + 2 * EVERY, ...
    kept: tuple[Any, ...]
    #: the record's moves in notation
    moves: tuple[str, ...]
    #: the review's line for each ply, then the line from the final position
    lines: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, record: Record, review: dict[str, Any]) -> ReviewPositions:
        """Replay ``record`` (the referee's, of a finished game) once; ``review`` is its
        stored review's body."""
        plies: list[dict[str, Any]] = review["plies"]
        if len(plies) != len(record.moves):
            raise FourfoldError(f"the stored review covers {len(plies)} plies, the game"
                                f" has {len(record.moves)}")
        match = Match.from_record(record)
        lines = [tuple(p.get("line") or ()) for p in plies]
        lines.append(tuple(review.get("end_line") or ()))
        return cls(match.game, tuple(match.states[::EVERY]), tuple(record.moves),
                   tuple(lines))

    @property
    def plies(self) -> int:
        """The plies the review covers (one line each)."""
        return len(self.lines) - 1

    def before(self, ply: int) -> Any:
        """The state before ply ``ply`` (from 1; one past the last is the final state),
        played from the nearest kept state."""
        index = ply - 1
        state = self.kept[index // EVERY]
        game = self.game
        for text in self.moves[index - index % EVERY:index]:
            state = game.apply(state, game.parse_move(state, text))
        return state
