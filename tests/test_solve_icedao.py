"""Ice Dao's bounded proof search against brute force over the readable rules, and the
reconstructed worked examples of the original rule text (docs/solutions.md)."""

from __future__ import annotations

import dataclasses
import io
import json
import math
import random
import sys
from typing import Any

import pytest

from fourfold.cli.main import main
from fourfold.games.icedao import Pass
from fourfold.games.icedao import solver as icedao
from fourfold.solve.position import Value, solver_for
from support.sliding_solver import GAME, bf_lose, bf_win

assert isinstance(GAME, icedao.IceDaoGame)

# Reconstructions of the lost diagrams (docs/solutions.md says how each fits the prose).
#: "it's Green's turn. Green would like to block the space between Blue's large and small,
#: but cannot get a piece to end a move there. There's no way to stop Blue from winning."
NO_WAY_TO_STOP = ".,.,Bm,Gm,Bl/Gs,.,.,.,Gs/Gl,.,.,.,Gl/Bm,Bl,.,Bs,./.,.,Bs,.,Gm G"
#: "similar but not quite so desperate. Blue cannot win on her next turn. If Blue moves the
#: lone small south, it will end the move stacked on top of the large piece."
LONE_SMALL = ".,.,Bs,Gm,Bm/Gs,.,.,.,Gs/Gl,.,.,.,Gl/Bm,Bl,.,Bs,./.,.,Bl,.,Gm G"
#: "it looks like Green can move his large piece as shown to block Blue [...] A better move
#: for Green [...] would be to move his small piece as shown [...] 'pinning' the medium"
PIN = "Gl,.,Bm,Bs,./.,.,.,.,Gl/Gs,.,.,.,./Bl,Bs,.,Bl,./Gs,Gm,Bm,.,Gm G"
# the start after c4-c3 b1-b4: no stored proof covers it
FAR = "Gl,Bs,Gm,Bs,Gl/.,Gs,.,.,./.,.,Bm,.,./.,.,Gm,.,./Bl,.,Bm,Gs,Bl B"


# -- brute force over the readable rules -------------------------------------------------------


def search_of(state: Any) -> tuple[icedao.ProofSearch, icedao.Board, int]:
    search = icedao.ProofSearch(GAME, icedao._forbidden(state))
    board, side = search.key_of(state)
    return search, board, side


def random_states(seed: int, n: int) -> list[Any]:
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < n:
        state = icedao.random_position(GAME, rng)
        if GAME.outcome(state) is None:
            states.append(state)
    return states


# -- the search against brute force ------------------------------------------------------------

def test_wins_in_one_and_two_and_losses_in_one_agree_with_brute_force() -> None:
    kinds = set()
    for state in random_states(11, 120):
        search, board, side = search_of(state)
        answer = (search.win_within(board, side, 1), search.all_lose(board, side, 1),
                  search.win_within(board, side, 2))
        assert answer == (bf_win(state, 1), bf_lose(state, 1), bf_win(state, 2)), \
            GAME.format_position(state)
        kinds.add(answer)
    # the sample holds every kind: won at once, lost at once, won in two but not one, open
    assert {(True, False, True), (False, True, False), (False, False, True),
            (False, False, False)} <= kinds


def test_losses_in_two_agree_with_brute_force() -> None:
    seen = 0
    for state in random_states(12, 25):
        search, board, side = search_of(state)
        lost = search.all_lose(board, side, 2)
        assert lost == bf_lose(state, 2), GAME.format_position(state)
        seen += lost
    assert seen >= 1


def test_a_position_seen_twice_before_is_a_draw_for_the_search() -> None:
    """When the only winning first move leads to a position that has already occurred
    twice, reaching it again draws: neither the search nor the rules find the win."""
    for state in random_states(13, 200):
        if bf_win(state, 1) or not bf_win(state, 2):
            continue
        winning = [m for m in GAME.legal_moves(state)
                   if bf_lose(GAME.next_state(state, m), 1)]
        if len(winning) != 1:
            continue
        key = GAME.next_state(state, winning[0]).key
        repeated = dataclasses.replace(state, history=(key, key))
        assert not bf_win(repeated, 2)
        search, board, side = search_of(repeated)
        assert not search.win_within(board, side, 2)
        assert search_of(state)[0].win_within(board, side, 2)
        return
    pytest.fail("no position with exactly one winning first move in the sample")


def test_solutions_agree_with_the_search() -> None:
    for state in random_states(14, 30):
        solution = icedao.solve_within(GAME, state, 2)
        search, board, side = search_of(state)
        if search.win_within(board, side, 1):
            assert solution is not None and (solution.value, solution.distance) == (Value.WIN, 1)
        elif search.all_lose(board, side, 1):
            assert solution is not None and (solution.value, solution.distance) == (Value.LOSS, 2)
        elif search.win_within(board, side, 2):
            assert solution is not None and (solution.value, solution.distance) == (Value.WIN, 3)
        if solution is not None:
            assert solution.moves[0].value is solution.value
            assert len(solution.moves) == len(GAME.legal_moves(state))


