"""The frameworks' own checkers with their defaults, on every game and variant: PettingZoo's
``api_test`` and ``parallel_api_test``, Gymnasium's ``check_env`` and OpenSpiel's
``random_sim_test`` (which serialises every state it visits); pickle round trips of
every env mid-episode (docs/envs.md)."""

from __future__ import annotations

import pickle
import time
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from fourfold.envs import aec_env, gym_env, openspiel_game, parallel_env  # noqa: E402
from support.gamecases import case_id, playable_cases  # noqa: E402

CASES = playable_cases()
FREEFORM = ("folio", "freeform")
#: OpenSpiel's random_sim_test has no default simulation count: five for every game (a
#: Folio freeform simulation takes about a CPU second since fit_bounds, over 30 before)
SIMS = 5
#: a bound on each checker's time, so a slow game fails instead of stalling the run
SECONDS = 240.0


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checkers warn that Dict observations are dicts
        yield


def _timed(check: Any, *args: Any, **kwargs: Any) -> None:
    start = time.monotonic()
    check(*args, **kwargs)
    assert time.monotonic() - start < SECONDS, f"{check.__name__} took too long"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_api_test_with_its_defaults(case: tuple[str, str]) -> None:
    _timed(api_test, aec_env(case[0], case[1]))
    _timed(api_test, aec_env(case[0], case[1], render_mode="ansi"))


def test_pettingzoo_parallel_api_test_with_its_defaults() -> None:
    _timed(parallel_api_test, parallel_env("quatrefoil", "dual"))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_gymnasium_check_env_with_its_defaults(case: tuple[str, str]) -> None:
    _timed(check_env, gym_env(case[0], None, case[1]))
    _timed(check_env, gym_env(case[0], None, case[1], render_mode="ansi"))


def test_gymnasium_check_env_tries_every_render_mode_of_the_registered_ids() -> None:
    import gymnasium

    from fourfold.envs.registration import env_ids

    for env_id in env_ids():
        # made by id, the env has a spec: check_env remakes it in each render mode
        _timed(check_env, gymnasium.make(env_id).unwrapped)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_openspiel_random_sim_test_serialises(case: tuple[str, str]) -> None:
    game = openspiel_game(case[0], case[1])
    _timed(pyspiel.random_sim_test, game, num_sims=SIMS, serialize=True,
           verbose=False)


# -- pickling and serialising -------------------------------------------------------------------


