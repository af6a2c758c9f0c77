"""The perfect-play bot: a move of the best value, from the game's exact solver.

Generic over ``fourfold.solve.position.solver_for``: any game with an *exact*
solver (Dao's retrograde table, ...) can be played perfectly. It takes the
quickest win, else a draw, else the slowest loss; among equally good moves it
picks with its seeded generator, so a seeded game replays move for move.
Games without a solver, or with only a bounded one (Ice Dao), are refused when
the bot is made, with the reason.

Some exact solvers cannot finish from every position in reasonable time (Quarto
and Folio are solved only once enough pieces are down). The solver gets the
bot's ``Limit.seconds``, or ``DEFAULT_SOLVE_SECONDS`` without one; when it does
not finish, the bot plays level 5's move instead (``fourfold.ai.levels``; the
limit's own ``nodes``, if given, replace level 5's search budget). ``last_exact``
says which of the two chose the last move.
"""

from __future__ import annotations

from typing import Any

from fourfold.ai.base import Bot
from fourfold.ai.levels import make_level
from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.core.game import View
from fourfold.solve.position import preference, solver_for

#: the solver's budget for a bot without ``Limit.seconds``: enough for Dao to build its
#: table (``fourfold.games.dao.solver.BUILD_BUDGET``), and for Quarto and Folio from about the
#: fifth piece on (docs/solutions.md)
DEFAULT_SOLVE_SECONDS = 30.0


class PerfectBot(Bot):
    name = "perfect"

    def __post_init__(self) -> None:
        super().__post_init__()
        label = self.game.info.label()
        entry = solver_for(self.game)
        if entry is None:
            raise ConfigurationError(f"the perfect bot needs a solver; {label} has none")
        if not entry.exact:
            raise ConfigurationError(f"the perfect bot needs an exact solver; {label} has only"
                                     f" a bounded one ({entry.summary})")
        self.entry = entry
        self.fallback: Bot | None = None
        self.last_exact = False

    def choose(self, view: View) -> Any:
        state = view.observation
        seconds = self.budget.seconds if self.budget.seconds is not None else DEFAULT_SOLVE_SECONDS
        solution = self.entry.solve(self.game, state, seconds)
        self.last_exact = solution is not None
        if solution is None:
            if self.fallback is None:
                self.fallback = make_level(5, self.game, self.player,
                                           self.rng.randrange(1 << 30), self.limit)
            return self.fallback.choose(view)
        if not solution.moves:
            raise FourfoldError("no legal move: the game is over")
        best = preference(solution.moves[0].value, solution.moves[0].distance)
        ties = [m.move for m in solution.moves if preference(m.value, m.distance) == best]
        return ties[self.rng.randrange(len(ties))]
