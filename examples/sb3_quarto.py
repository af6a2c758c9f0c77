"""Train MaskablePPO (sb3-contrib) on ``fourfold/Quarto-v0``, save it, reload it, evaluate it.

    pip install -e '.[rl]'
    python examples/sb3_quarto.py               # 1.5 CPU minutes, then 400 games vs each level
    python examples/sb3_quarto.py --cpu-minutes 1 --eval-games 100 --out runs/quick
    python examples/sb3_quarto.py --evaluate runs/quick/quarto_maskable_ppo.zip --against level4

Everything comes from the registered Gymnasium id, with no glue: the env's
``action_masks()`` is what ``MaskablePPO`` calls, so illegal actions are never sampled.
The agent learns both seats (``seat="random"``) against ``--opponent`` (``level2``; a
comma-separated list deals the opponents out over the parallel envs).

The policy (``--features lines``, the default) sees the env's observation tensor (60
planes of 4x4) through a features extractor, ``QuartoLines``, with no weights of its own:
beside the flattened planes it computes, with fixed tensor arithmetic on the agent's own
observation, which actions would hand the opponent a win (placing the piece in hand on a
cell, then giving a piece that completes a line somewhere: line sums of the attribute
planes). The action logits, ``SharedActionHead``, are a linear function of the planes
plus two weights shared by every action: one on that "hands over a win" bit, one on
"places without giving" (the game's encoding of a placement that ends the game). All
start at zero or near it, so the untrained policy is nearly uniform over the legal actions;
PPO learns the weights. ``--features flat`` is SB3's plain ``MlpPolicy`` on the planes
alone (``--pi-layers`` sets its hidden layers), for comparison.

Training stops after ``--cpu-minutes`` of this process's CPU time (torch on one thread,
the envs in this process), or ``--timesteps``, whichever comes first; a checkpoint is
saved every ``--checkpoint-steps``. The final model is saved, loaded back from the file,
and played through ``fourfold.analysis.match.play_match`` (the engine of ``fourfold
match``: sides alternate, seeded) against level2 and level3, ``--eval-games`` games each,
with a 95% interval on the score. Everything goes to a new temporary folder unless
``--out DIR`` is given; ``results.json`` there holds the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

try:
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from stable_baselines3.common.vec_env import DummyVecEnv
except ImportError as exc:  # pragma: no cover - depends on the optional extra
    sys.exit(f"sb3_quarto: needs the rl extra (pip install -e '.[rl]'): {exc}")
import gymnasium
from gymnasium import spaces

import fourfold
import fourfold.envs  # registers the Gymnasium ids
from fourfold.ai import BOTS, Bot, Limit
from fourfold.analysis.match import play_match
from fourfold.core.game import Game, View
from fourfold.envs.observe import encoder_for
from fourfold.games.placement.observe import piece_attributes

ENV_ID = "fourfold/Quarto-v0"
BOT_NAME = "sb3-maskable-ppo"
LINES = [[r * 4 + c for c in range(4)] for r in range(4)] + [
    [r * 4 + c for r in range(4)] for c in range(4)] + [[0, 5, 10, 15], [3, 6, 9, 12]]
PIECES, ATTRIBUTES = 16, 8  # the planes: 16 pieces on the board, 8 attributes, 16 in hand
#: the shared weights count in tens of logits: Adam moves every parameter by about the
#: learning rate per step, and these two must travel far, in few updates
SHARED_SCALE = 10.0


class QuartoLines(BaseFeaturesExtractor):  # type: ignore[misc]
    """The flattened planes, plus ``danger[cell, piece]``: placing the piece in hand on
    ``cell`` and then giving ``piece`` lets the opponent complete a line at once."""

    def __init__(self, observation_space: spaces.Box) -> None:
        size = int(np.prod(observation_space.shape))
        super().__init__(observation_space, features_dim=size + PIECES * PIECES)
        game = fourfold.load("quarto")
        has = np.array([kinds for _, kinds in piece_attributes(game.pieces)], dtype=np.float32)
        self.register_buffer("piece_has", torch.tensor(has.T))  # (piece, attribute)
        self.register_buffer("lines", torch.tensor(LINES))  # (line, 4)
        self.register_buffer("eye", torch.eye(PIECES))

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        batch = obs.shape[0]
        cells = obs.flatten(2)  # (batch, plane, cell)
        occupied = cells[:, :PIECES].sum(1)  # (batch, cell)
        attrs = cells[:, PIECES:PIECES + ATTRIBUTES]  # (batch, attribute, cell)
        hand = cells[:, PIECES + ATTRIBUTES:2 * PIECES + ATTRIBUTES, 0]  # (batch, piece)
        hand_attrs = hand @ self.piece_has  # (batch, attribute)
        # after placing the piece in hand on each cell c: (batch, c, attribute, cell)
        place = self.eye * (1 - occupied)[:, :, None] * hand.sum(1)[:, None, None]
        attrs_after = attrs[:, None] + place[:, :, None, :] * hand_attrs[:, None, :, None]
        occupied_after = occupied[:, None] + place  # (batch, c, cell)
        line_attrs = attrs_after[..., self.lines].sum(-1)  # (batch, c, attribute, line)
        line_full3 = (occupied_after[..., self.lines].sum(-1) == 3).float()  # (batch, c, line)
        open_attr = ((line_attrs == 3).float() * line_full3[:, :, None]).amax(-1)
        danger = (open_attr @ self.piece_has.T).clamp(max=1.0)  # (batch, c, piece)
        return torch.cat([obs.reshape(batch, -1), danger.reshape(batch, -1)], dim=1)


def action_cells_and_gives(game: Game[Any, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Per action of the game's encoding: the index into ``danger[cell, piece]`` (-1 for
    an action that gives nothing or places nothing), and whether it places without giving."""
    index = np.full(game.num_actions, -1)
    places_only = np.zeros(game.num_actions, dtype=np.float32)
    for action in range(game.num_actions):
        move = game.decode(action)
        if move.place is not None and move.give is not None:
            index[action] = game.geometry.index(move.place) * PIECES + move.give
        places_only[action] = float(move.place is not None and move.give is None)
    return index, places_only


