"""Train a small Quarto policy on the vectorised env, then evaluate it with the match API.

    python examples/train_quarto.py            # about two minutes on a laptop CPU
    python examples/train_quarto.py 300 --out docs   # refresh docs/envs_quarto_learning.svg

The policy is a softmax over the legal actions of a linear score of a few action
features, computed from the env's compact observation with NumPy:

* ``wins``: the placement ends the game (the encoding gives no piece after it);
* ``hands over a win``: after this placement, the piece given completes a line
  somewhere (three pieces sharing an attribute with it and one empty cell);
* one feature per cell placed on and per piece kind given (preferences).

It learns by REINFORCE (policy gradient with a running baseline) against the random
opponent built into ``fourfold.envs.VectorEnv`` (512 games at once, both seats), starting
from all-zero weights, i.e. a uniformly random policy. The learning curve (win rate
against random per batch of episodes) is saved as envs_quarto_learning.svg in a new
temporary folder, or in ``--out DIR``; the
policy is then registered as a bot and played against ``random`` and ``greedy`` (level 3)
with ``fourfold.analysis.match.play_match``, the engine behind ``fourfold match``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

import fourfold
from fourfold.ai import BOTS, Bot
from fourfold.analysis.match import play_match
from fourfold.core.game import View
from fourfold.envs import VectorEnv

CELLS, KINDS = 16, 16
NO_GIVE = KINDS
ACTIONS = (CELLS + 1) * (KINDS + 1)
LINES = np.array(
    [[r * 4 + c for c in range(4)] for r in range(4)]
    + [[r * 4 + c for r in range(4)] for c in range(4)]
    + [[0, 5, 10, 15], [3, 6, 9, 12]]
)
NUM_FEATURES = 2 + CELLS + KINDS


def features(obs: np.ndarray) -> np.ndarray:
    """``(batch, actions, features)`` from the compact observations (board, hand, ...)."""
    batch = obs.shape[0]
    board = obs[:, :CELLS].astype(np.int64)
    hand = obs[:, CELLS].astype(np.int64)
    f = np.zeros((batch, CELLS + 1, KINDS + 1, NUM_FEATURES), dtype=np.float32)
    f[:, :CELLS, NO_GIVE, 0] = 1.0  # a placement without a give ends the game
    # the board after placing the piece in hand on each cell: (batch, cell placed, cells)
    after = np.repeat(board[:, None, :], CELLS, axis=1)
    idx = np.arange(CELLS)
    after[:, idx, idx] = np.where(board >= 0, board, hand[:, None])
    pieces = after[:, :, LINES]  # (batch, cell, line, 4)
    present = pieces >= 0
    one_empty = present.sum(axis=-1) == 3
    kinds = np.where(present, pieces, 0)
    common1 = np.bitwise_and.reduce(np.where(present, kinds, 15), axis=-1)
    common0 = np.bitwise_and.reduce(np.where(present, ~kinds & 15, 15), axis=-1)
    give = np.arange(KINDS)
    shares = ((common1[..., None] & give) | (common0[..., None] & (~give & 15))) != 0
    danger = (shares & one_empty[..., None]).any(axis=2)  # (batch, cell, give)
    f[:, :CELLS, :KINDS, 1] = danger
    f[:, :, :, 2:2 + CELLS][:, idx, :, idx] = 1.0
    f[:, :, :KINDS, 2 + CELLS:] += np.eye(KINDS, dtype=np.float32)
    return f.reshape(batch, ACTIONS, NUM_FEATURES)


def policy(w: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Action probabilities (masked softmax) and the features they came from."""
    f = features(obs)
    logits = f @ w
    logits = np.where(mask.astype(bool), logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    return p, f


def train(iterations: int = 300, num_envs: int = 512, lr: float = 0.05, seed: int = 0
          ) -> tuple[np.ndarray, list[float]]:
    env = VectorEnv("quarto", num_envs, seed=seed, opponent="random", seat="mixed",
                    observation="compact")
    rng = np.random.default_rng(seed)
    w = np.zeros(NUM_FEATURES, dtype=np.float32)
    obs, info = env.reset()
    grads = np.zeros((num_envs, NUM_FEATURES), dtype=np.float32)
    baseline = 0.0
    curve: list[float] = []
    for _ in range(iterations):
        results: list[float] = []
        update = np.zeros_like(w)
        while len(results) < num_envs:
            p, f = policy(w, obs, info["action_mask"])
            u = rng.random((num_envs, 1))
            actions = (p.cumsum(axis=1) < u).sum(axis=1).clip(0, ACTIONS - 1)
            rows = np.arange(num_envs)
            grads += f[rows, actions] - np.einsum("ba,baf->bf", p, f)
            obs, rewards, terminated, truncated, info = env.step(actions)
            done = terminated | truncated
            if done.any():
                r = rewards[done]
                update += ((r - baseline)[:, None] * grads[done]).sum(axis=0)
                grads[done] = 0.0
                results.extend(float(x) for x in r)
        baseline = 0.9 * baseline + 0.1 * float(np.mean(results))
        w += lr * update / len(results)
        curve.append(float(np.mean(np.array(results) > 0)))
    return w, curve


class LinearQuartoBot(Bot):
    """The trained policy as a bot (greedy: the most probable legal action)."""

    name = "linear-quarto"
    weights = np.zeros(NUM_FEATURES, dtype=np.float32)

    def choose(self, view: View) -> Any:
        game, state = self.game, view.observation
        obs = np.full((1, CELLS + 2 + KINDS), -1, dtype=np.int64)
        for cell, kind in state.board:
            obs[0, game.geometry.index(cell)] = kind
        obs[0, CELLS] = -1 if state.hand is None else state.hand
        mask = np.array([game.legal_action_mask(state)], dtype=np.int8)
        p, _ = policy(self.weights, obs, mask)
        return game.decode(int(np.argmax(p[0])))


def plot(curve: list[float], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(np.arange(1, len(curve) + 1), curve, lw=1, alpha=0.4, label="per batch")
    k = min(10, len(curve))
    smooth = np.convolve(curve, np.ones(k) / k, mode="valid")
    ax.plot(np.arange(k, len(curve) + 1), smooth, lw=2, label=f"mean of {k}")
    ax.set_xlabel("training batch (512 episodes each)")
    ax.set_ylabel("win rate vs random (sampling)")
    ax.set_title("Quarto: linear policy, REINFORCE on fourfold.envs.VectorEnv")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("iterations", nargs="?", type=int, default=300,
                        help="training batches of 512 episodes (default 300)")
    parser.add_argument("--games", type=int, default=200,
                        help="evaluation games against each opponent (default 200)")
    parser.add_argument("--out", type=Path, help="where to write the learning curve"
                        " (default: a new temporary folder)")
    args = parser.parse_args(argv)
    if args.iterations <= 0 or args.games <= 0:
        parser.error("iterations and --games must be positive")
    iterations = args.iterations
    out = args.out if args.out is not None else Path(tempfile.mkdtemp(prefix="train_quarto_"))
    start = time.perf_counter()
    w, curve = train(iterations)
    trained = time.perf_counter() - start
    print(f"trained {iterations} batches in {trained:.0f} s; weights: wins {w[0]:+.2f},"
          f" hands over a win {w[1]:+.2f}")
    print(f"win rate vs random while training: first 10 batches {np.mean(curve[:10]):.3f},"
          f" last 10 {np.mean(curve[-10:]):.3f}")
    out.mkdir(parents=True, exist_ok=True)
    plot(curve, out / "envs_quarto_learning.svg")
    print(f"learning curve: {out / 'envs_quarto_learning.svg'}")
    LinearQuartoBot.weights = w
    BOTS["linear-quarto"] = LinearQuartoBot
    game = fourfold.load("quarto")
    for opponent, games in (("random", args.games), ("level3", args.games)):
        result = play_match(game, "linear-quarto", opponent, games, seed=1)
        low, high = result.interval
        print(f"linear-quarto vs {opponent}: {result.wins} wins, {result.draws} draws,"
              f" {result.losses} losses in {games} games; score {result.score:.3f}"
              f" (95% {low:.3f}-{high:.3f})")
    print(f"total {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
