"""The knobs behind the levels: the beginner, its attention, exact endgames with the
squeeze, the freeform look-ahead, and the level table itself."""

from __future__ import annotations

import random
from typing import Any

import pytest

import fourfold
from fourfold.ai import Limit, make_bot
from fourfold.ai.alphabeta import AlphaBetaBot
from fourfold.ai.endgame import DRAW, LOSS, Endgame, EndgamePlan
from fourfold.ai.greedy import GreedyBot
from fourfold.ai.levels import LEVELS, Level, build, level_for
from fourfold.core.errors import ConfigurationError
from fourfold.core.outcome import Result
from fourfold.games.folio.freeform.bots import FreeformBot
from fourfold.games.folio.freeform.state import CHALLENGE
from support.freeform import ROW, on_grid, position
from support.values import (
    BLUE_IS_DEADLY,
    FIXED,
    QUARTO,
    WIN_ON_D1,
    endgames,
    opponent_can_win,
    value,
)

TWO_PLAYER = [("folio", "standard"), ("folio", "fixed-grid"), ("folio", "no-grid"),
              ("folio", "freeform"), ("quarto", None), ("icedao", None), ("dao", None)]


def move_value(game: Any, state: Any, move: Any) -> int:
    """The exact value of ``move`` for the player making it (brute force)."""
    player = game.to_move(state)
    child = game.next_state(state, move)
    outcome = game.outcome(child)
    if outcome is None:
        return -value(game, child)
    return 0 if outcome.winner is None else (1 if outcome.winner == player else -1)


# -- the beginner --------------------------------------------------------------------------


@pytest.mark.parametrize("attention", [None, 1])
@pytest.mark.parametrize("seed", range(4))
def test_the_beginner_takes_a_win(seed: int, attention: int | None) -> None:
    state = FIXED.parse_position(WIN_ON_D1)
    bot = GreedyBot(FIXED, 0, seed, careful=False, attention=attention)
    assert FIXED.format_move(state, bot.choose(FIXED.view(state, 0))) == "d1"


def test_attention_decides_how_often_the_beginner_hands_over_a_win() -> None:
    state = FIXED.parse_position(BLUE_IS_DEADLY)
    player = FIXED.to_move(state)

    def blunders(attention: int) -> int:
        count = 0
        for seed in range(40):
            bot = GreedyBot(FIXED, player, seed, attention=attention)
            count += opponent_can_win(FIXED, FIXED.next_state(state, bot.choose(
                FIXED.view(state, player))))
        return count

    everything = len(FIXED.legal_moves(state))
    assert blunders(everything) == 0  # looking at every move, it is the greedy bot
    assert blunders(1) > blunders(4) > 0  # a glance at one move blunders most often


# -- exact endgames --------------------------------------------------------------------------


@pytest.mark.parametrize("game", [FIXED, QUARTO], ids=["folio", "quarto"])
def test_the_endgame_plays_a_move_of_the_best_value(game: Any) -> None:
    plan = EndgamePlan(nodes=1_000_000, max_moves=100)
    values = set()
    for i, state in enumerate(endgames(game, 11, 10, 31)):
        best = value(game, state)
        values.add(best)
        chosen = Endgame(game).choose(state, len(game.legal_moves(state)), plan,
                                      random.Random(i))
        if best == LOSS:
            assert chosen is None  # lost: the search resists instead
            continue
        assert chosen is not None
        assert move_value(game, state, game.decode(chosen)) == best
    assert values - {LOSS}  # some positions were won or drawn: a move was checked


def test_the_endgame_waits_for_few_enough_moves_and_its_budget() -> None:
    state = endgames(QUARTO, 11, 1, 5)[0]
    legal = len(QUARTO.legal_moves(state))
    assert Endgame(QUARTO).choose(state, legal, EndgamePlan(10**6, legal - 1),
                                  random.Random(0)) is None
    early = endgames(QUARTO, 3, 1, 5)[0]
    assert Endgame(QUARTO).solve(early, 1_000) is None  # far too small a budget


