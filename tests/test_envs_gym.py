"""The Gymnasium env done properly: registered ids for every game and variant, the
``action_masks()`` protocol of sb3-contrib, the illegal-move penalty, and the worked
Stable-Baselines3 example on a short budget (docs/envs.md, Gymnasium)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import fourfold  # noqa: E402
from fourfold.ai import make_bot  # noqa: E402
from fourfold.core.errors import FourfoldError  # noqa: E402
from fourfold.envs import gym_env  # noqa: E402  (importing fourfold.envs registers the ids)
from fourfold.envs.gym import DEFAULT_ILLEGAL_PENALTY  # noqa: E402
from fourfold.envs.observe import encoder_for  # noqa: E402
from fourfold.envs.registration import env_ids  # noqa: E402
from support.gamecases import playable_cases  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "sb3_quarto.py"


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gymnasium's passive checker warns about dtypes
        yield


def test_one_id_per_playable_game_and_variant() -> None:
    ids = env_ids()
    assert sorted(ids.values()) == sorted(playable_cases())
    assert ids["fourfold/Quarto-v0"] == ("quarto", "standard")
    assert ids["fourfold/Quatrefoil-v0"] == ("quatrefoil", "base")
    assert ids["fourfold/Quatrefoil-Dual-v0"] == ("quatrefoil", "dual")
    assert ids["fourfold/Folio-FixedGrid-v0"] == ("folio", "fixed-grid")
    assert ids["fourfold/IceDao-v0"] == ("icedao", "standard")
    assert all(env_id in gymnasium.registry for env_id in ids)


@pytest.mark.parametrize("env_id", sorted(env_ids()))
def test_every_id_makes_its_game(env_id: str) -> None:
    game, variant = env_ids()[env_id]
    env = gymnasium.make(env_id, max_steps=20)
    obs, info = env.reset(seed=3)
    inner = env.unwrapped
    assert (inner.game.name, inner.game.info.variant) == (game, variant)
    assert env.observation_space.contains(obs)
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"] > 0)


def test_make_passes_bots_seats_penalty_and_game_options() -> None:
    env = gymnasium.make("fourfold/Dao-v0", opponent="level1", seat=1, illegal_penalty=-3.0,
                         max_plies=40)
    inner = env.unwrapped
    assert (inner.opponent, inner.seat_choice, inner.illegal_penalty) == ("level1", 1, -3.0)
    assert "max-plies=40" in inner.game.info.label()
    _, info = env.reset(seed=0)
    assert info["seat"] == 1


@pytest.mark.parametrize("env_id", sorted(env_ids()))
def test_default_opponents_can_play_their_games(env_id: str) -> None:
    inner = gymnasium.make(env_id).unwrapped
    make_bot(inner.opponent, inner.game, 1, seed=0)  # raises if it cannot
    if inner.game.name == "quarto":
        assert inner.opponent == "level3"


def test_ids_resolve_without_importing_fourfold_first() -> None:
    code = ("import gymnasium; env = gymnasium.make('fourfold.envs:fourfold/Quarto-v0');"
            " print(env.unwrapped.game.name)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.strip() == "quarto"


def test_a_bad_id_says_which_exist() -> None:
    with pytest.raises(gymnasium.error.NameNotFound, match="Quarto"):
        gymnasium.make("fourfold/Quartoo-v0")


@pytest.mark.parametrize("game,variant,opponent", [
    ("quarto", None, "level2"), ("quatrefoil", "dual", "quatrefoil"),
    ("quatrefoil", "base", "quatrefoil"), ("dao", None, "random"),
])
def test_action_masks_follow_every_step(game: str, variant: str | None, opponent: str) -> None:
    env = gym_env(game, opponent, variant, seat="random", max_steps=40)
    rng = np.random.default_rng(5)
    for episode in range(3):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            masks = env.action_masks()
            assert masks.dtype == np.bool_ and masks.shape == (env.action_space.n,)
            assert np.array_equal(masks, info["action_mask"] > 0)
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(masks))))
            done = terminated or truncated
        if terminated:
            assert not env.action_masks().any()


def test_action_masks_before_reset_is_an_error() -> None:
    with pytest.raises(FourfoldError, match="reset"):
        gym_env("quarto", "random").action_masks()


def test_illegal_action_costs_more_than_a_loss_and_ends_the_episode() -> None:
    assert DEFAULT_ILLEGAL_PENALTY < -1.0
    env = gym_env("quarto", "random")
    _, info = env.reset(seed=0)
    before = env.state_value
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (DEFAULT_ILLEGAL_PENALTY, True, False)
    assert info["illegal"]
    assert env.state_value is before  # refused: the game did not move


def test_maskable_ppo_finds_the_masks_through_gymnasium_wrappers() -> None:
    pytest.importorskip("sb3_contrib", reason="the rl extra is not installed")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = gymnasium.make("fourfold/Quarto-v0", opponent="random")
    _, info = env.reset(seed=1)
    assert is_masking_supported(env)
    assert np.array_equal(get_action_masks(env), info["action_mask"] > 0)


def test_the_sb3_example_trains_saves_reloads_and_evaluates(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="the rl extra is not installed")
    pytest.importorskip("torch", reason="the rl extra is not installed")
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # the default output: a new temp folder
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--timesteps", "256", "--envs", "2", "--n-steps", "64",
         "--checkpoint-steps", "128", "--eval-games", "2"],
        capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (out,) = tmp_path.glob("sb3_quarto_*")
    results = json.loads((out / "results.json").read_text())
    assert results["training"]["timesteps"] >= 256
    assert results["training"]["episodes"] > 0
    assert sorted((out / "checkpoints").glob("quarto_*_steps.zip"))
    progress = (out / "progress.csv").read_text().splitlines()
    assert progress[0] == "timesteps,cpu_seconds,mean_reward_last_200_per_env"
    assert len(progress) > 1
    for opponent in ("level2", "level3"):
        scores = results["evaluation"][opponent]
        assert scores["wins"] + scores["draws"] + scores["losses"] == 2
        low, high = scores["interval95"]
        assert 0.0 <= low <= scores["score"] <= high <= 1.0
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(out / "quarto_maskable_ppo.zip", device="cpu")
    play = gymnasium.make("fourfold/Quarto-v0", opponent="random")
    obs, _ = play.reset(seed=0)
    masks = play.get_wrapper_attr("action_masks")()
    action, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert masks[int(action)]


def _example_module() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("sb3_quarto", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_line_features_agree_with_the_rules() -> None:
    """``QuartoLines`` flags exactly the (cell, give) actions after which the opponent
    can complete a line at once."""
    pytest.importorskip("sb3_contrib", reason="the rl extra is not installed")
    import torch

    example = _example_module()
    game = fourfold.load("quarto")
    encoder = encoder_for(game)
    extractor = example.QuartoLines(gymnasium.spaces.Box(0.0, 1.0, encoder.shape))
    rng = np.random.default_rng(0)
    flagged = checked = 0
    for deal in range(4):
        state = game.initial_state(deal)
        while game.outcome(state) is None:
            seat = game.actors(state)[0]
            obs = torch.tensor(encoder.encode(game.view(state, seat)))[None]
            danger = extractor(obs)[0, -256:].reshape(16, 16).numpy()
            moves = game.legal_moves(state)
            for move in moves:
                after = game.next_state(state, move)
                if move.place is None or move.give is None or game.outcome(after) is not None:
                    continue
                loses = any(
                    (o := game.outcome(game.next_state(after, reply))) is not None
                    and o.returns(2)[seat] < 0 for reply in game.legal_moves(after))
                assert bool(danger[game.geometry.index(move.place), move.give]) == loses
                flagged += loses
                checked += 1
            state = game.next_state(state, moves[int(rng.integers(len(moves)))])
    assert checked > 1000 and flagged > 20


def test_the_sb3_example_refuses_bad_arguments(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="the rl extra is not installed")
    done = subprocess.run([sys.executable, str(EXAMPLE), "--cpu-minutes", "0"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 2
    assert "--cpu-minutes must be positive" in done.stderr
    assert "Traceback" not in done.stderr
