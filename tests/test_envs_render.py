"""``render()`` shows what a spectator may see, in every env: no hidden card while the game
is on, every card once it is over; the referee's whole state only under
``render_mode="referee"`` (docs/envs.md, Rendering)."""

from __future__ import annotations

import warnings
from itertools import permutations
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import fourfold
from fourfold.core.errors import FourfoldError
from fourfold.envs import aec_env, gym_env, parallel_env
from fourfold.games.quatrefoil.arrangement import ALL_ARRANGEMENTS
from fourfold.games.quatrefoil.state import Deal, QuatrefoilState

HIDDEN = ["base", "half-and-half", "race-the-clock", "dual"]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _spectator_twins(game: Any, state: QuatrefoilState, count: int = 3) -> list[Any]:
    """Other deals a spectator cannot tell from the real one (same start and actions)."""
    public = game.view(state, None)
    twins = []
    for solution in ALL_ARRANGEMENTS:
        for p in permutations(range(4)):
            deal = Deal(solution, (p[0], p[1], p[2], p[3]))
            if deal == state.deal or solution == state.start:
                continue
            twin = QuatrefoilState(deal, state.start, state.history)
            if game.view(twin, None) == public:
                twins.append(twin)
                if len(twins) == count:
                    return twins
    return twins


def _check_render(env: Any, inner: Any, render: Any) -> bool:
    """The render equals the render of every deal the spectator cannot tell apart (and
    holds no card the referee's text shows). ``False`` when the signals seen so far leave
    a spectator only the real deal."""
    state = inner.state_value
    text = render()
    assert text and "solution=" not in text and "cards=" not in text
    referee = fourfold.envs.common.render_text(inner.game, state, "referee")
    assert referee != text and "Cards:" in referee
    twins = _spectator_twins(inner.game, state)
    for twin in twins:
        inner.state_value = twin
        assert render() == text
    inner.state_value = state
    return bool(twins)


@pytest.mark.parametrize("variant", HIDDEN)
def test_aec_render_hides_every_hidden_card_during_play(variant: str) -> None:
    env = aec_env("quatrefoil", variant, render_mode="ansi", max_steps=60)
    env.reset(seed=3)
    inner: Any = env.unwrapped  # Dual: the Parallel env under parallel_to_aec
    rng = np.random.default_rng(0)
    checked = twinned = 0
    for _agent in env.agent_iter(max_iter=24):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        if not inner.game.is_over(inner.state_value):
            twinned += _check_render(env, inner, env.render)
            checked += 1
        legal = np.flatnonzero(obs["action_mask"][:-1] if variant == "dual"
                               else obs["action_mask"])
        env.step(int(rng.choice(legal[legal % 11 != 10])) if len(legal) > 1
                 else int(legal[0]))
    assert checked >= 8 and twinned >= 2


@pytest.mark.parametrize("variant", HIDDEN)
def test_gym_render_hides_every_hidden_card_during_play(variant: str) -> None:
    env = gym_env("quatrefoil", None, variant, render_mode="ansi", max_steps=40)
    env.reset(seed=5)
    rng = np.random.default_rng(1)
    twinned = 0
    for _ in range(6):
        twinned += _check_render(env, env, env.render)
        mask = env.action_masks()
        moves = [a for a in np.flatnonzero(mask) if a != 10]  # play on: never stack
        _, _, terminated, truncated, _ = env.step(int(rng.choice(moves)))
        if terminated or truncated:
            break
    # half-and-half shows the colour cards, so the first signals give the rest away
    assert twinned >= 1 or variant == "half-and-half"


def test_parallel_render_hides_and_the_end_reveals() -> None:
    env = parallel_env(render_mode="ansi", max_steps=60)
    env.reset(seed=2)
    _check_render(env, env, env.render)
    stack = 10
    _obs, *_ = env.step({a: stack if a == "player_0" else 11 for a in env.agents})
    assert env.game.is_over(env.state_value)
    assert env.render() == fourfold.envs.common.render_text(env.game, env.state_value,
                                                            "referee")


def test_a_finished_game_shows_every_card() -> None:
    env = gym_env("quatrefoil", None, "base", render_mode="ansi")
    env.reset(seed=1)
    env.step(10)  # stack at once: the game ends, every card turns face up
    text = env.render()
    solution = env.state_value.deal.solution
    from fourfold.games.quatrefoil.arrangement import format_arrangement

    assert "solution" in text
    letters = format_arrangement(solution).replace("/", "")
    assert all(letter in text for letter in letters)


def test_referee_and_human_modes_and_a_bad_mode(capsys: pytest.CaptureFixture[str]) -> None:
    env = aec_env("quatrefoil", "base", render_mode="referee")
    env.reset(seed=4)
    assert "Cards:" in env.render()  # the referee sees every card
    human = aec_env("quarto", render_mode="human")
    human.reset(seed=1)
    assert human.render() is None
    assert "a     b     c     d" in capsys.readouterr().out
    with pytest.raises(FourfoldError, match="unknown render_mode 'rgb_array'; valid modes: ansi,"):
        gym_env("quarto", "random", render_mode="rgb_array")


def test_perfect_information_renders_the_board() -> None:
    env = aec_env("icedao", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == fourfold.envs.common.render_text(env.unwrapped.game,
                                                            env.unwrapped.state_value,
                                                            "referee")
    assert "a       b       c       d       e" in env.render()