def test_the_start_is_not_decided_by_a_short_search() -> None:
    start = GAME.initial_state()
    proof = icedao.prove(GAME, start, 3)
    assert proof.value is None and proof.searched == 3
    # the search alone; the solver's entry answers the start from the stored proofs
    # (tests/test_icedao_stored_routes.py)
    assert icedao.solve_within(GAME, start, 50, 0.5) is None


def test_the_solver_is_registered_as_bounded() -> None:
    entry = solver_for(GAME)
    assert entry is not None and not entry.exact


# -- the worked examples -------------------------------------------------------------------

def test_green_cannot_stop_blue() -> None:
    state = GAME.parse_position(NO_WAY_TO_STOP)
    gap = GAME.board.parse_square("c2")
    # Blue's large (b2) and small (d2) with the gap c2 between them on the line a2-d2
    assert [GAME.format_position(state).split("/")[3].split(",")[i] for i in (1, 2, 3)] == \
        ["Bl", ".", "Bs"]
    for move in GAME.legal_moves(state):
        assert isinstance(move, Pass) or GAME.stop(state, move.origin, move.direction) != gap
    assert bf_lose(state, 1)
    solution = icedao.solve(GAME, state, 30)
    assert solution is not None and (solution.value, solution.distance) == (Value.LOSS, 2)
    assert all(m.value is Value.LOSS and m.distance == 2 for m in solution.moves)


def test_the_lone_small_overshoots_onto_the_large() -> None:
    state = GAME.parse_position(LONE_SMALL)
    blue = dataclasses.replace(state, to_play=0)
    assert not bf_win(blue, 1)  # Blue cannot win on her next turn...
    after = GAME.play(blue, "c5-c1")  # ...the lone small goes south to the edge
    assert GAME.format_position(after).split("/")[4].split(",")[2] == "BlBs"
    assert not bf_lose(state, 1)  # not so desperate for Green
    solution = icedao.solve(GAME, state, 30)
    assert solution is not None and solution.value is Value.WIN  # Green even wins
    assert solution.distance == 5


def test_the_large_block_fails_and_the_small_pin_is_the_best_move() -> None:
    state = GAME.parse_position(PIN)
    blocked = GAME.play(state, "e4-c2")  # the large blocks the gap...
    win = GAME.play(blocked, "c5-c2")  # ...but the medium slides over it and lands on it
    outcome = GAME.outcome(win)
    assert outcome is not None and outcome.winner == 0
    pinned = GAME.play(state, "a3-c5")  # the small lands on the medium: pinned
    assert GAME.format_position(pinned).startswith("Gl,.,BmGs,")
    assert not bf_win(pinned, 1)
    solution = icedao.solve(GAME, state, 60)
    assert solution is not None
    assert (solution.value, solution.distance) == (Value.LOSS, 6)
    best = solution.moves[0]
    assert GAME.format_move(state, best.move) == "a3-c5"
    assert (best.value, best.distance) == (Value.LOSS, 6)
    assert all((m.value, m.distance) == (Value.LOSS, 2) for m in solution.moves[1:])


def test_solve_command_for_ice_dao(monkeypatch: pytest.MonkeyPatch) -> None:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["solve", "ice-dao", "--setup", PIN, "--json", "--seconds", "60"]) == 0
    answer = json.loads(out.getvalue())
    assert (answer["value"], answer["distance"], answer["exact"]) == ("loss", 6, False)
    assert answer["moves"][0] == {"move": "a3-c5", "value": "loss", "distance": 6}
    # a position the stored proofs do not cover, which the search cannot settle in time
    assert main(["solve", "icedao", "--setup", FAR, "--seconds", "0.3"]) == 2
    assert "no answer within 0.3 seconds" in err.getvalue()


# -- counting positions ----------------------------------------------------------------------

def test_position_counts() -> None:
    count = icedao.count_positions()
    assert count.configurations == (math.comb(25, 2) * math.comb(23, 2)) ** 3
    assert count.legal == 2 * (count.configurations - count.with_line_one_side)
    # a quick Monte Carlo check of the exact fraction with a line for one side
    rng = random.Random(5)
    lines = GAME.line_masks
    hits, n = 0, 20_000
    for _ in range(n):
        mask = 0
        for _size in range(3):
            for sq in rng.sample(range(25), 2):
                mask |= 1 << sq
        hits += any(mask & line == line for line in lines)
    p = count.with_line_one_side / count.configurations
    assert abs(hits / n - p) < 5 * math.sqrt(p * (1 - p) / n)
    estimate = icedao.estimate_open_positions(20_000)
    assert estimate.low < estimate.fraction < estimate.high
    assert estimate.high < 1 - p  # no line for either side is rarer than none for one side


def test_leaving_the_other_side_no_piece_to_move_wins() -> None:
    """A set-up may leave pieces off the board: covering Green's last piece wins."""
    state = GAME.parse_position(".,.,.,.,Gl/.,.,.,.,./.,.,.,.,./.,.,.,.,./Bs,.,.,.,. B")
    assert bf_win(state, 1)
    search, board, side = search_of(state)
    assert search.win_within(board, side, 1)
    green = dataclasses.replace(state, to_play=1)
    search, board, side = search_of(green)
    assert search.all_lose(board, side, 1) == bf_lose(green, 1)
    assert search.win_within(board, side, 2) == bf_win(green, 2)
