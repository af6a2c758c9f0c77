"""*Does the attacker force a win within d plies?* on Ice Dao's kernel, with a null window.

The certificate writer (``proof_kernel``) asks this yes-or-no question at every reply it
chooses. The kernel's ``search_root`` answers it with a full window: it finds each root
move's exact score, so below a won node it goes on looking for quicker wins, and below
a node worth 0 it tells losses from draws, neither of which the question needs. Here
the same alpha-beta (``fourfold.kernels.search.negamax``, the same hooks and table) runs
once from the position with the window just around ``WIN - d``: any win within d plies
fails high, anything else (a draw, the horizon, a loss) fails low, and every node cuts as
soon as its side has one good enough move.

Nothing here is trusted: the writer's certificates are checked on the readable rules.
"""

from __future__ import annotations

from typing import Any

from fourfold.games.icedao import kernel as k
from fourfold.kernels import sliding_loops as loops
from fourfold.kernels.jit import inlined, no_refcount, specialise
from fourfold.kernels.search import (
    ABORTED,
    LIMIT,
    NODES,
    WIN,
    arrange_by_history,
    choose_by_score,
    negamax,
)

# placeholders of the template below (``specialise`` binds Ice Dao's)
kernel: Any = None
search_legal: Any = None
search_push: Any = None
search_pop: Any = None


def _window_search(  # type: ignore[no-untyped-def]
    t, st, hist, keys, moves, scores, frames, tt, history, stats, depth, alpha, beta
):
    """The negamax score of the position ``depth`` plies deep in the window
    ``(alpha, beta)``, from the side to move (a bound outside the window)."""
    return negamax((t, st, hist, keys), moves, scores, frames, tt, history, stats,
                   depth, alpha, beta, 0, kernel.settle, kernel.search_key, search_legal,
                   search_push, search_pop, arrange_by_history, choose_by_score)


_HOOKS = {name: specialise(template, __name__, name, inlined, kernel=k)
          for name, template in (("search_legal", loops._search_legal),
                                 ("search_push", loops._search_push),
                                 ("search_pop", loops._search_pop))}
window_search = specialise(_window_search, __name__, "window_search", no_refcount,
                           kernel=k, **_HOOKS)


def attacker_wins_within(engine: Any, attacker: int, plies: int,
                         node_limit: int) -> tuple[bool, int]:
    """Whether ``attacker`` forces a win within ``plies`` plies from ``engine``'s loaded
    position (the game going on, either side to move), and the nodes searched.
    Raises ``RuntimeError`` if the node limit stops the search."""
    stats = engine.stats
    stats[:] = 0
    stats[LIMIT] = node_limit
    target = WIN - plies  # the attacker's score for its slowest win within the plies
    attacking = int(engine.st[k.S_SIDE]) == attacker
    # from the side to move: the attacker wins iff score >= target (attacking) or
    # score <= -target (defending)
    alpha, beta = (target - 1, target) if attacking else (-target, -target + 1)
    value = int(window_search(engine.t, engine.st, engine.hist, engine.keys, engine.moves,
                              engine.scores, engine.frames, engine.tt, engine.history, stats,
                              plies, alpha, beta))
    if stats[ABORTED]:
        raise RuntimeError("the node limit stopped the search")
    won = value >= target if attacking else value <= -target
    return won, int(stats[NODES])
