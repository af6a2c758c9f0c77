"""The compiled classic Dao kernel against the readable rules, side by side.

Random games (cut at 300 plies) compare legal actions in order, the player to
move, the winner (formations and corner traps) and threefold-repetition draws
at every step; ``load`` of a reference state must give the same position.
"""

from __future__ import annotations

import random

import fourfold
from fourfold.core.perft import perft
from fourfold.games.dao.kernel import S_O, S_PLIES, S_SIDE, S_WINNER, S_X
from fourfold.games.dao.kernel_engine import DaoEngine
from fourfold.kernels import kernel_engine

DAO = fourfold.load("dao")
FIELDS = [S_X, S_O, S_SIDE, S_WINNER, S_PLIES]


def engine() -> DaoEngine:
    e = kernel_engine(DAO)
    assert isinstance(e, DaoEngine)
    return e


def test_random_games_agree() -> None:
    kernel, fresh = engine(), engine()
    rng = random.Random(12)
    endings = {"win": 0, "draw": 0}
    for _ in range(2000):
        state = DAO.initial_state()
        kernel.load(state)
        for _ in range(300):
            reference = [DAO.encode(m) for m in DAO.legal_moves(state)]
            assert kernel.legal() == reference, DAO.format_position(state)
            player = DAO.to_move(state)
            assert kernel.to_move() == (-1 if player is None else player)
            if not reference:
                break
            action = reference[rng.randrange(len(reference))]
            state = DAO.next_state(state, DAO.decode(action))
            kernel.push(action)
            if rng.random() < 0.05:
                fresh.load(state)
                assert [fresh.st[f] for f in FIELDS] == [kernel.st[f] for f in FIELDS]
        outcome = DAO.outcome(state)
        if outcome is not None:
            endings["win" if outcome.winner is not None else "draw"] += 1
            assert kernel.winner() == (-1 if outcome.winner is None else outcome.winner)
        else:
            assert kernel.to_move() >= 0
    assert endings["win"] > 100 and endings["draw"] > 0


def test_perft_agrees() -> None:
    kernel = engine()
    kernel.load(DAO.initial_state())
    for depth in (1, 2, 3):
        assert kernel.perft(depth) == perft(DAO, DAO.initial_state(), depth)


def test_bots_play_dao_and_icedao() -> None:
    from fourfold.ai import Limit, make_bot

    for name in ("dao", "icedao"):
        game = fourfold.load(name)
        state = game.initial_state()
        for bot in ("level1", "level2", "level3"):
            b = make_bot(bot, game, 0, seed=1, limit=Limit(nodes=500, iterations=10))
            assert b.choose(game.view(state, 0)) in game.legal_moves(state)
