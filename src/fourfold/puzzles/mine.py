"""Mine puzzles from self-play: seeded bots play games, and every position they reach
(last positions first: endings are solved fastest) is offered to ``certify``.

Bounded in time: the whole run stops at ``budget`` seconds (checked between positions,
each of which gets at most ``seconds`` of solver time per solve), and after ``games``
games. The same seed plays the same games and offers the same positions in the same
order; only where the budget cuts the run in depends on the machine. A run can be
resumed: ``start`` skips the positions an earlier run offered (``progress`` is told
how many have been offered after each one).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from fourfold.analysis.review.assess import prepare
from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game
from fourfold.puzzles.certify import certify
from fourfold.puzzles.puzzle import Puzzle
from fourfold.solve.position import solver_for

#: the bots of the self-play games, by game number (weak bots make the mistakes that
#: leave one-move wins on the board)
PAIRINGS = (("greedy", "level2"), ("level2", "greedy"), ("greedy", "greedy"),
            ("level2", "level2"))
MAX_PLIES = 200


def check_minable(game: Game[Any, Any]) -> None:
    if game.num_players != 2 or not game.info.spec.perfect_information:
        raise ConfigurationError(
            f"puzzles come from two-player games of perfect information, not"
            f" {game.info.label()}")
    if solver_for(game) is None:
        raise ConfigurationError(f"no solver for {game.info.label()}: puzzles are certified"
                                 " by a solver")


def self_play_positions(game: Game[Any, Any], seed: int, games: int) -> Iterator[Any]:
    """The positions of seeded self-play games, each game's last first."""
    from fourfold.analysis.match import play_game

    for index in range(games):
        bots = PAIRINGS[index % len(PAIRINGS)]
        match = play_game(game, bots, seed, index, max_plies=MAX_PLIES)
        yield from reversed(match.states[:len(match.moves)])


def mine(game: Game[Any, Any], count: int, seed: int = 0, *, seconds: float = 1.0,
         budget: float = 60.0, games: int = 200,
         found: Callable[[Puzzle], None] | None = None, start: int = 0,
         progress: Callable[[int], None] | None = None) -> list[Puzzle]:
    """Up to ``count`` certified puzzles, each position once, from the ``start``-th
    position offered on."""
    check_minable(game)
    prepare(game)
    deadline = time.monotonic() + budget
    seen: set[str] = set()
    puzzles: list[Puzzle] = []
    for offered, state in enumerate(self_play_positions(game, seed, games)):
        if len(puzzles) >= count or time.monotonic() > deadline:
            break
        key = game.format_position(state)
        if key in seen:
            continue
        seen.add(key)
        if offered < start:
            continue
        puzzle = certify(game, state, seconds)
        if puzzle is not None:
            puzzles.append(puzzle)
            if found is not None:
                found(puzzle)
        if progress is not None:
            progress(offered + 1)
    return puzzles
