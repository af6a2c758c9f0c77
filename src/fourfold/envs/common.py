"""What every adapter shares: loading a game, agent names, checked moves, rendering.

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


def load_game(game: str | Game[Any, Any], variant: str | None = None,
              **options: Any) -> Game[Any, Any]:
    """A configured game from a name (with variant and options) or a game itself."""
    if isinstance(game, Game):
        if variant is not None or options:
            raise FourfoldError("pass a variant and options with a game name, not a game")
        return game
    return fourfold.load(game, variant, **options)


def is_dual(game: Game[Any, Any]) -> bool:
    """Whether every seat may act at once (Quatrefoil Dual): a Parallel env. Read from the
    rules: more than one seat acts in the starting position."""
    return game.num_players > 1 and len(game.actors(game.initial_state())) > 1


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


#: ``render_mode`` values of every env. ``ansi`` returns, and ``human`` prints, what a
#: spectator may see (every card once the game has ended by its rules); ``referee``
#: returns the whole state, hidden cards included: for debugging an env, never for an
#: agent or a log an agent reads.
RENDER_MODES = ("ansi", "human", "referee")
RENDER_METADATA: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise FourfoldError(f"unknown render_mode {render_mode!r}; valid modes:"
                            f" {', '.join(RENDER_MODES)} (or None)")
    return render_mode


def render_text(game: Game[Any, Any], state: Any, render_mode: str | None) -> str | None:
    """What ``render()`` returns in ``render_mode`` (``human``: prints it, returns ``None``).

    The spectator's view (``game.view(state, None)``) unless the mode is ``referee``:
    drawn as a board when it hides nothing (perfect information, or a finished game),
    else as the view's position text, with ``?`` for every card face down."""
    if render_mode is None or state is None:
        return None
    from fourfold.render import presenter_for

    public = game.info.spec.perfect_information or game.is_over(state)
    if render_mode == "referee" or public:
        text = presenter_for(game).draw(game, state, None)
    else:
        text = game.view_position(game.view(state, None))
    if render_mode == "human":
        print(text)
        return None
    return text


class AgentActions:
    """One agent's own action numbers and how they map to the game's dense encoding.

    In turn-based games an agent's actions are the game's. In a game where every seat
    acts at once (Quatrefoil Dual) the game's encoding holds every seat's actions, seat
    after seat; an agent's space is its own seat's block (``local`` is the game's action
    ``seat * width + local``) plus ``wait``, the last number: submit nothing now.
    """

    def __init__(self, game: Game[Any, Any], seat: int) -> None:
        self.game = game
        self.seat = seat
        if is_dual(game):
            self.width = game.num_actions // game.num_players
            self.offset = seat * self.width
            self.wait: int | None = self.width
            self.size = self.width + 1
        else:
            self.width = self.size = game.num_actions
            self.offset = 0
            self.wait = None

    def to_game(self, local: int) -> int | None:
        """The game's action number of the agent's ``local`` one (``None``: wait)."""
        if local == self.wait:
            return None
        return self.offset + local

    def to_local(self, action: int) -> int:
        local = action - self.offset
        if not 0 <= local < self.width:
            raise FourfoldError(f"action {action} is not one of {agent_name(self.seat)}'s")
        return local

    def mask(self, view: Any) -> npt.NDArray[np.int8]:
        """The agent's legal-action mask, from its view (``wait`` is legal whenever the
        agent could act)."""
        full = mask_of(self.game, view)
        if self.wait is None:
            return full
        mask = np.zeros(self.size, dtype=np.int8)
        mask[:self.width] = full[self.offset:self.offset + self.width]
        if mask.any():
            mask[self.wait] = 1
        return mask


class PettingZooBase:
    """What the AEC and Parallel envs share (listed first among their bases, before
    PettingZoo's): the game, the episode cap, the agents, one observation and one action
    space for every agent (``_obs_space``, ``_act_space``, set by the env), the seeded
    generator of the deals, and the spectator's ``render``."""

    _obs_space: Any
    _act_space: Any

    def _start(self, game: Game[Any, Any], max_steps: int | None,
               render_mode: str | None) -> None:
        from fourfold.envs.observe import default_max_steps

        self.game = game
        self.max_steps = default_max_steps(game) if max_steps is None else max_steps
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents = [agent_name(s) for s in range(game.num_players)]
        self.agents = list(self.possible_agents)
        self.state_value: Any = None
        self.steps = 0
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> Any:
        return self._obs_space

    def action_space(self, agent: str) -> Any:
        return self._act_space

    def _new_episode(self, seed: int | None) -> None:
        """Deal a new game (the seed fixes the deals of this and later episodes) with
        every agent in it."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._act_space.seed(seed)
        self.state_value = self.game.initial_state(int(self._rng.integers(2**31)))
        self.steps = 0
        self.agents = list(self.possible_agents)

    def render(self) -> str | None:
        """The spectator's view (``render_mode``: ``ansi``, ``human``; ``referee`` shows
        every hidden card, for debugging only)."""
        return render_text(self.game, self.state_value, self.render_mode)

    def close(self) -> None:
        pass
