"""A hint for a seat playing against bots: the solver's values where one answers in
time, else a bot's choice. A pure function of the seat's view, run in the server's
job pool (server/jobs.py), in a worker process.

The solver is the game's registered one (``fourfold.solve.position.solver_for``),
asked only in games of perfect information. The bot is the ``hint`` of the game's
``bots`` part (``fourfold.ai.game_bots``: ``level3`` unless the game names another),
asked for its ``propose`` when the part says ``hint_proposes`` (a real-time game's
bot may answer "wait"), else for its ``choose``."""

from __future__ import annotations

import contextlib
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game

#: seconds a hint's solver (and then its bot) may think
HINT_SECONDS = 3.0
#: the untimed first solve per game and worker process, which loads (or compiles) the
#: solver's kernels, so that ``HINT_SECONDS`` is spent on the position
WARM_UP_SECONDS = 0.05
_warm: set[str] = set()


def hint_for(game: Game[Any, Any], seat: int, view: Any, version: int, bot_seed: int
             ) -> dict[str, Any]:
    """The hint for ``seat`` from its ``view`` (in a worker process: every argument and
    the answer are pickled)."""
    from fourfold.ai import make_bot
    from fourfold.ai.base import Limit
    from fourfold.ai.game_bots import game_bots
    from fourfold.solve.position import Value, solver_for

    base = {"type": "hint", "seat": seat, "version": version}
    entry = solver_for(game) if game.info.spec.perfect_information else None
    if entry is not None:
        if game.info.label() not in _warm:
            _warm.add(game.info.label())
            with contextlib.suppress(FourfoldError):
                entry.solve(game, view.observation, WARM_UP_SECONDS)
        try:
            solution = entry.solve(game, view.observation, HINT_SECONDS)
        except FourfoldError:
            solution = None
        if solution is not None:
            return {**base, "kind": "solver", "solver": entry.summary,
                    "value": solution.value.value, "distance": solution.distance,
                    "moves": [{"move": game.view_format_move(view, m.move),
                               "value": m.value.value, "distance": m.distance}
                              for m in solution.moves if m.value is not Value.UNKNOWN
                              or not entry.exact]}
    bots = game_bots(game)
    name = bots.hint
    try:
        bot = make_bot(name, game, seat, bot_seed + 7, Limit(seconds=HINT_SECONDS))
        move = bot.propose(view, float("inf")) if bots.hint_proposes else bot.choose(view)
    except FourfoldError as error:
        return {**base, "kind": "none", "text": f"no hint here: {error}"}
    if move is None:
        return {**base, "kind": "bot", "bot": name, "move": None,
                "text": "wait: the bot would not act yet"}
    text = game.view_format_move(view, move)
    return {**base, "kind": "bot", "bot": name, "move": text,
            "text": f"the {name} bot would play {text} (no solver answered in time)"}
