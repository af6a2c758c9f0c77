"""The compiled placement kernel against the readable rules (RULES.md §1, STYLE.md §9).

Random games are driven through both side by side: at every step the legal
actions (in order), the player to move, the winner and a fresh ``load`` of the
reference state must agree. Move counts (perft) must be equal too.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import fourfold
from fourfold.core.perft import perft
from fourfold.games.placement.kernel import S_DEPTH
from fourfold.games.placement.kernel_engine import PlacementEngine
from fourfold.kernels import kernel_engine

RULESETS = [
    ("folio", "standard", {}, 2000),
    ("folio", "fixed-grid", {}, 2000),
    ("folio", "no-grid", {}, 2000),
    ("quarto", None, {}, 2000),
    ("folio", "fixed-grid", {"line-rule": "same-colour-or-size"}, 300),
    ("folio", "standard", {"line-rule": "same-colour-or-size"}, 300),
    ("folio", "no-grid", {"line-rule": "same-colour-or-size", "extra": "Rm,Ys,Gl,Bm"}, 300),
]
IDS = [f"{g}-{v or 'standard'}{'-' + '-'.join(o.values()) if o else ''}" for g, v, o, _ in RULESETS]


def engine(game: Any) -> PlacementEngine:
    e = kernel_engine(game)
    assert isinstance(e, PlacementEngine)
    return e


@pytest.mark.parametrize(("name", "variant", "options", "games"), RULESETS, ids=IDS)
def test_random_games_agree(name: str, variant: str | None, options: dict[str, str],
                            games: int) -> None:
    game = fourfold.load(name, variant, **options)
    kernel = engine(game)
    fresh = engine(game)
    rng = random.Random(f"{name}-{variant}-{options}")
    outcomes = [0, 0, 0]
    for _ in range(games):
        state = game.initial_state()
        kernel.load(state)
        while True:
            reference = [game.encode(m) for m in game.legal_moves(state)]
            assert kernel.legal() == reference, game.format_position(state)
            player = game.to_move(state)
            assert kernel.to_move() == (-1 if player is None else player)
            if not reference:
                break
            action = reference[rng.randrange(len(reference))]
            state = game.next_state(state, game.decode(action))
            kernel.push(action)
            if rng.random() < 0.1:  # loading the reference state gives the same position
                fresh.load(state)
                assert (fresh.board == kernel.board).all()
                assert fresh.st[:10].tolist() == kernel.st[:10].tolist()
        outcome = game.outcome(state)
        assert outcome is not None
        winner = -1 if outcome.winner is None else outcome.winner
        assert kernel.winner() == winner
        outcomes[winner] += 1
        while kernel.st[S_DEPTH] > 0:  # pop back to the start: undo must restore it exactly
            kernel.pop()
        start = engine(game)
        start.load(game.initial_state())
        assert kernel.st.tolist() == start.st.tolist()
        assert (kernel.board == start.board).all() and (kernel.supply == start.supply).all()
    assert outcomes[0] > 0 and outcomes[1] > 0


@pytest.mark.parametrize(("name", "variant", "options", "depth"), [
    ("folio", "standard", {}, 3),
    ("folio", "fixed-grid", {}, 3),
    ("folio", "no-grid", {}, 3),
    ("quarto", None, {}, 3),
])
def test_perft_from_start_agrees(name: str, variant: str | None, options: dict[str, str],
                                 depth: int) -> None:
    game = fourfold.load(name, variant, **options)
    kernel = engine(game)
    kernel.load(game.initial_state())
    for d in range(1, depth + 1):
        assert kernel.perft(d) == perft(game, game.initial_state(), d)


@pytest.mark.parametrize("ruleset", RULESETS[:4], ids=IDS[:4])
def test_perft_late_in_the_game_agrees(
    ruleset: tuple[str, str | None, dict[str, str], int],
) -> None:
    name, variant, options, _ = ruleset
    game = fourfold.load(name, variant, **options)
    rng = random.Random(5)
    kernel = engine(game)
    checked = 0
    while checked < 3:
        state = game.initial_state()
        for _ in range(10):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.next_state(state, moves[rng.randrange(len(moves))])
        if game.is_over(state):
            continue
        kernel.load(state)
        assert kernel.perft(3) == perft(game, state, 3)
        checked += 1


def test_mover_wins_now_matches_the_rules() -> None:
    game = fourfold.load("folio", "fixed-grid")
    kernel = engine(game)
    rng = random.Random(9)
    seen = {True: 0, False: 0}
    for _ in range(100):
        state = game.initial_state()
        while not game.is_over(state):
            player = game.to_move(state)
            expected = any(
                (o := game.outcome(game.next_state(state, m))) is not None and o.winner == player
                for m in game.legal_moves(state)
            )
            kernel.load(state)
            assert kernel.mover_wins_now() == expected
            seen[expected] += 1
            moves = game.legal_moves(state)
            state = game.next_state(state, moves[rng.randrange(len(moves))])
    assert seen[True] > 0 and seen[False] > 0


def test_playouts_are_seeded_and_count_every_game() -> None:
    game = fourfold.load("quarto")
    kernel = engine(game)
    kernel.load(game.initial_state())
    first = kernel.playouts(500, 42)
    assert sum(first) == 500
    assert kernel.playouts(500, 42) == first
    assert kernel.playouts(500, 43) != first
    assert kernel.playout(7) == kernel.playout(7)

