"""Greedy, alpha-beta and MCTS bots on constructed positions and small endgames."""

from __future__ import annotations

import random
from typing import Any

import pytest

import fourfold
from fourfold.ai import BOTS, Limit, make_bot
from fourfold.ai.alphabeta import AlphaBetaBot
from fourfold.ai.greedy import GreedyBot
from fourfold.ai.levels import LEVELS, level_for
from fourfold.ai.mcts import MCTSBot, RandomPlayouts
from fourfold.core.errors import ConfigurationError
from support.values import (
    BLUE_IS_DEADLY,
    FIXED,
    QUARTO,
    WIN_ON_D1,
    endgames,
    opponent_can_win,
    value,
)

# -- greedy -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_greedy_takes_the_win(seed: int) -> None:
    state = FIXED.parse_position(WIN_ON_D1)
    move = GreedyBot(FIXED, 0, seed).choose(FIXED.view(state, FIXED.to_move(state)))
    assert FIXED.format_move(state, move) == "d1"


@pytest.mark.parametrize("seed", range(10))
def test_greedy_never_gives_a_winning_piece(seed: int) -> None:
    state = FIXED.parse_position(BLUE_IS_DEADLY)
    move = GreedyBot(FIXED, 0, seed).choose(FIXED.view(state, FIXED.to_move(state)))
    assert not opponent_can_win(FIXED, FIXED.next_state(state, move))


@pytest.mark.parametrize("game", [FIXED, QUARTO], ids=["folio", "quarto"])
def test_greedy_is_safe_whenever_it_can_be(game: Any) -> None:
    rng = random.Random(4)
    checked = 0
    for state in endgames(game, 6, 25, 8) + endgames(game, 9, 25, 9):
        player = game.to_move(state)
        bot = GreedyBot(game, player, rng.randrange(1000))
        move = bot.choose(game.view(state, player))
        child = game.next_state(state, move)
        children = [game.next_state(state, m) for m in game.legal_moves(state)]
        can_win = any((o := game.outcome(c)) is not None and o.winner == player for c in children)
        can_be_safe = any(game.outcome(c) is not None or not opponent_can_win(game, c)
                          for c in children)
        outcome = game.outcome(child)
        if can_win:
            assert outcome is not None and outcome.winner == player
        elif can_be_safe:
            assert outcome is not None or not opponent_can_win(game, child)
            checked += 1
    assert checked >= 8


# -- alpha-beta ----------------------------------------------------------------------------


@pytest.mark.parametrize("compiled", [True, False], ids=["kernel", "reference"])
@pytest.mark.parametrize("game", [FIXED, QUARTO], ids=["folio", "quarto"])
def test_alphabeta_plays_perfectly_in_small_endgames(game: Any, compiled: bool) -> None:
    outcomes = set()
    for i, state in enumerate(endgames(game, 11, 12, 21)):
        best = value(game, state)
        outcomes.add(best)
        player = game.to_move(state)
        bot = AlphaBetaBot(game, player, i, Limit(nodes=2_000_000), compiled=compiled)
        move = bot.choose(game.view(state, player))
        child = game.next_state(state, move)
        outcome = game.outcome(child)
        if outcome is None:
            got = -value(game, child)
        else:
            got = 0 if outcome.winner is None else (1 if outcome.winner == player else -1)
        assert got == best, game.format_position(state)
        assert bot.last["exact"] or abs(bot.last["score"]) > 9000
        assert (bot.last["score"] > 0) == (best > 0)
        assert (bot.last["score"] < 0) == (best < 0)
    assert 1 in outcomes  # some of the endgames are forced wins that are not immediate


def test_alphabeta_finds_a_forced_win_that_is_not_immediate() -> None:
    game = QUARTO
    found = 0
    for i, state in enumerate(endgames(game, 10, 30, 33)):
        player = game.to_move(state)
        immediate = any((o := game.outcome(game.next_state(state, m))) is not None
                        and o.winner == player for m in game.legal_moves(state))
        if immediate or value(game, state) != 1:
            continue
        bot = AlphaBetaBot(game, player, i, Limit(nodes=5_000_000))
        move = bot.choose(game.view(state, player))
        assert -value(game, game.next_state(state, move)) == 1
        assert bot.last["score"] > 9000
        found += 1
    assert found >= 2


def test_alphabeta_respects_a_node_limit() -> None:
    state = FIXED.play(FIXED.initial_state(), "Gs")
    bot = AlphaBetaBot(FIXED, 0, 1, Limit(nodes=5_000))
    move = bot.choose(FIXED.view(state, 0))
    assert move in FIXED.legal_moves(state)
    assert bot.last["nodes"] <= 5_000


# -- MCTS ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_mcts_picks_an_immediate_win(seed: int) -> None:
    state = FIXED.parse_position(WIN_ON_D1)
    bot = MCTSBot(FIXED, 0, seed, Limit(iterations=50))
    assert FIXED.format_move(state, bot.choose(FIXED.view(state, 0))) == "d1"


def test_mcts_with_random_playouts_avoids_handing_over_a_win() -> None:
    state = FIXED.parse_position(BLUE_IS_DEADLY)
    bot = MCTSBot(FIXED, 0, 3, Limit(iterations=300), evaluator=RandomPlayouts(2))
    move = bot.choose(FIXED.view(state, 0))
    assert not opponent_can_win(FIXED, FIXED.next_state(state, move))
    assert bot.last["iterations"] == 300


def test_mcts_finds_the_only_good_move_by_search() -> None:
    # the immediate-win shortcut off: the tree alone must find the winning d1
    state = FIXED.parse_position(WIN_ON_D1)
    bot = MCTSBot(FIXED, 0, 5, Limit(iterations=2_000), evaluator=RandomPlayouts())
    bot.engine.load(state)
    root = bot.search(0, bot.engine.legal())
    best = max(root.children, key=lambda n: n.visits)
    assert FIXED.format_move(state, FIXED.decode(best.action)) == "d1"


# -- registry and levels -----------------------------------------------------------------


def test_levels_are_registered_and_play_legal_moves() -> None:
    state = QUARTO.initial_state()
    for n in LEVELS:
        assert f"level{n}" in BOTS
        bot = make_bot(f"level{n}", QUARTO, 1, seed=3, limit=Limit(seconds=5, nodes=5_000,
                                                                     iterations=50))
        assert bot.name == f"level{n}"
        assert bot.choose(QUARTO.view(state, 1)) in QUARTO.legal_moves(state)
    assert level_for("quarto", 1).bot == "random"
    assert all(level_for("folio", n, "freeform").bot == "freeform" for n in range(2, 6))
    assert level_for("folio", 5, "fixed-grid").bot == "alphabeta"
    assert level_for("dao", 5).endgame is not None  # the retrograde table


def test_search_bots_refuse_games_they_cannot_play() -> None:
    for name in ("greedy", "alphabeta", "mcts"):
        with pytest.raises(ConfigurationError, match="perfect information"):
            make_bot(name, fourfold.load("quatrefoil"), 0)


def test_seeded_bots_repeat_their_moves() -> None:
    state = FIXED.play(FIXED.initial_state(), "Gs")
    for name in ("greedy", "mcts", "level2", "level5"):
        a = make_bot(name, FIXED, 0, seed=9, limit=Limit(iterations=100, nodes=10_000))
        b = make_bot(name, FIXED, 0, seed=9, limit=Limit(iterations=100, nodes=10_000))
        assert a.choose(FIXED.view(state, 0)) == b.choose(FIXED.view(state, 0))
