"""The vectorised env against the readable rules: the same actions give the same legal
masks, observations, rewards and endings, game after game (auto-reset included)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import fourfold
from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.envs.vector import VectorEnv

RULESETS = [("quarto", None), ("folio", "fixed-grid"), ("folio", "standard"),
            ("folio", "no-grid"), ("dao", None), ("icedao", None)]


def expected_obs(game: Any, state: Any) -> list[int]:
    """The compact observation of a reference state (docs/envs.md)."""
    from fourfold.games.dao.game import DaoGame
    from fourfold.games.icedao.game import IceDaoGame

    to_move = game.to_move(state)
    mover = -1 if to_move is None else to_move
    if isinstance(game, DaoGame):
        return [-1 if p is None else p for p in state.board] + [mover]
    if isinstance(game, IceDaoGame):
        out = []
        for stack in state.board:
            by_size = {p % 3: p // 3 for p in stack}
            out.extend(by_size.get(size, -1) for size in range(3))
        return [*out, mover]
    board = [-1] * game.geometry.num_cells
    for cell, kind in state.board:
        board[game.geometry.index(cell)] = kind
    hand = -1 if state.hand is None else state.hand
    return [*board, hand, *state.supply, mover]


@pytest.mark.parametrize("name,variant", RULESETS)
def test_self_play_matches_the_rules(name: str, variant: str | None) -> None:
    n, steps, cap = 24, 160, 60
    env = VectorEnv(name, n, seed=5, variant=variant, max_steps=cap)
    game = env.game
    obs, info = env.reset()
    states = [game.initial_state() for _ in range(n)]
    plies = [0] * n
    finished = 0
    for _ in range(steps):
        for i in range(n):
            assert info["action_mask"][i].astype(bool).tolist() == game.legal_action_mask(
                states[i]), f"game {i}: legal masks differ"
            assert obs[i].tolist() == expected_obs(game, states[i]), f"game {i}: observations"
        actions = env.sample_actions()
        obs, rewards, terminated, truncated, info = env.step(actions)
        for i in range(n):
            states[i] = game.next_state(states[i], game.decode(int(actions[i])))
            plies[i] += 1
            outcome = game.outcome(states[i])
            want = (outcome.returns(2) if outcome is not None else (0.0, 0.0))
            assert tuple(rewards[i]) == want
            assert bool(terminated[i]) == (outcome is not None)
            assert bool(truncated[i]) == (outcome is None and plies[i] >= cap)
            if terminated[i] or truncated[i]:
                states[i] = game.initial_state()
                plies[i] = 0
                finished += 1
    assert finished > n  # many games ran to their end and were reset


@pytest.mark.parametrize("name,variant", RULESETS)
def test_random_opponent_hands_the_turn_back(name: str, variant: str | None) -> None:
    env = VectorEnv(name, 64, seed=2, variant=variant, opponent="random", seat="mixed")
    _obs, info = env.reset()
    total = 0.0
    ends = 0
    for _ in range(100):
        _, rewards, terminated, _, info = env.step(env.sample_actions())
        assert rewards.shape == (64,)
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert (info["to_move"] == env.seat).all()  # the agent is always the one to move
        total += float(rewards.sum())
        ends += int(terminated.sum())
    assert ends > 0


def test_seeds_replay_the_batch() -> None:
    def run(seed: int) -> list[bytes]:
        env = VectorEnv("quarto", 32, seed=seed, opponent="random")
        obs, _ = env.reset()
        out = []
        for _ in range(50):
            obs, rewards, _, _, _ = env.step(env.sample_actions())
            out.append(obs.tobytes() + rewards.tobytes())
        return out

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_threads_give_the_same_games() -> None:
    def run(threads: int | None) -> bytes:
        env = VectorEnv("folio", 100, seed=1, variant="fixed-grid", threads=threads)
        env.reset()
        for _ in range(30):
            env.step(env.sample_actions())
        return env.obs.tobytes()

    assert run(1) == run(None)


def test_illegal_actions_raise_and_name_the_games() -> None:
    env = VectorEnv("quarto", 4, seed=0)
    env.reset()
    actions = env.sample_actions()
    actions[2] = 0  # a placement before the opening give
    with pytest.raises(FourfoldError, match="game 2"):
        env.step(actions)


def test_games_without_a_kernel_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="no vectorised env"):
        VectorEnv("quatrefoil", 2)
    with pytest.raises(ConfigurationError):
        VectorEnv(fourfold.load("folio", "freeform"), 2)