def _spiel_midgame(game: Any, plies: int, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        elif state.is_simultaneous_node():
            state.apply_actions([int(rng.choice(state.legal_actions(p)))
                                 for p in range(game.num_players())])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_openspiel_games_and_states_serialise_and_pickle(case: tuple[str, str]) -> None:
    game = openspiel_game(case[0], case[1], max_steps=30)
    state = _spiel_midgame(game, 4 if case == FREEFORM else 12, seed=4)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    for g, s in ((game2, state2), pickle.loads(pickle.dumps((game, state)))):
        assert str(g) == str(game)
        assert s.history() == state.history()
        assert str(s) == str(state)
        if not s.is_terminal():
            players = (range(game.num_players()) if s.is_simultaneous_node()
                       else [s.current_player()])
            for p in players:
                assert s.legal_actions(p) == state.legal_actions(p)
        for p in range(game.num_players()):
            assert s.information_state_string(p) == state.information_state_string(p)
            assert s.observation_tensor(p) == state.observation_tensor(p)


def _masked(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def _aec_trace(env: Any, seed: int, steps: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    trace = []
    for agent in env.agent_iter(max_iter=steps):
        obs, reward, term, trunc, _ = env.last()
        action = None if term or trunc else _masked(rng, obs["action_mask"])
        env.step(action)
        trace.append((agent, reward, obs["observation"].tobytes(), action))
    return trace


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_aec_and_gym_envs_pickle_mid_episode_and_play_on_alike(case: tuple[str, str]) -> None:
    steps = 6 if case == FREEFORM else 20
    env = aec_env(case[0], case[1])
    env.reset(seed=11)
    _aec_trace(env, seed=1, steps=3)
    copy = pickle.loads(pickle.dumps(env))
    assert _aec_trace(copy, seed=2, steps=steps) == _aec_trace(env, seed=2, steps=steps)

    gym = gym_env(case[0], None, case[1])
    _obs, _info = gym.reset(seed=5)
    twin = pickle.loads(pickle.dumps(gym))
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    for _ in range(steps):
        a = gym.step(_masked(rng_a, gym.action_masks()))
        b = twin.step(_masked(rng_b, twin.action_masks()))
        assert a[0].tobytes() == b[0].tobytes() and a[1:4] == b[1:4]
        if a[2] or a[3]:
            break


def test_parallel_env_pickles_mid_episode_and_plays_on_alike() -> None:
    env = parallel_env(max_steps=40)
    obs, _ = env.reset(seed=9)
    copy = pickle.loads(pickle.dumps(env))
    rng = np.random.default_rng(0)
    while env.agents:
        actions = {a: _masked(rng, obs[a]["action_mask"]) for a in env.agents}
        obs, rewards, _, _, infos = env.step(actions)
        obs2, rewards2, _, _, infos2 = copy.step(actions)
        assert rewards == rewards2 and infos == infos2
        assert all(obs[a]["observation"].tobytes() == obs2[a]["observation"].tobytes()
                   for a in obs)
    assert not copy.agents


# -- Dual: each agent's own actions -------------------------------------------------------------


def test_dual_agents_have_only_their_own_actions() -> None:
    env = parallel_env()
    game = env.game
    width = game.num_actions // game.num_players
    assert all(env.action_space(a).n == width + 1 for a in env.possible_agents)
    obs, _ = env.reset(seed=2)
    spiel = openspiel_game("quatrefoil", "dual")
    assert spiel.num_distinct_actions() == width + 1
    state = _spiel_midgame(spiel, 3, seed=0)  # the deal drawn: every seat may act
    for seat, agent in enumerate(env.possible_agents):
        view = game.view(env.state_value, seat)
        full = np.flatnonzero(game.view_legal_action_mask(view))
        mask = obs[agent]["action_mask"]
        assert sorted(seat * width + np.flatnonzero(mask[:width])) == sorted(full)
        assert mask[width] == 1  # wait
        for local in np.flatnonzero(mask[:width]):
            assert game.decode(int(seat * width + local)).seat == seat
        assert all(0 <= a <= width for a in state.legal_actions(seat))
        assert state.legal_actions(seat)[-1] == width
    gym = gym_env("quatrefoil", None, "dual", seat=2)
    assert gym.action_space.n == width + 1
    gym.reset(seed=1)
    assert gym.action_masks()[width]


def _spiel_in_a_fresh_process(blob: bytes) -> tuple[str, list[int], str]:
    game, state = pickle.loads(blob)  # the game classes are registered on demand
    return str(game), state.history(), state.information_state_string(0)


def test_openspiel_pickles_load_in_a_fresh_process() -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    pairs = []
    for name, variant in (("quatrefoil", "half-and-half"), ("dao", "standard")):
        game = openspiel_game(name, variant, max_steps=50)
        pairs.append((game, _spiel_midgame(game, 9, seed=1)))
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
        results = list(pool.map(_spiel_in_a_fresh_process, [pickle.dumps(p) for p in pairs],
                                timeout=120))
    for (game, state), (text, history, info) in zip(pairs, results, strict=True):
        assert text == str(game)
        assert history == state.history()
        assert info == state.information_state_string(0)


@pytest.mark.parametrize("name,variant,options", [
    ("folio", "freeform", {"strict": True, "table": 12, "tolerance": 0.25}),
    ("folio", "no-grid", {"extra": "Ys,Gm,Rl,Bs", "line_rule": "same-colour-or-size"}),
    ("dao", None, {"max_plies": 50}),
    ("icedao", None, {"first": "green"}),
    ("quatrefoil", "dual", {"clock": True, "clock_seconds": 90}),
])
def test_openspiel_game_strings_load_the_same_configuration(
        name: str, variant: str | None, options: dict[str, Any]) -> None:
    game = openspiel_game(name, variant, **options)
    again = pyspiel.load_game(str(game))
    assert again.rules is game.rules  # the registry's own configured game
    assert again.max_game_length() == game.max_game_length()
    state = _spiel_midgame(game, 5, seed=3)
    _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(back) == str(state)


def test_openspiel_max_plies_zero_means_no_cap() -> None:
    assert pyspiel.load_game("python_fourfold_dao_standard(max_plies=0)").rules.max_plies is None
    assert openspiel_game("dao").rules.max_plies is None
