"""Puzzle themes on hand-made positions whose motif is known (issue 32): the generic
themes from the goal, and each game's motifs from its ``puzzles`` part (a pin and a
double threat in Dao and Ice Dao, the only safe give in Quarto); the shipped sets carry
the themes derived from their lines."""

from __future__ import annotations

from typing import Any

import pytest

import fourfold
from fourfold.puzzles.hooks import HOLD, WIN, Certified, hooks_for
from fourfold.puzzles.starter import starter, starter_games
from fourfold.puzzles.themes import themes_of


def themed(game_name: str, position: str, move: str, goal: str = WIN,
           win_in: int = 2) -> tuple[str, ...]:
    game = fourfold.load(game_name)
    state = game.parse_position(position)
    first = game.parse_move(state, move)
    assert first in game.legal_moves(state)
    return themes_of(Certified(game, state, (first,), goal, win_in, ()))


def test_the_generic_themes_come_first() -> None:
    start = fourfold.load("dao").format_position(fourfold.load("dao").initial_state())
    assert themed("dao", start, "a1-a3", HOLD, 1) == ("defend",)
    assert themed("dao", start, "a1-a3", WIN, 3) == ("win in 3",)


# Ice Dao: Blue's small on a1 slides north over the empty a2 and onto the green large on
# a3, stopped by the green small on a4 (a square whose top piece is as small). The large
# could slide east before; covered, it cannot move at all: a pin.
ICE_PIN = ".,.,.,.,./Gs,.,.,.,./Gl,.,.,.,./.,.,.,.,./Bs,.,.,.,Bl B"


def test_an_icedao_move_onto_an_opposing_piece_pins_it() -> None:
    assert "pin" in themed("icedao", ICE_PIN, "a1-a3")
    # sliding east (onto Blue's own large on e1) takes no green piece's last slide
    assert "pin" not in themed("icedao", ICE_PIN, "a1-e1")


# Dao: O's b1 has four neighbours held (a1, c1 by O; a2, b2 by X) and one open, c2.
# X's c4 slides south to c2 (stopped by O's c1): b1 can no longer move.
DAO_PIN = ".,.,X,X/.,.,.,O/X,X,.,./O,O,O,. X"


def test_a_dao_move_that_closes_the_last_way_out_pins() -> None:
    assert themed("dao", DAO_PIN, "c4-c2") == ("win in 2", "pin")
    assert "pin" not in themed("dao", DAO_PIN, "c4-a4")


# Dao: X's c1 slides north-west to b2 (stopped by its own a3). X then threatens b1-a2
# (the square a2 a3 b2 b3) and a3-b4 (the b file): two threats, one reply.
DAO_FORK = "O,.,.,O/X,X,.,O/.,.,.,O/.,X,X,. X"


def test_a_dao_move_that_makes_two_threats_is_a_double_threat() -> None:
    game = fourfold.load("dao")
    after = game.next_state(game.parse_position(DAO_FORK), game.parse_move(
        game.parse_position(DAO_FORK), "c1-b2"))
    from dataclasses import replace

    again = replace(after, to_play=0, history=())
    for win in ("b1-a2", "a3-b4"):
        outcome = game.outcome(game.next_state(again, game.parse_move(again, win)))
        assert outcome is not None and outcome.winner == 0
    assert "double threat" in themed("dao", DAO_FORK, "c1-b2")
    assert "double threat" not in themed("dao", DAO_FORK, "c1-d1")


# Quarto: the SLRF in hand goes to c1; of the pieces left to give (TDRF, TLRH, SLQF),
# each but TDRF completes a line on one of the squares left (c2, d2, b3).
QUARTO_GIVE = ("a1=TLRF;b1=SDQH;d1=TLQF;a2=TDQF;b2=SLQH;a3=TDRH;c3=TDQH;d3=SDRF;a4=SLRH;"
               "b4=TLQH;c4=SDQF;d4=SDRH SLRF")


def _opponent_wins_at_once(game: Any, state: Any) -> bool:
    seat = game.to_move(state)
    return any((o := game.outcome(game.next_state(state, m))) is not None and o.winner == seat
               for m in game.legal_moves(state))


def test_the_only_safe_give_in_quarto() -> None:
    game = fourfold.load("quarto")
    state = game.parse_position(QUARTO_GIVE)
    gives = {}
    for move in game.legal_moves(state):
        gives.setdefault(move.give, []).append(
            _opponent_wins_at_once(game, game.next_state(state, move)))
    losing = {g for g, lost in gives.items() if all(lost)}
    assert len(gives) == 3 and len(losing) == 2
    safe = next(iter(set(gives) - losing))
    assert game.format_move(state, next(m for m in game.legal_moves(state)
                                        if m.give == safe)).endswith("TDRF")
    assert "the only safe give" in themed("quarto", QUARTO_GIVE, "c1 TDRF", HOLD, 1)
    assert "the only safe give" not in themed("quarto", QUARTO_GIVE, "c1 TLRH", HOLD, 1)


def test_the_games_name_their_puzzle_parts() -> None:
    for name in ("dao", "icedao", "quarto", "folio"):
        assert hooks_for(fourfold.load(name)).themes is not None
    assert hooks_for(fourfold.load("icedao")).certify is not None
    assert hooks_for(fourfold.load("dao")).certify is None


@pytest.mark.parametrize("game", starter_games())
def test_the_shipped_themes_are_derived_from_the_lines(game: str) -> None:
    for puzzle in starter(game):
        configured, state = puzzle.load()
        line, here = [], state
        for text in puzzle.solution:
            move = configured.parse_move(here, text)
            line.append(move)
            here = configured.next_state(here, move)
        again = themes_of(Certified(configured, state, tuple(line), puzzle.goal,
                                    puzzle.win_in, ()))
        assert puzzle.themes == again, puzzle.position
