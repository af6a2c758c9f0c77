"""The review of a game: for every ply, the mover's value before and after the move,
its label and the best moves (docs/review.md).

One assessment per position before a move (``assess``): its value is the mover's
"before", the played move's value the mover's "after" (values of moves are for the
player making them, as in ``fourfold solve``), and its best moves the ply's "best".
Generic: the game's solver is reached only through its extension bundle.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fourfold.analysis.review.assess import (
    DEFAULT_ITERATIONS,
    Assessment,
    assess,
    estimate,
    prepare,
)
from fourfold.analysis.review.judgement import Judgement, estimated
from fourfold.analysis.review.labels import label
from fourfold.core.errors import ConfigurationError
from fourfold.core.match import Match
from fourfold.solve.position import solver_for

#: seconds the solver gets per position before the estimate takes over
DEFAULT_SECONDS = 2.0


@dataclass(frozen=True)
class Ply:
    ply: int  # from 1, as records number them
    move: str
    player: int
    before: Judgement
    after: Judgement
    label: str | None  # None: nothing known about the position
    best: tuple[str, ...]
    source: str  # "solver" or "estimate"

    @property
    def estimated(self) -> bool:
        """Whether the label rests on an estimate (the position's, or the move's where
        a bounded solver proved the position but not the move)."""
        return self.source == "estimate" or self.after.score is not None


@dataclass(frozen=True)
class Review:
    game: str
    variant: str
    options: dict[str, str]
    players: tuple[str, ...]
    result: str | None
    solver: str | None
    seconds: float
    iterations: int
    plies: tuple[Ply, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "variant": self.variant, "options": dict(self.options),
            "players": list(self.players), "result": self.result, "solver": self.solver,
            "seconds_per_position": self.seconds, "estimate_iterations": self.iterations,
            "plies": [{
                "ply": p.ply, "move": p.move, "player": self.players[p.player],
                "before": p.before.to_json(), "after": p.after.to_json(),
                "label": p.label, "best": list(p.best), "source": p.source,
                "estimate": p.estimated,
            } for p in self.plies],
        }


def check_reviewable(match: Match[Any, Any, Any]) -> None:
    game = match.game
    if game.num_players != 2 or not game.info.spec.perfect_information:
        raise ConfigurationError(
            f"review covers two-player games of perfect information, not {game.info.label()}")


def review_ply(match: Match[Any, Any, Any], index: int, seconds: float, iterations: int,
               seed: int) -> Ply:
    """Ply ``index`` (from 0) of a match."""
    game = match.game
    state, move = match.states[index], match.moves[index]
    found: Assessment = assess(game, state, seconds, iterations, seed + index, move)
    after = found.of(move)
    child = match.states[index + 1]
    if found.source == "solver" and not after.exact and game.outcome(child) is None:
        # a bounded solver proved the position, not the move played: estimate the position
        # the move left, from the side of the player who made it
        reply = estimate(game, child, iterations, seed + index)
        if reply.value.score is not None:
            after = estimated(1 - reply.value.score)
    return Ply(
        ply=index + 1, move=match.notation[index], player=int(game.to_move(state) or 0),
        before=found.value, after=after, label=label(found.value, after, found.best_value()),
        best=tuple(game.format_move(state, m) for m in found.best), source=found.source)


_FLIPPED = {"win": "loss", "loss": "win", "draw": "draw"}


def settled(plies: list[Ply]) -> list[Ply]:
    """The plies, each move a bounded solver proved a position for but could not prove
    itself valued by the next position, where the solver did prove that: the move
    played is worth the opposite of what it left (a loss in d + 1 plies when it left
    the opponent a win in d), exact, and labelled as exact values are."""
    found = list(plies)
    for index, ply in enumerate(found[:-1]):
        left = found[index + 1].before
        if ply.after.exact or not ply.before.exact or not left.exact:
            continue
        after = Judgement(_FLIPPED[left.value],
                          None if left.distance is None else left.distance + 1, True)
        # an exact position's best move has its value and distance: ``before`` itself
        found[index] = dataclasses.replace(ply, after=after,
                                           label=label(ply.before, after, ply.before))
    return found


def review(match: Match[Any, Any, Any], *, seconds: float = DEFAULT_SECONDS,
           iterations: int = DEFAULT_ITERATIONS, seed: int = 0,
           progress: Callable[[int, int], None] | None = None) -> Review:
    """The review of every ply of ``match`` (a finished game, or the plies so far)."""
    check_reviewable(match)
    game = match.game
    prepare(game)
    plies = []
    for index in range(len(match.moves)):
        plies.append(review_ply(match, index, seconds, iterations, seed))
        if progress is not None:
            progress(index + 1, len(match.moves))
    outcome = match.outcome
    entry = solver_for(game)
    return Review(
        game=game.name, variant=game.info.variant, options=game.info.option_strings(),
        players=tuple(game.player_name(p) for p in range(game.num_players)),
        result=None if outcome is None else outcome.score(game.num_players),
        solver=None if entry is None else entry.summary, seconds=seconds,
        iterations=iterations, plies=tuple(settled(plies)))
