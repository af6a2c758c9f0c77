"""A Gymnasium single-agent env: one seat against built-in bots, ``gym_env(game, opponent)``.

Also registered with Gymnasium: ``gymnasium.make("fourfold/Quarto-v0", opponent="level2")``
(``fourfold.envs.registration`` lists the ids, one per game and variant).

The agent plays one seat (``seat``: 0, 1..., or ``"random"``, drawn per episode from the
reset seed); every other seat is a bot made by ``fourfold.ai.make_bot(opponent, ...)``
and seeded from the episode's generator, so a seed replays the episode. ``opponent=None``
picks ``level3`` where it can play the game, else the first named bot other than
``random`` that can. The observation is the agent's view as a
tensor (``fourfold.envs.observe``); its legal-action mask is ``info["action_mask"]``
(int8) and ``action_masks()`` (bool, the method sb3-contrib's ``MaskablePPO`` calls). The
reward is the agent's return when the game ends (+1, -1 or 0; the team's +1/-1 in
Quatrefoil).

Illegal actions. Gymnasium's checker and unmasked training loops sample any action, so an
illegal action does not raise: as in PettingZoo's classic games, it ends the episode at
once with ``terminated=True``, reward ``illegal_penalty`` and ``info["illegal"]`` set to
the rule it broke (said from the agent's view). The default, -2.0, is worse than a loss
(-1): a policy that learns to lose never prefers an illegal move to playing on. The game
is not played on, so the bots never see the refused action.

Quatrefoil Dual: each step, the agent submits one of its own 11 actions (``a`` is the
game's action ``seat * 11 + a``) or waits (12th, the last action), each bot proposes one
(``Bot.propose``), and one lands, as in the Parallel env.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from fourfold.ai import Bot, bot_names, make_bot
from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.core.game import Game
from fourfold.envs.common import (
    RENDER_METADATA,
    AgentActions,
    as_action,
    check_render_mode,
    is_dual,
    load_game,
    render_text,
)
from fourfold.envs.observe import default_max_steps, encoder_for

#: worse than a loss (-1), so that an illegal action is never the cheapest way out
DEFAULT_ILLEGAL_PENALTY = -2.0


class FourfoldGym(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a fourfold game against bots."""

    metadata = {**RENDER_METADATA}  # noqa: RUF012 - as gymnasium.Env declares it

    def __init__(self, game: Game[Any, Any], opponent: str | None = None, seat: int | str = 0,
                 illegal_penalty: float = DEFAULT_ILLEGAL_PENALTY, max_steps: int | None = None,
                 render_mode: str | None = None) -> None:
        self.game = game
        self.opponent = default_opponent(game) if opponent is None else opponent
        if seat != "random" and (not isinstance(seat, int) or not 0 <= seat < game.num_players):
            raise ConfigurationError(
                f"seat must be 0..{game.num_players - 1} or 'random', not {seat!r}")
        self.seat_choice = seat
        self.illegal_penalty = float(illegal_penalty)
        self.max_steps = default_max_steps(game) if max_steps is None else max_steps
        self.render_mode = check_render_mode(render_mode)
        self.dual = is_dual(game)
        self.encoder = encoder_for(game, max_steps=self.max_steps)
        # the agent's own actions (Dual: its seat's block of the encoding, then ``wait``)
        self.own = AgentActions(game, 0)
        self.num_agent_actions = self.own.size
        self.observation_space = spaces.Box(0.0, 1.0, self.encoder.shape, dtype=np.float32)
        self.action_space = spaces.Discrete(self.num_agent_actions)
        self._check_opponent()
        self.seat = 0
        self.bots: dict[int, Bot] = {}
        self.state_value: Any = None
        self.steps = 0
        self._rng = np.random.default_rng()

    def _check_opponent(self) -> None:
        try:
            make_bot(self.opponent, self.game, 1 % self.game.num_players, seed=0)
        except ConfigurationError as exc:
            raise ConfigurationError(
                f"opponent {self.opponent!r} cannot play {self.game.info.label()}: {exc}"
                " (see `fourfold bots`; Quatrefoil's seats are played by the 'quatrefoil' bot)"
            ) from None

    # -- observations ------------------------------------------------------------------------
    def _mask(self, view: Any) -> np.ndarray:
        return self.own.mask(view)

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        view = self.game.view(self.state_value, self.seat)
        return self.encoder.encode(view), {"action_mask": self._mask(view), "seat": self.seat}

    def action_masks(self) -> np.ndarray:
        """The agent's legal actions now, as bools (sb3-contrib's ``MaskablePPO`` protocol);
        the same as the last ``info["action_mask"]``, all False once the episode is over."""
        if self.state_value is None:
            raise FourfoldError("call reset() before action_masks()")
        return self._mask(self.game.view(self.state_value, self.seat)).astype(bool)

    # -- the episode -------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self.action_space.seed(seed)
        draw = self._rng.integers(2**31, size=1 + self.game.num_players)
        self.seat = (int(draw[0]) % self.game.num_players if self.seat_choice == "random"
                     else int(self.seat_choice))
        self.own = AgentActions(self.game, self.seat)
        self.bots = {s: make_bot(self.opponent, self.game, s, seed=int(draw[1 + s]))
                     for s in range(self.game.num_players) if s != self.seat}
        self.state_value = self.game.initial_state(int(draw[-1]))
        self.steps = 0
        if not self.dual:
            self._bots_until_agent()
        return self._observe()

    def _play(self, move: Any) -> None:
        self.state_value = self.game.next_state(self.state_value, move)
        self.steps += 1
        for seat, bot in self.bots.items():
            bot.observe(self.game.view(self.state_value, seat))

    def _bots_until_agent(self) -> None:
        while self.steps < self.max_steps:
            actors = self.game.actors(self.state_value)
            if not actors or actors[0] == self.seat:
                return
            bot = self.bots[actors[0]]
            self._play(bot.choose(self.game.view(self.state_value, actors[0])))

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.state_value is None:
            raise FourfoldError("call reset() before step()")
        number = self.own.to_game(as_action(action, self.num_agent_actions))
        view = self.game.view(self.state_value, self.seat)
        move = None if number is None else self.game.decode(number)
        error = None if move is None else self.game.view_error(view, move)
        if error is not None:
            obs, info = self._observe()
            info["illegal"] = str(error)
            return obs, self.illegal_penalty, True, False, info
        if self.dual:
            self._dual_moment(move)
        else:
            self._play(move)
            self._bots_until_agent()
        obs, info = self._observe()
        outcome = self.game.outcome(self.state_value)
        reward = 0.0 if outcome is None else outcome.returns(self.game.num_players)[self.seat]
        truncated = outcome is None and self.steps >= self.max_steps
        return obs, reward, outcome is not None, truncated, info

    def _dual_moment(self, move: Any) -> None:
        """One moment of Dual: the agent's action (if any) and the bots' proposals; one
        lands, first in an arrival order drawn from the episode's generator."""
        submitted = [] if move is None else [move]
        for seat, bot in self.bots.items():
            proposal = bot.propose(self.game.view(self.state_value, seat))
            if proposal is not None:
                submitted.append(proposal)
        if submitted:
            self._play(submitted[int(self._rng.integers(len(submitted)))])
        else:
            self.steps += 1

    def render(self) -> str | None:
        """The spectator's view (``render_mode``: ``ansi``, ``human``; ``referee`` shows
        every hidden card, for debugging only: ``fourfold.envs.common.render_text``)."""
        return render_text(self.game, self.state_value, self.render_mode)


def default_opponent(game: Game[Any, Any]) -> str:
    """``level3`` where it can play ``game``, else the first named bot other than ``random``
    that can, else ``random``."""
    candidates = ["level3", *(name for name in bot_names() if name not in ("random", "level3"))]
    for name in candidates:
        try:
            make_bot(name, game, 1 % game.num_players, seed=0)
        except ConfigurationError:
            continue
        return name
    return "random"


def gym_env(game: str | Game[Any, Any], opponent: str | None = None, variant: str | None = None,
            *, seat: int | str = 0, illegal_penalty: float = DEFAULT_ILLEGAL_PENALTY,
            max_steps: int | None = None, render_mode: str | None = None,
            **options: Any) -> FourfoldGym:
    """A Gymnasium env: the agent plays ``seat``, bots named ``opponent`` the others
    (``None``: ``default_opponent(game)``)."""
    return FourfoldGym(load_game(game, variant, **options), opponent, seat, illegal_penalty,
                       max_steps, render_mode)