class SharedActionHead(torch.nn.Module):
    """Logits: a linear map of the planes, plus two weights shared by all actions (on
    "hands over a win" and on "places without giving")."""

    def __init__(self, planes: int) -> None:
        super().__init__()
        game = fourfold.load("quarto")
        index, places_only = action_cells_and_gives(game)
        self.planes = planes
        self.linear = torch.nn.Linear(planes, game.num_actions)
        torch.nn.init.orthogonal_(self.linear.weight, gain=0.01)
        torch.nn.init.zeros_(self.linear.bias)
        self.shared = torch.nn.Parameter(torch.zeros(2))
        self.register_buffer("index", torch.tensor(index.clip(min=0)))
        self.register_buffer("has_danger", torch.tensor(index >= 0, dtype=torch.float32))
        self.register_buffer("places_only", torch.tensor(places_only))

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        danger = features[:, self.planes:][:, self.index] * self.has_danger
        shared = SHARED_SCALE * self.shared
        return (self.linear(features[:, :self.planes]) + shared[0] * danger
                + shared[1] * self.places_only)


class QuartoPolicy(MaskableActorCriticPolicy):  # type: ignore[misc]
    """sb3-contrib's masked actor-critic with ``QuartoLines`` and ``SharedActionHead``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("features_extractor_class", QuartoLines)
        kwargs["net_arch"] = {"pi": [], "vf": kwargs.get("net_arch", {}).get("vf", [128, 128])}
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = SharedActionHead(int(np.prod(self.observation_space.shape)))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)


class CpuBudget(BaseCallback):  # type: ignore[misc]
    """Stops training once this process has used ``minutes`` of CPU time, and after every
    rollout appends to ``progress.csv`` the steps so far, the CPU seconds and the mean
    training reward of the last 200 episodes of each env."""

    def __init__(self, minutes: float, progress: Path) -> None:
        super().__init__()
        self.start = time.process_time()
        self.deadline = self.start + 60 * minutes
        self.progress = progress
        progress.write_text("timesteps,cpu_seconds,mean_reward_last_200_per_env\n")

    def _on_step(self) -> bool:
        return time.process_time() < self.deadline

    def _on_rollout_end(self) -> None:
        rewards = [r for env in self.training_env.envs for r in env.get_episode_rewards()[-200:]]
        mean = f"{np.mean(rewards):.3f}" if rewards else ""
        with self.progress.open("a") as file:
            file.write(f"{self.num_timesteps},{time.process_time() - self.start:.1f},{mean}\n")


class PolicyBot(Bot):
    """A trained model as a fourfold bot: the most probable legal action of its seat's view."""

    name = BOT_NAME
    model: Any = None

    def __init__(self, game: Game[Any, Any], player: int, seed: int | None = None,
                 limit: Limit | None = None) -> None:
        super().__init__(game, player, seed, limit)
        self.encoder = encoder_for(game)

    def choose(self, view: View) -> Any:
        obs = self.encoder.encode(view)
        mask = np.asarray(self.game.view_legal_action_mask(view), dtype=bool)
        action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
        return self.game.decode(int(action))


