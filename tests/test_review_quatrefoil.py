"""``fourfold review`` of recorded Quatrefoil games (issue 32; docs/review.md, Quatrefoil).

The review's figures are checked independently, ply by ply: the fewest actions with
the deal known against ``fourfold solve quatrefoil --start --solution --json`` of the
arrangement before the action; the deals and solutions still consistent with the
public record by enumerating all 2,880 deals with the engine's own signals; the public
optimum (and the played action's expected cost) by plain value iteration over explicit
deal sets wherever the set is small enough for it; and every line by replaying it
through the rules. Every variant is reviewed; a game not yet over is refused.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

import fourfold
from fourfold.ai import make_bot
from fourfold.cli.main import main
from fourfold.core.match import Match
from fourfold.core.outcome import Result
from fourfold.core.record import format_record, parse_record
from fourfold.games.quatrefoil.arrangement import (
    ALL_ARRANGEMENTS,
    MOVING_ACTIONS,
    Arrangement,
    act,
    format_arrangement,
    parse_action_name,
)
from fourfold.games.quatrefoil.bots_seat import play_dual
from fourfold.games.quatrefoil.state import Action, Deal, QuatrefoilState
from support.cli import run_json

DEALS = [Deal(s, (p[0], p[1], p[2], p[3])) for s in ALL_ARRANGEMENTS
         for p in permutations(range(4))]
#: the largest deal set valued by plain value iteration here
BRUTE_DEALS = 24


def recorded(tmp_path: Path, variant: str, seed: int, **options: Any
             ) -> tuple[Path, Match[Any, Any, Any]]:
    """A game of the Quatrefoil bots (Dual: its simulated real-time session), written
    as the referee's record."""
    game = fourfold.load("quatrefoil", variant, **options)
    match: Match[Any, Any, Any] = Match(game, game.initial_state(seed), date="2026-11-26")
    if game.dual:
        for seat, action in play_dual(game, seed).state.history:
            match.play(Action(action, seat))
    else:
        bots = [make_bot("quatrefoil", game, p, seed) for p in range(4)]
        while match.outcome is None and len(match.moves) < 200:
            seat = game.to_move(match.state)
            match.play(bots[seat].choose(game.view(match.state, seat)))
    path = tmp_path / f"{variant}-{seed}.rec"
    path.write_text(format_record(match.referee_record()))
    return path, match


def signals(deal: Deal, arrangement: Arrangement) -> tuple[bool, ...]:
    return QuatrefoilState(deal, arrangement).signals(arrangement)


def public_deals(match: Match[Any, Any, Any], upto: int) -> list[Deal]:
    """The deals consistent with what was public after ``upto`` actions (by brute force)."""
    state: QuatrefoilState = match.state
    truth, game = state.deal, match.game
    found = []
    for d in DEALS:
        if game.face_up in ("all", "colour") and (
                d.north != truth.north or any(d.colour(s) != truth.colour(s) for s in range(4))):
            continue
        if game.face_up in ("all", "position") and d.positions != truth.positions:
            continue
        if all(signals(d, a) == signals(truth, a) for a in state.arrangements[:upto + 1]):
            found.append(d)
    return found


