"""What every adapter shares: loading a game, agent names, length caps, checked moves.

The adapters play the rules directly (``game.next_state``), not through a ``Table``:
a table's seats, versions and events are for people and servers, and cost time an
environment does not need. Everything an agent receives still comes from its view.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

import fourfold
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game

#: The cap on an episode's plies when the game has no natural end (sliding games without
#: ``max-plies``, Quatrefoil). The game's own ``max-plies`` option, when set, ends the game
#: by its rules (a draw) instead.
DEFAULT_MAX_STEPS = {"sliding": 300, "quatrefoil": 100, "other": 10_000}


def load_game(game: str | Game[Any, Any], variant: str | None = None,
              **options: Any) -> Game[Any, Any]:
    """A configured game from a name (with variant and options) or a game itself."""
    if isinstance(game, Game):
        if variant is not None or options:
            raise FourfoldError("pass a variant and options with a game name, not a game")
        return game
    return fourfold.load(game, variant, **options)


def family(game: Game[Any, Any]) -> str:
    from fourfold.games.quatrefoil.game import QuatrefoilGame
    from fourfold.games.sliding.game import SlidingGame

    if isinstance(game, SlidingGame):
        return "sliding"
    if isinstance(game, QuatrefoilGame):
        return "quatrefoil"
    return "other"


def default_max_steps(game: Game[Any, Any]) -> int:
    return DEFAULT_MAX_STEPS[family(game)]


def is_dual(game: Game[Any, Any]) -> bool:
    """Whether every seat may act at once (Quatrefoil Dual): a Parallel env."""
    return bool(getattr(game, "dual", False))


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def seat_of(agent: str) -> int:
    return int(agent.rsplit("_", 1)[1])


def as_action(action: Any, num_actions: int) -> int:
    """An action number from an int or a NumPy integer; ``FourfoldError`` otherwise."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise FourfoldError(f"an action is an integer 0..{num_actions - 1}, not {action!r}")
    value = int(action)
    if not 0 <= value < num_actions:
        raise FourfoldError(f"action {value} is not in 0..{num_actions - 1}")
    return value


def checked_move(game: Game[Any, Any], state: Any, seat: int, action: int) -> Any:
    """The move of ``action`` for ``seat``, or ``FourfoldError`` saying why it is illegal.

    The explanation is computed from the seat's view, so it never names a hidden card.
    """
    move = game.decode(action)
    view = game.view(state, seat)
    error = game.view_error(view, move)
    if error is not None:
        raise FourfoldError(f"{game.name}: action {action} is illegal for {agent_name(seat)}:"
                            f" {error}")
    return move


def mask_of(game: Game[Any, Any], view: Any) -> npt.NDArray[np.int8]:
    return np.asarray(game.view_legal_action_mask(view), dtype=np.int8)
