"""The envs' fast paths give exactly what the readable code gives: the compiled
observation tensors and masks of the AEC env, Folio freeform's one-pass observation and
its NumPy search for free lattice points."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

import fourfold
from fourfold.envs.observe import CompiledEncoder, compiled_encoder_for, encoder_for
from fourfold.games.folio.freeform.game import too_close

KERNEL_RULESETS = [("quarto", None), ("folio", "fixed-grid"), ("folio", "standard"),
                   ("folio", "no-grid"), ("dao", None), ("icedao", None),
                   ("dao", None, {"max-plies": 40})]


def _random_positions(game: Any, games: int, plies: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.initial_state()
        out.append(state)
        for _ in range(plies):
            if game.outcome(state) is not None:
                break
            state = game.next_state(state, rng.choice(game.legal_moves(state)))
            out.append(state)
    return out


@pytest.mark.parametrize("case", KERNEL_RULESETS, ids=lambda c: "-".join(map(str, c[:2])))
def test_compiled_tensors_and_masks_equal_the_readable_ones(case: tuple[Any, ...]) -> None:
    name, variant, *rest = case
    game = fourfold.load(name, variant, **(rest[0] if rest else {}))
    fast = compiled_encoder_for(game)
    assert isinstance(fast, CompiledEncoder)
    slow = encoder_for(game)
    assert fast.shape == slow.shape
    checked = 0
    for state in _random_positions(game, 6, 60, seed=2):
        for seat in (0, 1, None):
            view = game.view(state, seat)
            tensor, mask = fast.observe(view)
            want = np.asarray(game.view_legal_action_mask(view), dtype=np.int8)
            assert np.array_equal(mask, want)
            assert np.array_equal(tensor, slow.encode(view))
            checked += 1
    assert checked > 100


def _readable_freeform(encoder: Any, game: Any, view: Any) -> np.ndarray:
    """Folio freeform's tensor built move by move from ``view_legal_moves``."""
    out = encoder._pieces(view)
    if view.player is not None and view.player in game.view_actors(view):
        for move in game.view_legal_moves(view):
            if move.challenge:
                out[encoder.o_place + 1] = 1.0
            elif move.place is not None:
                rc = encoder._rc(*move.place)
                if rc is not None:
                    out[encoder.o_place, rc[0], rc[1]] = 1.0
        out[encoder.o_place + 3] = 1.0
    return out


def test_freeform_observation_is_the_move_by_move_one() -> None:
    game = fourfold.load("folio", "freeform")
    encoder = encoder_for(game)
    checked = 0
    for state in _random_positions(game, 2, 14, seed=4):
        for seat in (0, 1, None):
            view = game.view(state, seat)
            tensor, mask = encoder.observe(view)
            assert np.array_equal(mask, np.asarray(game.view_legal_action_mask(view),
                                                   dtype=np.int8))
            assert np.array_equal(tensor, _readable_freeform(encoder, game, view))
            checked += 1
    assert checked > 20


def test_freeform_free_points_are_the_pointwise_ones() -> None:
    """Pieces on the lattice (distances of exactly 1.0 abound) and off it, some within
    rounding of the limit."""
    game = fourfold.load("folio", "freeform")
    rng = random.Random(8)
    for _ in range(30):
        pts: list[tuple[float, float]] = [(0.0, 0.0)]
        for _ in range(rng.randrange(1, 9)):
            base = rng.choice(pts)
            angle = rng.random() * 2 * math.pi
            r = rng.choice([1.0, 1.0 + 1e-13, 1.0 - 1e-13, 1.5, rng.uniform(1.0, 2.0)])
            p = (base[0] + r * math.cos(angle), base[1] + r * math.sin(angle))
            pts.append(rng.choice([p, (round(p[0] * 2) / 2, round(p[1] * 2) / 2)]))
        want = [p for p in game.lattice
                if not any(too_close(math.hypot(p[0] - q[0], p[1] - q[1])) for q in pts)]
        assert game._free_points(pts) == want
    limit = 1 - 1e-12  # too_close's limit: pieces right at it, around the lattice point 0, 0
    for r in (limit, limit + 2e-16, limit - 2e-16, limit + 1e-14, limit - 1e-14, 1.0):
        pts = [(r, 0.0), (-r * 0.6, r * 0.8)]
        want = [p for p in game.lattice
                if not any(too_close(math.hypot(p[0] - q[0], p[1] - q[1])) for q in pts)]
        assert game._free_points(pts) == want