def brute_value(arrangement: Arrangement, deals: list[Deal]) -> dict[int | None, Fraction]:
    """By value iteration over (arrangement, set of deals): the least expected number of
    actions, stack included, of a policy that sees only the table and the signals and
    stacks only when sure; and each moving action's value from here, itself included
    (key ``None``: the position's own value)."""
    State = tuple[Arrangement, frozenset[int]]

    def split(here: Arrangement, members: frozenset[int]) -> list[State]:
        groups: dict[tuple[bool, ...], set[int]] = {}
        for d in members:
            groups.setdefault(signals(deals[d], here), set()).add(d)
        return [(here, frozenset(g)) for g in groups.values()]

    root: State = (arrangement, frozenset(range(len(deals))))
    children: dict[State, list[list[State]] | None] = {}
    todo = [root]
    while todo:
        node = todo.pop()
        if node in children:
            continue
        here, members = node
        if all(deals[d].solution == here for d in members):
            children[node] = None
            continue
        options = [split(act(here, a), members) for a in MOVING_ACTIONS]
        children[node] = options
        todo.extend(child for option in options for child in option)
    total: dict[State, int | None] = dict.fromkeys(children)
    changed = True
    while changed:
        changed = False
        for node, options in children.items():
            size = len(node[1])
            if options is None:
                value: int | None = size
            else:
                sums = [sum(total[c] or 0 for c in option) for option in options
                        if all(total[c] is not None for c in option)]
                value = size + min(sums) if sums else None
            if value != total[node]:
                total[node], changed = value, True
    n = len(deals)
    root_options = children[root]
    out: dict[int | None, Fraction] = {None: Fraction(total[root] or 0, n)}
    for action, option in zip(MOVING_ACTIONS, root_options or [], strict=False):
        out[action] = Fraction(n + sum(total[c] or 0 for c in option), n)
    return out


def known_fewest(start: Arrangement, solution: Arrangement,
                 capsys: pytest.CaptureFixture[str]) -> int:
    """``fourfold solve quatrefoil --start --solution --json``: its length."""
    answer = run_json(["solve", "quatrefoil", "--start", format_arrangement(start),
                       "--solution", format_arrangement(solution), "--json"], capsys)
    return int(answer["length"])


def replays_to_the_win(match: Match[Any, Any, Any], before: int, line: list[str]) -> bool:
    """Does ``line`` win from the position before action ``before`` (from 0)?"""
    state: QuatrefoilState = match.state
    replayed = QuatrefoilState(state.deal, state.start, state.history[:before])
    for text in line:
        action = parse_action_name(text)
        assert action is not None, text
        replayed = QuatrefoilState(replayed.deal, replayed.start,
                                   (*replayed.history, (0, action)))  # any seat: the same
    outcome = match.game.outcome(replayed)
    return outcome is not None and outcome.result is Result.TEAM_WIN