def test_the_squeeze_leaves_the_most_losing_replies() -> None:
    game = QUARTO
    plan = EndgamePlan(nodes=2_000_000, max_moves=100, squeeze=2_000_000)
    checked = 0
    for i, state in enumerate(endgames(game, 10, 30, 7)):
        if value(game, state) != DRAW:
            continue
        drawn = [m for m in game.legal_moves(state) if move_value(game, state, m) == DRAW]
        shares = {}
        for move in drawn:
            child = game.next_state(state, move)
            if game.outcome(child) is not None:
                shares[game.encode(move)] = -1.0
                continue
            plausible = [r for r in game.legal_moves(child)
                         if not opponent_can_win(game, game.next_state(child, r))
                         or game.outcome(game.next_state(child, r)) is not None]
            losing = [r for r in plausible if move_value(game, child, r) == LOSS]
            shares[game.encode(move)] = len(losing) / len(plausible) if plausible else 0.0
        if len(set(shares.values())) < 2:
            continue
        endgame = Endgame(game)
        chosen = endgame.choose(state, len(game.legal_moves(state)), plan, random.Random(i))
        assert chosen is not None and shares[chosen] == max(shares.values())
        assert endgame.last["squeezed"] == max(shares.values())
        checked += 1
        if checked == 3:
            break
    assert checked >= 1


def test_alphabeta_with_an_endgame_reports_the_exact_solve() -> None:
    state = endgames(FIXED, 11, 1, 3)[0]
    player = FIXED.to_move(state)
    bot = AlphaBetaBot(FIXED, player, 0, Limit(nodes=10_000),
                       endgame=EndgamePlan(nodes=1_000_000, max_moves=100))
    move = bot.choose(FIXED.view(state, player))
    best = value(FIXED, state)
    if best != LOSS:
        assert bot.last["exact"] and bot.last["solved"]["value"] == best
        assert move_value(FIXED, state, move) == best


def test_the_endgame_of_dao_comes_from_its_table() -> None:
    dao = fourfold.load("dao")
    endgame = Endgame(dao)
    assert endgame.available
    solved = endgame.solve(dao.initial_state(), 1)
    assert solved is not None and solved.complete and solved.value == DRAW
    assert not Endgame(fourfold.load("icedao")).available  # its solver is only bounded


# -- the freeform look-ahead -----------------------------------------------------------------


def freeform() -> Any:
    return fourfold.load("folio", "freeform")


@pytest.mark.parametrize("depth", [0, 1, 3])
def test_every_freeform_strength_takes_a_win(depth: int) -> None:
    game = freeform()
    points = on_grid(30.0, 1.3, [(0, 1), (1, 1), (2, 1), (3, 1)])
    state = game.parse_position(position(points[:3], ["Rs", "Ym", "Gl"], "Bs"))
    bot = FreeformBot(game, 1, 3, careful=depth > 0, depth=max(depth, 1))
    assert game.outcome(game.apply(state, bot.choose(game.view(state, 1)))).winner == 1


def test_the_freeform_beginner_challenges_only_a_grid_the_opponent_broke() -> None:
    game = freeform()
    broken = game.play(game.parse_position(ROW), "4.0,0.0 Bm")  # player 1 breaks it
    assert FreeformBot(game, 1, 1, careful=False).choose(game.view(broken, 1)) == CHALLENGE
    later = game.play(broken, "0.0,3.0 Gs")
    assert FreeformBot(game, 0, 1, careful=False).choose(game.view(later, 0)) != CHALLENGE


def test_the_freeform_look_ahead_keeps_its_budget_and_the_rules() -> None:
    game = freeform()
    bots = [FreeformBot(game, p, 5 + p, Limit(nodes=300), depth=3) for p in (0, 1)]
    state = game.initial_state()
    depths = set()
    while game.outcome(state) is None:
        player = game.to_move(state)
        move = bots[player].choose(game.view(state, player))
        assert bots[player].nodes <= 301
        depths.add(bots[player].last.get("depth"))
        state = game.apply(state, move)
    assert game.outcome(state).result in (Result.WIN, Result.DRAW)
    assert 2 in depths or 3 in depths  # the look-ahead finished some iterations


# -- the level table -----------------------------------------------------------------------


@pytest.mark.parametrize(("name", "variant"), TWO_PLAYER)
def test_every_level_of_every_two_player_game_describes_itself(name: str,
                                                               variant: str | None) -> None:
    texts = [level_for(name, n, variant).describe() for n in LEVELS]
    assert len(set(texts)) == len(texts)  # five different strengths


@pytest.mark.parametrize(("name", "variant"), TWO_PLAYER)
def test_every_level_plays_a_legal_first_move(name: str, variant: str | None) -> None:
    game = fourfold.load(name, variant)
    state = game.initial_state()
    player = game.to_move(state)
    for n in LEVELS:
        bot = make_bot(f"level{n}", game, player, seed=2,
                       limit=Limit(nodes=2_000, iterations=30))
        assert game.illegal_reason(state, bot.choose(game.view(state, player))) is None


def test_a_level_of_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="unknown bot kind 'minimax'"):
        build(Level(3, "minimax"), QUARTO, 0, 1, None)