def train(args: argparse.Namespace, out: Path) -> tuple[Any, dict[str, Any]]:
    opponents = args.opponent.split(",")

    def env_maker(i: int) -> Any:  # the opponents dealt out over the envs
        def make() -> gymnasium.Env[Any, Any]:
            env = gymnasium.make(ENV_ID, opponent=opponents[i % len(opponents)], seat="random")
            return Monitor(env, str(out / "monitor" / str(i)))
        return make

    (out / "monitor").mkdir(exist_ok=True)
    envs = DummyVecEnv([env_maker(i) for i in range(args.envs)])
    envs.seed(args.seed)
    policy_kwargs: dict[str, Any] = {"net_arch": {"pi": args.pi_layers, "vf": [128, 128]}}
    policy = QuartoPolicy if args.features == "lines" else "MlpPolicy"
    model = MaskablePPO(policy, envs, n_steps=args.n_steps, batch_size=args.batch_size,
                        n_epochs=args.epochs,
                        learning_rate=args.lr, gamma=0.99, ent_coef=0.01, seed=args.seed,
                        device="cpu", policy_kwargs=policy_kwargs, verbose=0)
    callbacks = CallbackList([
        CpuBudget(args.cpu_minutes, out / "progress.csv"),
        CheckpointCallback(max(args.checkpoint_steps // args.envs, 1), str(out / "checkpoints"),
                           name_prefix="quarto"),
    ])
    cpu, wall = time.process_time(), time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=callbacks)
    episodes = [r for env in envs.envs for r in env.get_episode_rewards()]
    stats = {
        "timesteps": int(model.num_timesteps),
        "episodes": len(episodes),
        "cpu_seconds": round(time.process_time() - cpu, 1),
        "wall_seconds": round(time.perf_counter() - wall, 1),
        "training_reward_first_1000": _mean(episodes[:1000]),
        "training_reward_last_1000": _mean(episodes[-1000:]),
    }
    envs.close()
    return model, stats


def _mean(values: list[float]) -> float | None:
    return round(float(np.mean(values)), 3) if values else None


def evaluate(path: Path, opponents: list[str], games: int, seed: int) -> dict[str, Any]:
    PolicyBot.model = MaskablePPO.load(path, device="cpu")
    BOTS[BOT_NAME] = PolicyBot
    game = fourfold.load("quarto")
    results: dict[str, Any] = {}
    for opponent in opponents:
        match = play_match(game, BOT_NAME, opponent, games, seed=seed)
        low, high = match.interval
        results[opponent] = {"games": games, "wins": match.wins, "draws": match.draws,
                             "losses": match.losses, "score": round(match.score, 4),
                             "interval95": [round(low, 4), round(high, 4)]}
        print(f"vs {opponent}: {match.wins} wins, {match.draws} draws, {match.losses} losses"
              f" in {games} games; score {match.score:.3f} (95% {low:.3f}-{high:.3f})")
    return results


def _layers(text: str) -> list[int]:
    try:
        layers = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"layers are sizes like 256,256, not {text!r}") from None
    if any(size <= 0 for size in layers):
        raise argparse.ArgumentTypeError(f"layer sizes must be positive, not {text!r}")
    return layers


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cpu-minutes", type=float, default=1.5,
                        help="stop training after this much CPU time (default 1.5)")
    parser.add_argument("--timesteps", type=int, default=10_000_000,
                        help="stop training after this many agent steps")
    parser.add_argument("--opponent", default="level2",
                        help="training opponent(s), comma-separated (default level2)")
    parser.add_argument("--features", choices=("lines", "flat"), default="lines")
    parser.add_argument("--pi-layers", type=_layers, default=[],
                        help="with --features flat: hidden layers of the policy, e.g. 256,256"
                             " (default none: the logits are linear in the planes)")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    parser.add_argument("--envs", type=int, default=8, help="envs stepped together")
    parser.add_argument("--n-steps", type=int, default=64, help="steps per env per update")
    parser.add_argument("--batch-size", type=int, default=128, help="PPO's minibatch")
    parser.add_argument("--epochs", type=int, default=4, help="PPO's epochs per update")
    parser.add_argument("--checkpoint-steps", type=int, default=100_000)
    parser.add_argument("--eval-games", type=int, default=400,
                        help="games against each evaluation opponent (default 400)")
    parser.add_argument("--against", default="level2,level3",
                        help="evaluation opponents, comma-separated (default level2,level3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="where to write (default: a new temp folder)")
    parser.add_argument("--evaluate", type=Path, metavar="MODEL",
                        help="skip training: evaluate this saved model (a .zip) only")
    args = parser.parse_args(argv)
    if args.evaluate is not None and not args.evaluate.is_file():
        parser.error(f"--evaluate: no model file at {args.evaluate}")
    for name in ("cpu_minutes", "lr", "timesteps", "envs", "n_steps", "batch_size", "epochs",
                 "checkpoint_steps", "eval_games"):
        if getattr(args, name) <= 0:
            parser.error(f"--{name.replace('_', '-')} must be positive")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    torch.set_num_threads(1)
    out = args.out if args.out is not None else Path(tempfile.mkdtemp(prefix="sb3_quarto_"))
    out.mkdir(parents=True, exist_ok=True)
    if args.evaluate is not None:
        path, stats = args.evaluate, None
    else:
        model, stats = train(args, out)
        path = out / "quarto_maskable_ppo.zip"
        model.save(path)
        print(f"trained {stats['timesteps']:,} steps ({stats['episodes']:,} episodes) in"
              f" {stats['cpu_seconds']:.0f} CPU s ({stats['wall_seconds']:.0f} s wall);"
              f" saved {path}")
    evaluation = evaluate(path, args.against.split(","), args.eval_games, args.seed + 1)
    report = {"env": ENV_ID, "model": str(path), "args": {k: str(v) for k, v in vars(args).items()},
              "training": stats, "evaluation": evaluation}
    (out / "results.json").write_text(json.dumps(report, indent=2) + "\n")
    print(f"results in {out / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
