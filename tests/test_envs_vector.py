"""The vectorised env against the readable rules, encoders and bots: the same actions give
the same legal masks, observation tensors, rewards and endings, game after game
(auto-reset included); the compiled opponents choose as the level bots do; and the env is
a Gymnasium ``VectorEnv`` that Gymnasium's own vector wrappers accept."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import fourfold
from fourfold.ai.greedy import GreedyBot
from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.envs import vector_kernels as vk
from fourfold.envs.observe import encoder_for, vector_family
from fourfold.envs.vector import VectorEnv, usable_cores

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


def planes(game: Any, state: Any, seat: int) -> np.ndarray:
    """The tensor the single envs give ``seat`` in ``state``."""
    return encoder_for(game).encode(game.view(state, seat))


# -- self-play: masks, both observation kinds, rewards, endings -------------------------------


@pytest.mark.parametrize("name,variant", RULESETS)
def test_self_play_matches_the_rules_and_the_encoders(name: str, variant: str | None) -> None:
    n, steps, cap = 12, 120, 60
    env = VectorEnv(name, n, seed=5, variant=variant, max_steps=cap)
    compact = VectorEnv(name, n, seed=5, variant=variant, max_steps=cap, observation="compact")
    game = env.game
    encoder = encoder_for(game)
    obs, info = env.reset()
    cobs, _ = compact.reset()
    states = [game.initial_state() for _ in range(n)]
    plies = [0] * n
    finished = 0
    for _ in range(steps):
        for i in range(n):
            assert info["action_mask"][i].astype(bool).tolist() == game.legal_action_mask(
                states[i]), f"game {i}: legal masks differ"
            mover = game.to_move(states[i])
            assert info["to_move"][i] == mover
            assert np.array_equal(obs[i], encoder.encode(game.view(states[i], mover))), (
                f"game {i}: observation tensors differ")
            assert cobs[i].tolist() == expected_obs(game, states[i]), f"game {i}: compact"
        actions = env.sample_actions()
        movers = info["to_move"].copy()
        obs, rewards, terminated, truncated, info = env.step(actions)
        cobs, crewards, *_ = compact.step(actions)
        assert np.array_equal(rewards, crewards)
        for i in range(n):
            states[i] = game.next_state(states[i], game.decode(int(actions[i])))
            plies[i] += 1
            outcome = game.outcome(states[i])
            want = (outcome.returns(2) if outcome is not None else (0.0, 0.0))
            assert tuple(info["rewards"][i]) == want
            assert rewards[i] == want[movers[i]]  # the reward is the mover's
            assert bool(terminated[i]) == (outcome is not None)
            assert bool(truncated[i]) == (outcome is None and plies[i] >= cap)
            if terminated[i] or truncated[i]:
                assert info["_final_obs"][i]
                final = encoder.encode(game.view(states[i], int(movers[i])))
                assert np.array_equal(info["final_obs"][i], final), f"game {i}: final obs"
                states[i] = game.initial_state()
                plies[i] = 0
                finished += 1
            else:
                assert "final_obs" not in info or info["final_obs"][i] is None
    assert finished > n  # many games ran to their end and were reset


# -- opponents: each reply checked against the readable bot ------------------------------------


def _replies(game: Any, state: Any, learner: int, target: list[int]) -> list[tuple[Any, int]]:
    """The opponent's plies from ``state`` that reach the compact observation ``target``:
    ``[(state before, action)]``, inferred move by move (a position and its compact row
    determine the move)."""
    plies: list[tuple[Any, int]] = []
    while expected_obs(game, state) != target:
        mover = game.to_move(state)
        assert mover is not None and mover != learner, "no opponent move reaches the row"
        hits = [m for m in game.legal_moves(state)
                if expected_obs(game, game.next_state(state, m)) == target]
        assert len(hits) == 1, "the opponent's reply is not one legal move"
        plies.append((state, game.encode(hits[0])))
        state = game.next_state(state, hits[0])
    return plies


def _check_reply(game: Any, state: Any, action: int, kind: str, seat: int) -> None:
    bot = GreedyBot(game, seat, seed=0)
    wins, safe, losing = bot.classify(state)
    legal = [game.encode(m) for m in game.legal_moves(state)]
    assert action in legal
    if kind == "greedy":
        assert action in (wins or safe or losing), "greedy played outside its pool"
    elif kind == "beginner" and wins:
        assert action == min(wins), "the beginner takes the first win in move order"


OPPONENT_CASES = [
    ("quarto", None, "level1", "random"), ("quarto", None, "level2", "beginner"),
    ("quarto", None, "level3", "greedy"), ("folio", "fixed-grid", "level3", "greedy"),
    ("folio", "no-grid", "level2", "beginner"), ("dao", None, "level2", "greedy"),
    ("icedao", None, "level2", "greedy"),
]


@pytest.mark.parametrize("name,variant,opponent,kind", OPPONENT_CASES)
def test_opponents_play_as_the_level_bots(name: str, variant: str | None, opponent: str,
                                          kind: str) -> None:
    n, steps, cap = 6, 25, 80
    kw: dict[str, Any] = {"variant": variant, "opponent": opponent, "seat": "mixed",
                          "max_steps": cap}
    compact = VectorEnv(name, n, seed=7, observation="compact", **kw)
    env = VectorEnv(name, n, seed=7, **kw)
    game = env.game
    encoder = encoder_for(game)
    seats = [i % 2 for i in range(n)]
    cobs, _ = compact.reset()
    obs, _ = env.reset()
    states = []
    for i in range(n):
        state = game.initial_state()
        for before, action in _replies(game, state, seats[i], cobs[i].tolist()):
            _check_reply(game, before, action, kind, 1 - seats[i])
            state = game.next_state(before, game.decode(action))
        states.append(state)
    replies = 0
    for _ in range(steps):
        for i in range(n):
            assert np.array_equal(obs[i], encoder.encode(game.view(states[i], seats[i])))
        actions = compact.sample_actions()
        cobs, rewards, terminated, truncated, cinfo = compact.step(actions)
        obs, prewards, _, _, info = env.step(actions)
        assert np.array_equal(rewards, prewards)
        for i in range(n):
            state = game.next_state(states[i], game.decode(int(actions[i])))
            done = bool(terminated[i] or truncated[i])
            target = cinfo["final_obs"][i].tolist() if done else cobs[i].tolist()
            for before, action in _replies(game, state, seats[i], target):
                _check_reply(game, before, action, kind, 1 - seats[i])
                state = game.next_state(before, game.decode(action))
                replies += 1
            outcome = game.outcome(state)
            assert bool(terminated[i]) == (outcome is not None)
            if outcome is not None:
                assert rewards[i] == outcome.returns(2)[seats[i]]
            if done:
                assert np.array_equal(info["final_obs"][i], planes(game, state, seats[i]))
                state = game.initial_state()
                for before, action in _replies(game, state, seats[i], cobs[i].tolist()):
                    _check_reply(game, before, action, kind, 1 - seats[i])
                    state = game.next_state(before, game.decode(action))
            states[i] = state
    assert replies > n * steps // 3


def _kernel_row(game: Any) -> tuple[Any, Any, Any]:
    """(row loader, classify kernel, choose kernel) of a game's compiled family."""
    from fourfold.kernels import engine_for

    engine = engine_for(game)
    family = type(engine).__name__

    def load(state: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        engine.load(state)
        if family == "PlacementEngine":
            x = np.concatenate([engine.board, engine.supply, engine.st])  # type: ignore[attr-defined]
        else:
            x = engine.st.copy()  # type: ignore[attr-defined]
        keys = engine.keys.copy() if hasattr(engine, "keys") else np.zeros(1, dtype=np.int64)
        return engine.t, x, keys  # type: ignore[attr-defined]

    kernels = vector_family(game).kernels  # type: ignore[union-attr]
    return load, kernels[4], kernels[3]


@pytest.mark.parametrize("name,variant", [("quarto", None), ("folio", "fixed-grid"),
                                          ("dao", None), ("icedao", None)])
def test_compiled_classes_equal_the_greedy_bot(name: str, variant: str | None) -> None:
    """Wins at once, safe, hands over a win: the same split as ``GreedyBot.classify``,
    on positions of random games."""
    import random

    game = fourfold.load(name, variant)
    load, classify_kernel, _ = _kernel_row(game)
    rng = random.Random(3)
    checked = 0
    for _ in range(12):
        state = game.initial_state()
        for _ in range(40):
            if game.outcome(state) is not None:
                break
            wins, safe, losing = GreedyBot(game, game.to_move(state), seed=0).classify(state)
            t, x, keys = load(state)
            width = 256 if name != "icedao" else 64
            buf = np.zeros(width, dtype=np.int64)
            reply = np.zeros(2 * width, dtype=np.int64)
            h = np.zeros((vk.LOOKAHEAD_ROWS, 20), dtype=np.int64)
            count = classify_kernel(t, x, h, keys, buf, reply)
            classes = {int(buf[j]): int(reply[width + j]) for j in range(count)}
            assert {a for a, c in classes.items() if c == 0} == set(wins)
            assert {a for a, c in classes.items() if c == 1} == set(safe)
            assert {a for a, c in classes.items() if c == 2} == set(losing)
            checked += 1
            state = game.next_state(state, rng.choice(game.legal_moves(state)))
    assert checked > 100


def test_compiled_beginner_glances_like_the_readable_one() -> None:
    """Where no move wins, the beginner plays a safe move as often as ``GreedyBot`` with
    the same attention (it samples its glances the same way)."""
    import math
    import random

    game = fourfold.load("quarto")
    load, _, choose = _kernel_row(game)
    rng = random.Random(5)
    while True:  # a position of a random game where no move wins and some are safe
        state = game.initial_state()
        for _ in range(rng.randrange(7, 12)):
            state = game.next_state(state, rng.choice(game.legal_moves(state)))
            if game.outcome(state) is not None:
                break
        if game.outcome(state) is not None:
            continue
        seat = game.to_move(state)
        wins, safe, losing = GreedyBot(game, seat, seed=0).classify(state)
        if not wins and safe and len(losing) > len(safe):
            break
    t, x, keys = load(state)
    h = np.zeros((vk.LOOKAHEAD_ROWS, 20), dtype=np.int64)
    buf = np.zeros(256, dtype=np.int64)
    reply = np.zeros(512, dtype=np.int64)
    draws = 600
    rs = vk.seeded_rngs(11, 1)
    compiled = sum(int(choose(t, x.copy(), h, keys, buf, reply, rs, vk.BEGINNER, 3)) in safe
                   for _ in range(draws))
    readable = 0
    for seed in range(draws):
        bot = GreedyBot(game, seat, seed=seed, attention=3)
        readable += game.encode(bot.choose(game.view(state, seat))) in safe
    total = len(safe) + len(losing)
    expected = 1 - math.comb(len(losing), 3) / math.comb(total, 3)  # a safe one among three
    assert abs(compiled - readable) / draws < 0.08
    assert abs(compiled / draws - expected) < 0.08


def test_levels_name_the_compiled_bots() -> None:
    with pytest.raises(ConfigurationError, match=r"level3 of .*MCTS"):
        VectorEnv("dao", 2, opponent="level3")
    with pytest.raises(ConfigurationError, match="opponent must be"):
        VectorEnv("quarto", 2, opponent="level9")
    assert VectorEnv("quarto", 2, opponent="level2").attention == 3


# -- Gymnasium -------------------------------------------------------------------------------


def test_it_is_a_gymnasium_vector_env() -> None:
    from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

    env = VectorEnv("quarto", 16, seed=1, opponent="level3", seat="mixed")
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    single = gymnasium.make("fourfold/Quarto-v0") if "fourfold/Quarto-v0" in (
        gymnasium.registry) else None
    expected_shape = encoder_for(env.game).shape
    assert env.single_observation_space.shape == expected_shape
    if single is not None:
        assert env.single_observation_space == single.observation_space
    assert env.single_action_space == gymnasium.spaces.Discrete(env.game.num_actions)
    assert env.action_space == gymnasium.spaces.MultiDiscrete([env.game.num_actions] * 16)
    wrapped = DictInfoToList(RecordEpisodeStatistics(env))
    obs, infos = wrapped.reset(seed=4)
    assert env.observation_space.contains(obs)
    assert len(infos) == 16
    episodes = 0
    previous = obs
    for _ in range(30):
        obs, rewards, terminated, truncated, infos = wrapped.step(env.sample_actions())
        assert env.observation_space.contains(obs)
        assert rewards.shape == (16,) and terminated.dtype == np.bool_
        assert not np.shares_memory(obs, previous)  # new arrays every call (copy=True)
        previous = obs
        for i, info in enumerate(infos):
            if terminated[i] or truncated[i]:
                assert "episode" in info and "final_obs" in info
                assert env.single_observation_space.contains(info["final_obs"])
                episodes += 1
    assert episodes > 0
    actions = env.action_space.sample(mask=tuple(m.astype(np.int8) for m in env.action_masks()))
    env.step(actions)  # masked samples of the batched space are legal
    with pytest.raises(FourfoldError, match="illegal"):
        env.step(np.zeros(16, dtype=np.int64) + 288)


def test_reset_seeds_replay_the_batch() -> None:
    def run(seed: int) -> list[bytes]:
        env = VectorEnv("quarto", 32, seed=0, opponent="level2", observation="compact")
        obs, _ = env.reset(seed=seed)
        out = []
        for _ in range(50):
            obs, rewards, _, _, _ = env.step(env.sample_actions())
            out.append(obs.tobytes() + rewards.tobytes())
        return out

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_threads_give_the_same_games() -> None:
    def run(threads: int | None) -> bytes:
        env = VectorEnv("folio", 100, seed=1, variant="fixed-grid", threads=threads,
                        opponent="level3")
        env.reset()
        for _ in range(30):
            env.step(env.sample_actions())
        return env.obs.tobytes()

    assert run(1) == run(None)
    assert VectorEnv("quarto", 2, threads=None).threads == usable_cores()
    assert VectorEnv("quarto", 2, threads=64).threads == usable_cores()


def test_illegal_actions_raise_and_name_the_games() -> None:
    env = VectorEnv("quarto", 4, seed=0)
    env.reset()
    actions = env.sample_actions()
    actions[2] = 0  # a placement before the opening give
    with pytest.raises(FourfoldError, match="game 2"):
        env.step(actions)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="no vectorised env"):
        VectorEnv("quatrefoil", 2)
    with pytest.raises(ConfigurationError):
        VectorEnv(fourfold.load("folio", "freeform"), 2)
    with pytest.raises(ConfigurationError, match="seat"):
        VectorEnv("quarto", 2, seat=2)
    with pytest.raises(ConfigurationError, match="observation"):
        VectorEnv("quarto", 2, observation="pixels")
