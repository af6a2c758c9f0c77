"""The envs' fast paths give exactly what the readable code gives: the compiled
observation tensors and masks of the AEC env, Folio freeform's one-pass observation and
its NumPy search for free lattice points."""

from __future__ import annotations

import cmath
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


# -- Folio freeform: the quick refutations before the grid search (fit_bounds) ---------------

def _reference_after(game: Any, state: Any, point: tuple[float, float]) -> tuple[Any, Any]:
    """What ``after`` gave before the refutations: the full searches, always."""
    from fourfold.games.folio.freeform import fitting

    won = game.winning_grid(state, point)
    if won is not None:
        return True, state.broken
    if state.broken is None and not fitting.fits(
            [*state.points, point], game.tolerance, game.table):
        return False, state.placed + 1
    return False, state.broken


def _freeform_positions(game: Any, rng: random.Random) -> list[tuple[Any, list[complex]]]:
    """Positions whose pieces sit near cell centres of a random grid (turned, scaled, moved;
    some of them hanging near the table's edge), each with the grid's empty cell centres
    (where the next piece fits, wins or misses by a hair)."""
    from fourfold.games.folio.freeform.state import FreeformPly
    from fourfold.games.placement.giving import available_gives

    out = []
    while len(out) < 36:
        n = rng.randrange(2, 9)
        s = rng.uniform(1.3, 2.4)
        z = s * complex(math.cos(a := rng.uniform(0, 2 * math.pi)), math.sin(a))
        cells = rng.sample([(c, r) for c in range(4) for r in range(4)], 16)
        origin = complex(rng.uniform(-9, 4), rng.uniform(-9, 4))
        centres = [origin + z * complex(c + 0.5, r + 0.5) for c, r in cells]
        jitter = rng.choice([0.0, 0.5, 1.0])
        pts = [c + jitter * game.tolerance * s * complex(rng.uniform(-0.7, 0.7),
                                                         rng.uniform(-0.7, 0.7))
               for c in centres[:n]]
        first = pts[0]
        state = game.initial_state()
        state = game.next_state(state, FreeformPly(None, rng.choice(
            available_gives(state.supply))))
        for p in pts:
            q = p - first
            point = (round(q.real, 6) + 0.0, round(q.imag, 6) + 0.0)
            if game.outcome(state) is not None or game.place_reason(state, point):
                break
            won = game.after(state, point)[0] is not None
            gives = available_gives(state.supply)
            give = None if won or not gives else rng.choice(gives)
            state = game.next_state(state, FreeformPly(point, give))
        if game.outcome(state) is None and state.placed >= 2:
            out.append((state, [c - first for c in centres[n:]]))
    return out


def test_freeform_refutations_change_no_answer_of_the_rules() -> None:
    """``after`` (win and broken grid) with the refutations equals the full searches, at
    cell centres of the position's grid, points off them by about the tolerance, and
    random lattice points; and every placement the mask marks as winning wins."""
    rng = random.Random(11)
    tally = {"won": 0, "broken": 0, "fits": 0}
    for options in ({}, {"line-rule": "colours-or-sizes"}, {"tolerance": 0.3}):
        game = fourfold.load("folio", "freeform", **options)
        for state, free in _freeform_positions(game, rng)[:12]:
            candidates = [c + cmath.rect(game.tolerance * abs(free[0] - free[-1]) / 3
                                         * rng.choice([0.0, 0.9, 1.0, 1.1]),
                                         rng.uniform(0, 2 * math.pi)) for c in free[:8]]
            candidates += [complex(*rng.choice(game.lattice)) for _ in range(6)]
            for c in candidates:
                point = (round(c.real, 6) + 0.0, round(c.imag, 6) + 0.0)
                if game.place_reason(state, point) is not None:
                    continue
                fresh = fourfold.load("folio", "freeform", **options)
                won, broken = fresh.after(state, point)
                assert ((won is not None), broken) == _reference_after(
                    game, state, point), (game.format_position(state), point)
                tally["won" if won else "broken" if broken else "fits"] += 1
            index, wins = game.placement_arrays(state)
            for i in index[wins].tolist():
                assert game.winning_grid(state, game.lattice[i]) is not None
    assert min(tally.values()) >= 10, tally


def test_freeform_winning_mask_misses_no_win() -> None:
    """Every free lattice point where the full search finds a win is marked winning."""
    rng = random.Random(5)
    game = fourfold.load("folio", "freeform")
    checked = 0
    for state, _ in _freeform_positions(game, rng)[:6]:
        if state.placed < 3 or state.broken is not None:
            continue
        index, wins = game.placement_arrays(state)
        marked = set(index[wins].tolist())
        pieces = [complex(x, y) for x, y in state.points]
        near = [i for i in index.tolist()
                if min(abs(complex(*game.lattice[i]) - p) for p in pieces) < 5]
        for i in rng.sample(near, min(60, len(near))):
            assert (game.winning_grid(state, game.lattice[i]) is not None) == (i in marked)
            checked += 1
    assert checked >= 120
