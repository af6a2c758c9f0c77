"""OpenSpiel's algorithms on fourfold games: which play a whole game, and which cannot
(docs/envs.md, "Which OpenSpiel algorithms work"). Quatrefoil resamples a deal from a
seat's information state, so ISMCTS plays it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import (  # noqa: E402
    evaluate_bots,
    ismcts,
    mcts,
    outcome_sampling_mccfr,
    random_agent,
)

from fourfold.envs import openspiel_game  # noqa: E402
from fourfold.games.quatrefoil.arrangement import STACK  # noqa: E402
from support.gamecases import case_id, playable_cases  # noqa: E402

CASES = playable_cases()
SEQUENTIAL_QUATREFOIL = ["base", "nothing-to-hide", "half-and-half", "race-the-clock"]


def _play(state: Any, choose: Any, rng: np.random.RandomState, limit: int = 400) -> Any:
    """Play to the end: chance by its probabilities, players by ``choose(state)``."""
    for _ in range(limit):
        if state.is_terminal():
            return state
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(choose(state)))
    raise AssertionError(f"no end after {limit} actions")


def _dealt(game: Any, seed: int, actions: int) -> Any:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randint(len(outcomes))][0])
    for _ in range(actions):
        legal = [a for a in state.legal_actions() if a != STACK]  # play on
        state.apply_action(int(rng.choice(legal)))
    return state


# -- resample_from_infostate ---------------------------------------------------------------------


@pytest.mark.parametrize("variant", SEQUENTIAL_QUATREFOIL)
def test_resampled_states_share_the_seat_s_information_state(variant: str) -> None:
    from fourfold.games.quatrefoil.observe_deal import consistent_deals

    game = openspiel_game("quatrefoil", variant)
    rng = np.random.default_rng(7)
    varied = 0
    for seed in range(4):
        for actions in range(3):
            state = _dealt(game, seed, actions)
            seat = state.current_player()
            possible = consistent_deals(game.rules, game.rules.view(state.value, seat))
            deals = set()
            for _ in range(25):
                twin = state.resample_from_infostate(seat, rng.random)
                assert (twin.information_state_string(seat)
                        == state.information_state_string(seat))
                assert twin.observation_tensor(seat) == state.observation_tensor(seat)
                assert twin.legal_actions() == state.legal_actions()
                assert twin.history()[2:] == state.history()[2:]  # the start, the actions
                deals.add(tuple(twin.history()[:2]))
            assert deals <= set(possible)
            assert (len(deals) > 1) == (len(possible) > 1)
            varied += len(possible) > 1
    if variant in ("base", "race-the-clock"):
        assert varied >= 6, "the seat's cards are hidden: the deals vary"
    if variant == "nothing-to-hide":
        assert varied == 0  # every card is face up


def test_resampling_follows_the_sampler_and_covers_every_consistent_deal() -> None:
    from fourfold.games.quatrefoil.observe_deal import consistent_deals

    game = openspiel_game("quatrefoil", "base")
    state = _dealt(game, 5, actions=1)
    seat = state.current_player()
    deals = consistent_deals(game.rules, game.rules.view(state.value, seat))
    assert tuple(state.history()[:2]) in deals
    uniforms = iter(np.linspace(0.0, 1.0, len(deals), endpoint=False) + 0.5 / len(deals))
    drawn = {tuple(state.resample_from_infostate(seat, lambda: next(uniforms)).history()[:2])
             for _ in range(len(deals))}
    assert drawn == set(deals)


def test_perfect_information_resamples_to_the_state_itself() -> None:
    game = openspiel_game("quarto")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[3])
    twin = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert twin.history() == state.history() and str(twin) == str(state)


# -- whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", SEQUENTIAL_QUATREFOIL)
def test_ismcts_plays_a_whole_game(variant: str) -> None:
    game = openspiel_game("quatrefoil", variant, max_steps=40)
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                           max_simulations=40, random_state=rng)
    end = _play(game.new_initial_state(), bot.step, rng)
    assert end.returns()[0] in (-1.0, 0.0, 1.0)
    assert len(set(end.returns())) == 1  # one team


def test_outcome_sampling_mccfr_trains_and_its_policy_plays_a_whole_game() -> None:
    game = openspiel_game("quatrefoil", "base", max_steps=30)
    np.random.seed(0)  # MCCFR samples with NumPy's global generator
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(10):
        solver.iteration()
    policy = solver.average_policy()
    rng = np.random.RandomState(0)

    def choose(state: Any) -> int:
        actions, probs = zip(*policy.action_probabilities(state).items(), strict=True)
        return int(rng.choice(actions, p=np.asarray(probs) / sum(probs)))

    end = _play(game.new_initial_state(), choose, rng)
    assert end.is_terminal()


def test_python_mcts_plays_a_perfect_information_game() -> None:
    game = openspiel_game("quarto")
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2.0, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    end = _play(game.new_initial_state(), bot.step, rng)
    assert sorted(end.returns()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rl_environment_plays_every_game_with_its_full_state(case: tuple[str, str]) -> None:
    game = openspiel_game(case[0], case[1], max_steps=40)
    env = rl_environment.Environment(game, include_full_state=True, seed=2)
    agents = [random_agent.RandomAgent(p, env.action_spec()["num_actions"])
              for p in range(env.num_players)]
    step = env.reset()
    for _ in range(200):
        if step.last():
            break
        if env.is_turn_based:
            player = step.observations["current_player"]
            step = env.step([agents[player].step(step).action])
        else:
            step = env.step([agent.step(step).action for agent in agents])
        game2, _state2 = pyspiel.deserialize_game_and_state(
            step.observations["serialized_state"])
        assert str(game2) == str(game)
    assert step.last()


def test_evaluate_bots_and_turn_based_dual() -> None:
    dual = openspiel_game("quatrefoil", "dual", max_steps=30)
    turn_based = pyspiel.convert_to_turn_based(dual)
    for game in (dual, turn_based, openspiel_game("icedao", max_steps=40)):
        bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(game.num_players())]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                              np.random.RandomState(0))
        assert len(returns) == game.num_players()


def test_upstream_cpp_mcts_bot_crashes_on_python_games() -> None:
    """OpenSpiel's C++ ``MCTSBot`` dies on any game written in Python, its own
    ``python_tic_tac_toe`` included (open-spiel 1.x/2.0.x): use the Python ``mcts``."""
    script = textwrap.dedent("""
        import pyspiel
        from open_spiel.python.games import tic_tac_toe  # noqa: F401
        game = pyspiel.load_game("python_tic_tac_toe")
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 20, 1000,
                              False, 1, False)
        bot.step(game.new_initial_state())
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120,
                          check=False)
    assert done.returncode != 0, "upstream fixed C++ MCTSBot on Python games: update docs/envs.md"


def test_dual_resamples_through_its_simultaneous_moments() -> None:
    game = openspiel_game("quatrefoil", "dual")
    rng = np.random.RandomState(4)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < 40:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            state.apply_actions([int(rng.choice([a for a in state.legal_actions(p)
                                                 if a != STACK])) for p in range(4)])
    assert state.is_simultaneous_node()
    deals = set()
    for seat in range(4):
        for draw in range(10):
            twin = state.resample_from_infostate(seat, np.random.default_rng(draw).random)
            assert twin.is_simultaneous_node()
            assert twin.information_state_string(seat) == state.information_state_string(seat)
            assert twin.value.history == state.value.history  # the same actions landed
            assert twin.legal_actions(seat) == state.legal_actions(seat)
            deals.add(twin.value.deal)
    assert len(deals) > 1
