"""What the sliding games' observation planes share (Dao's and Ice Dao's encoders,
``fourfold.games.dao.observe`` and ``fourfold.games.icedao.observe``): the episode cap
and the last four planes (``sliding_tail``); docs/envs.md lists every plane.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.game import View
from fourfold.envs.observe import Tensor

#: The cap on an episode's plies (sliding games can go on for ever) unless the game's own
#: ``max-plies`` option ends it first, as a draw by the rules.
MAX_STEPS = 300


def sliding_tail(game: Any, view: View, state: Any, out: Tensor) -> None:
    """Repetition (2 planes), to act, plies over the cap: the last four planes."""
    seen = min(state.repetitions - 1, 2)
    if seen >= 1:
        out[0] = 1.0
    if seen >= 2:
        out[1] = 1.0
    if view.player is not None and view.player in game.view_actors(view):
        out[2] = 1.0
    if game.max_plies:
        out[3] = min(state.plies / game.max_plies, 1.0)
