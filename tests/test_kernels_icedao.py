"""The compiled Ice Dao kernel against the readable rules, side by side.

Seeded random games (from the start with Blue or Green first, with a length
cap, and from random set-ups with stacks and missing pieces) compare at every
step the legal actions in order, the side to move, the winner and the draws
(threefold repetition, the cap); some games pass often, so repetition draws are
common. Now and then a fresh ``load`` of the reference state must give the very
same kernel position (bitboards, hash, repetition keys), and ``mover_wins_now``
must agree with trying every reference move. Perft, playouts and the search
(win in one, legal best moves, values equal to a brute-force minimax of the
readable rules) are checked as well.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import fourfold
from fourfold.core.errors import NotationError
from fourfold.core.perft import perft
from fourfold.games.icedao import IceDaoState
from fourfold.games.icedao import kernel as k
from fourfold.games.icedao.kernel_engine import IceDaoEngine
from fourfold.kernels import kernel_engine
from fourfold.kernels.engine import WIN, ReferenceEngine

ICEDAO = fourfold.load("icedao")
PINNED_PERFT = [22, 484, 10751, 237759]
MAX_GAME_PLIES = 300
COMPARED = [*range(k.S_BB, k.S_BB + k.PIECES), k.S_SIDE, k.S_WINNER, k.S_DRAW, k.S_PLIES,
            k.S_KEYS, k.S_HASH]


def engine(game: Any = ICEDAO) -> IceDaoEngine:
    e = kernel_engine(game)
    assert isinstance(e, IceDaoEngine)
    return e


def random_setup(game: Any, rng: random.Random, density: float = 0.75) -> IceDaoState:
    """A legal set-up: each of the twelve pieces on a random square with probability
    ``density`` (stacked when they meet, larger under smaller), either side to move, no
    line for the side to move."""
    while True:
        stacks: list[dict[int, int]] = [{} for _ in range(k.SQUARES)]  # size -> colour
        for piece in range(k.PIECES):
            for _ in range(2):
                if rng.random() < density:
                    free = [sq for sq in range(k.SQUARES) if piece % 3 not in stacks[sq]]
                    stacks[rng.choice(free)][piece % 3] = piece // 3
        board = tuple(tuple(c * 3 + s for s, c in sorted(st.items(), reverse=True))
                      for st in stacks)
        text = game.format_position(IceDaoState(board, rng.randrange(2)))
        try:
            return game.parse_position(text)  # type: ignore[no-any-return]
        except NotationError:
            continue  # the side to move has a line


def reference_wins_now(game: Any, state: Any) -> bool:
    me = game.to_move(state)
    for move in game.legal_moves(state):
        outcome = game.outcome(game.next_state(state, move))
        if outcome is not None and outcome.winner == me:
            return True
    return False


def play_and_compare(game: Any, kernel: IceDaoEngine, fresh: IceDaoEngine, state: Any,
                     rng: random.Random, pass_rate: float, ends: dict[str, int]) -> None:
    """One random game through both, compared at every step."""
    kernel.load(state)
    pass_action = game.num_actions - 1
    for _ in range(MAX_GAME_PLIES):
        reference = [game.encode(m) for m in game.legal_moves(state)]
        assert kernel.legal() == reference, game.format_position(state)
        player = game.to_move(state)
        assert kernel.to_move() == (-1 if player is None else player), game.format_position(state)
        if rng.random() < 0.04:
            fresh.load(state)
            assert [fresh.st[f] for f in COMPARED] == [kernel.st[f] for f in COMPARED]
            used = int(kernel.st[k.S_KEYS])
            assert np.array_equal(fresh.keys[:used], kernel.keys[:used])
            if reference:
                assert kernel.mover_wins_now() == reference_wins_now(game, state)
        if not reference:
            break
        if reference[-1] == pass_action and rng.random() < pass_rate:
            action = pass_action
        else:
            action = reference[rng.randrange(len(reference))]
        state = game.next_state(state, game.decode(action))
        kernel.push(action)
    outcome = game.outcome(state)
    if outcome is None:  # a set-up with too few pieces for a line may wander on
        assert kernel.to_move() == game.to_move(state)
        ends["unfinished"] += 1
        return
    assert kernel.winner() == (-1 if outcome.winner is None else outcome.winner)
    if outcome.winner is not None:
        ends["win"] += 1
    elif "repetition" in outcome.reason:
        ends["repetition"] += 1
    else:
        ends["cap"] += 1


@pytest.mark.parametrize(
    ("options", "games", "setups", "seed"),
    [
        ({}, 1000, False, 1),
        ({"first": "green"}, 300, False, 2),
        ({"max_plies": 41}, 250, False, 3),
        ({}, 350, True, 4),
        ({"first": "green", "max_plies": 30}, 150, True, 5),
    ],
)
def test_random_games_agree(options: dict[str, Any], games: int, setups: bool, seed: int) -> None:
    game = fourfold.load("icedao", **options)
    kernel, fresh = engine(game), engine(game)
    rng = random.Random(seed)
    ends = {"win": 0, "repetition": 0, "cap": 0, "unfinished": 0}
    for _ in range(games):
        start = random_setup(game, rng) if setups else game.initial_state()
        play_and_compare(game, kernel, fresh, start, rng, rng.choice((0.0, 0.1, 0.4)), ends)
    assert ends["win"] > games // 10 and ends["repetition"] > games // 50
    assert ends["cap"] > games // 10 if "max_plies" in options else ends["cap"] == 0
    assert ends["unfinished"] <= games // (4 if setups else 20)


def test_set_ups_reach_every_ending() -> None:
    """Random set-ups include a side with no piece on top (loaded, or after a move)."""
    rng = random.Random(6)
    kernel = engine()
    stuck_loaded = stuck_in_play = 0
    for _ in range(250):
        state = random_setup(ICEDAO, rng, 0.45)
        kernel.load(state)
        if state.stuck:
            stuck_loaded += 1
            assert kernel.winner() == 1 - state.to_play and kernel.legal() == []
            continue
        for action in kernel.legal():
            after = ICEDAO.next_state(state, ICEDAO.decode(action))
            kernel.push(action)
            if after.stuck and after.line is None:
                stuck_in_play += 1
                assert kernel.winner() == state.to_play
            kernel.pop()
    assert stuck_loaded > 0 and stuck_in_play > 0


def test_history_before_the_load_counts_for_repetition() -> None:
    state = ICEDAO.initial_state()
    for _ in range(3):  # pass, pass, pass: the start with Green to move twice, Blue to move
        state = ICEDAO.play(state, "pass")
    kernel = engine()
    kernel.load(state)
    assert kernel.to_move() == 1
    kernel.push(ICEDAO.num_actions - 1)  # the start position with Blue to move, third time
    assert kernel.is_over() and kernel.winner() == -1
    assert ICEDAO.outcome(ICEDAO.play(state, "pass")) is not None


def test_perft_agrees() -> None:
    kernel = engine()
    kernel.load(ICEDAO.initial_state())
    assert [kernel.perft(d) for d in (1, 2, 3, 4)] == PINNED_PERFT
    assert kernel.perft(2) == perft(ICEDAO, ICEDAO.initial_state(), 2)
    green = fourfold.load("icedao", first="green")
    kernel = engine(green)
    kernel.load(green.initial_state())
    assert [kernel.perft(d) for d in (1, 2, 3)] == PINNED_PERFT[:3]
    rng = random.Random(7)
    for _ in range(5):
        state = random_setup(ICEDAO, rng)
        kernel = engine()
        kernel.load(state)
        assert kernel.perft(3) == perft(ICEDAO, state, 3), ICEDAO.format_position(state)


def test_playouts_are_seeded_and_undone() -> None:
    kernel = engine()
    kernel.load(ICEDAO.initial_state())
    before = kernel.st.copy()
    results = kernel.playouts(2000, 11)
    assert sum(results) == 2000 and min(results[:2]) > 600
    assert np.array_equal(kernel.st, before)
    assert kernel.playouts(2000, 11) == results
    assert kernel.playout(3) in (-1, 0, 1) and kernel.greedy_playout(3) in (-1, 0, 1)
    assert np.array_equal(kernel.st, before)
    # Blue's share of wins is close to the readable rules' (200 games, about 4 sd)
    reference = ReferenceEngine(ICEDAO).playouts(200, 11)
    assert abs(results[0] / 2000 - reference[0] / 200) < 0.14
    # a finished game: every playout reports its winner
    won = ICEDAO.play(ICEDAO.parse_position(WIN_IN_ONE), "d3-d1")
    kernel.load(won)
    assert kernel.playouts(5, 1) == (5, 0, 0)


# Blue's small on d3 slides south to d1, completing a1-d1.
WIN_IN_ONE = "Gs,.,.,.,Gm/.,.,.,.,./.,.,.,Bs,./.,.,.,.,Gl/Bl,Bm,Bl,.,. B"


def test_search_finds_a_win_in_one() -> None:
    state = ICEDAO.parse_position(WIN_IN_ONE)
    kernel = engine()
    kernel.load(state)
    root = kernel.legal()
    for depth in (1, 2, 3, 4):
        result = kernel.search(root, depth, 1_000_000)
        assert result.values[result.best] == WIN - 1
        move = ICEDAO.decode(root[result.best])
        assert ICEDAO.format_move(state, move) == "d3-d1"
        outcome = ICEDAO.outcome(ICEDAO.next_state(state, move))
        assert outcome is not None and outcome.winner == 0
    assert kernel.mover_wins_now()


def brute_force(game: Any, state: Any, depth: int, ply: int = 0) -> int:
    """Plain minimax on the readable rules, with the search's conventions: a win at
    ``ply`` scores ``WIN - ply``; a draw, the horizon and a position seen before
    (in the game or on the line) score 0."""
    outcome = game.outcome(state)
    if outcome is not None:
        return 0 if outcome.winner is None else -(WIN - ply)  # the mover won
    if ply > 0 and state.key in state.history:
        return 0
    if depth == 0:
        return 0
    return max(-brute_force(game, game.next_state(state, m), depth - 1, ply + 1)
               for m in game.legal_moves(state))


def small_positions(count: int, seed: int) -> list[IceDaoState]:
    rng = random.Random(seed)
    found: list[IceDaoState] = []
    while len(found) < count:
        state = random_setup(ICEDAO, rng)
        if ICEDAO.outcome(state) is None and len(ICEDAO.legal_moves(state)) <= 24:
            for _ in range(rng.randrange(3)):  # a little history, for repetition
                moves = ICEDAO.legal_moves(state)
                state = ICEDAO.next_state(state, moves[rng.randrange(len(moves))])
            if ICEDAO.outcome(state) is None:
                found.append(state)
    return found


def test_search_values_equal_brute_force_minimax() -> None:
    for state in small_positions(10, 8):
        kernel = engine()
        kernel.load(state)
        before = kernel.st.copy()
        root = kernel.legal()
        for depth in (1, 2, 3):  # iterative deepening: the table carries over
            result = kernel.search(root, depth, 10_000_000)
            assert 0 <= result.best < len(root)
            value = result.values[result.best]
            assert value == max(result.values)
            assert value == brute_force(ICEDAO, state, depth), (
                ICEDAO.format_position(state), depth)
            assert np.array_equal(kernel.st, before)
            assert ICEDAO.decode(root[result.best]) in ICEDAO.legal_moves(state)


def test_search_from_the_start_plays_legal_moves_and_respects_the_node_limit() -> None:
    state = ICEDAO.initial_state()
    kernel = engine()
    kernel.load(state)
    root = kernel.legal()
    result = kernel.search(root, 3, 1_000_000)
    assert ICEDAO.decode(root[result.best]) in ICEDAO.legal_moves(state)
    assert not result.exact
    assert kernel.search(root, 12, 500).best == -1  # out of nodes: aborted
    assert kernel.legal() == root