def test_base_review_checked_against_the_solvers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, match = recorded(tmp_path, "base", 3)
    body = run_json(["review", str(path), "--json"], capsys)
    state: QuatrefoilState = match.state
    assert body["kind"] == "actions" and body["variant"] == "base"
    assert body["solution"] == format_arrangement(state.deal.solution)
    assert len(body["plies"]) == len(match.moves) == body["actions"]
    brute_checked = costly_checked = 0
    for i, p in enumerate(body["plies"]):
        here = state.arrangements[i]
        assert p["ply"] == i + 1 and p["move"] == match.notation[i]
        assert p["before"]["known"] == known_fewest(here, state.deal.solution, capsys)
        before, after = public_deals(match, i), public_deals(match, i + 1)
        assert p["before"]["deals"] == len(before)
        assert p["before"]["solutions"] == len({d.solution for d in before})
        if match.notation[i] != "stack":
            assert p["after"]["deals"] == len(after)
        # the shortest solution from here, and the best public play on this deal, win
        assert len(p["line"]) == p["before"]["known"] and replays_to_the_win(match, i, p["line"])
        assert replays_to_the_win(match, i, p["public_line"])
        if i + 1 < len(body["plies"]):
            assert p["after"] == body["plies"][i + 1]["before"]
        if len(before) <= BRUTE_DEALS and here != state.deal.solution:
            values = brute_value(here, before)
            assert Fraction(p["before"]["public_exact"]) == values[None]
            played = parse_action_name(match.notation[i])
            assert Fraction(p["cost"]["public_exact"]) == values[played] - values[None]
            top = min(v for k, v in values.items() if k is not None)
            assert {parse_action_name(m) for m in p["best"]} == {
                k for k, v in values.items() if k is not None and v == top}
            brute_checked += 1
            costly_checked += p["label"] == "costly"
        assert (p["label"] == "best") == (Fraction(p["cost"]["public_exact"]) == 0)
    assert brute_checked >= 2 and costly_checked >= 1, "this seeded game has a costly action" \
        " in a small belief"
    costs = [Fraction(p["cost"]["public_exact"]) for p in body["plies"]]
    assert body["costliest"] == 1 + costs.index(max(costs))
    assert body["plies"][-1]["label"] == "best" and body["end_line"] == []
    # the text form: the table, the costliest action and the shortest solutions
    assert main(["review", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Costliest: action" in text and "shortest solution" in text


@pytest.mark.parametrize(("variant", "seed", "options"), [
    ("half-and-half", 2, {"face-up": "colour"}),
    ("half-and-half", 2, {"face-up": "position"}),
    ("nothing-to-hide", 5, {}),
    ("race-the-clock", 4, {}),
    ("dual", 3, {}),
])
def test_every_variant_is_reviewed(variant: str, seed: int, options: dict[str, str],
                                   tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, match = recorded(tmp_path, variant, seed, **options)
    body = run_json(["review", str(path), "--json"], capsys)
    state: QuatrefoilState = match.state
    game = match.game
    assert len(body["plies"]) == len(match.moves) > 0
    for i, p in enumerate(body["plies"]):
        here = state.arrangements[i]
        assert p["before"]["known"] == known_fewest(here, state.deal.solution, capsys)
        if game.dual:  # the solution is face up: public and known agree; pushes show corners
            assert p["before"]["public"] == p["before"]["known"]
            seen = {seat for seat, a in state.history[:i] if a < 8}
            assert p["before"]["deals"] == len([
                q for q in permutations(range(4))
                if all(q[s] == state.deal.positions[s] for s in seen)])
            assert p["before"]["solutions"] == 1
            continue
        before = public_deals(match, i)
        assert p["before"]["deals"] == len(before)
        if game.face_up == "all":
            assert p["before"]["deals"] == 1 and p["before"]["public"] == p["before"]["known"]
        if len(before) <= BRUTE_DEALS and here != state.deal.solution:
            assert Fraction(p["before"]["public_exact"]) == brute_value(here, before)[None]


def test_a_game_the_clock_ended_shows_the_shortest_solution_from_the_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = fourfold.load("quatrefoil", "race-the-clock", clock_seconds=30)
    match: Match[Any, Any, Any] = Match(game, game.initial_state(4), date="2026-11-26")
    match.play("ccw")
    match.declare(game.time_out(match.state, None))
    path = tmp_path / "clock.rec"
    path.write_text(format_record(match.referee_record()))
    body = run_json(["review", str(path), "--json"], capsys)
    assert body["result"] == "team-loss" and "clock" in body["termination"]
    assert body["end_line"] and body["end_line"][-1] == "stack"
    assert replays_to_the_win(match, 1, body["end_line"])


def test_a_lost_stack_is_the_costliest_action(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = fourfold.load("quatrefoil")
    match: Match[Any, Any, Any] = Match(game, game.initial_state(7), date="2026-11-26")
    for text in ("cw", "stack"):
        match.play(text)
    path = tmp_path / "lost.rec"
    path.write_text(format_record(match.referee_record()))
    body = run_json(["review", str(path), "--json"], capsys)
    last = body["plies"][-1]
    assert last["label"] == "lost" and last["after"]["public"] is None
    assert body["costliest"] == 2 and last["cost"]["public"] is None


def test_an_unfinished_game_is_refused_without_showing_a_card(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, match = recorded(tmp_path, "base", 3)
    record = parse_record(path.read_text())
    cut = dataclasses.replace(record, moves=record.moves[:2], result="*", termination="")
    path.write_text(format_record(cut))
    capsys.readouterr()
    assert main(["review", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert "once the game is over" in captured.err.strip()
    assert format_arrangement(match.state.deal.solution) not in captured.err
