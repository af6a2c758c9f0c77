"""Quatrefoil deals, position strings and records (the Setup tag holds the full deal)."""

from __future__ import annotations

from typing import Any

import pytest

import fourfold
from fourfold.ai import make_bot
from fourfold.core.errors import NotationError
from fourfold.core.match import Match
from fourfold.core.record import format_record, parse_record
from fourfold.games.quatrefoil import format_arrangement
from fourfold.games.quatrefoil.bots_seat import play_dual
from fourfold.games.quatrefoil.state import Action

VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("base", {}),
    ("nothing-to-hide", {}),
    ("half-and-half", {"face-up": "position"}),
    ("race-the-clock", {}),
    ("dual", {"clock": "true"}),
)


def test_deals_are_seeded_never_solved_and_cards_follow_the_solution() -> None:
    game = fourfold.load("quatrefoil")
    assert game.initial_state(42) == game.initial_state(42)
    assert game.initial_state() == game.initial_state(0)
    solutions, position_sets = set(), set()
    for seed in range(600):
        state = game.initial_state(seed)
        deal = state.deal
        assert state.start != deal.solution
        assert sorted(deal.positions) == [0, 1, 2, 3]
        # Each seat's colour card is the token that belongs on its position card's corner;
        # the four colour cards and north are the five colours.
        colours = [deal.colour(s) for s in range(4)]
        assert sorted([*colours, deal.north]) == [0, 1, 2, 3, 4]
        for seat in range(4):
            assert deal.solution[deal.positions[seat]] == colours[seat]
        solutions.add(deal.solution)
        position_sets.add(deal.positions)
    assert len(solutions) > 100 and len(position_sets) == 24


def test_position_strings_round_trip_and_explain_faults() -> None:
    game = fourfold.load("quatrefoil", "race-the-clock")
    state = game.initial_state(5)
    for text in ("cw", "N>NW", "S>SE"):
        state = game.play(state, text)
    with pytest.raises(NotationError, match="time is not a move"):
        game.play(state, "wait 7")
    written = game.format_position(state)
    assert written.endswith("actions=cw,N>NW,S>SE")
    assert game.parse_position(written) == state
    now, rest = written.split(" ", 1)
    faults = {
        "RGBY/P": "expected",
        f"{written} time=7": "expected",
        f"{now} " + rest.replace("actions=cw", "actions=stack"): "no action can follow",
        "PPPP/P " + rest: "appears twice",
        f"{now} {game.public_position(state).split(' ', 1)[1]}": "player's or spectator's",
    }
    for text, reason in faults.items():
        with pytest.raises(NotationError, match=reason):
            game.parse_position(text)
    wrong_now = ("RGBY/P" if now != "RGBY/P" else "GRBY/P") + " " + rest
    with pytest.raises(NotationError, match="does not follow"):
        game.parse_position(wrong_now)
    solved = game.format_position(game.initial_state(5)).split()
    solved[3] = "start=" + solved[1].split("=")[1]
    solved[0] = solved[1].split("=")[1]
    with pytest.raises(NotationError, match="already solved"):
        game.parse_position(" ".join(solved))


def test_dual_position_strings_name_the_seat_of_each_action() -> None:
    game = fourfold.load("quatrefoil", "dual")
    result = play_dual(game, 17)
    text = game.format_position(result.state)
    assert ":stack" in text
    assert game.parse_position(text) == result.state
    corners = text.split("cards=")[1].split()[0].split(",")
    actions = text.split("actions=")[1].split(",")
    seat, push = actions[0].split(":")
    if ">" in push:
        assert push.split(">")[1] == corners[int(seat) - 1]


@pytest.mark.parametrize(("variant", "options"), VARIANTS)
def test_bot_games_replay_from_their_records(variant: str, options: dict[str, Any]) -> None:
    game = fourfold.load("quatrefoil", variant, **options)
    for seed in (1, 2, 3):
        match: Match[Any, Any] = Match(game, game.initial_state(seed), date="2026-11-22")
        if game.dual:  # real time: the simulated session decides who acts when
            for seat, action in play_dual(game, seed).state.history:
                match.play(Action(action, seat))
        else:
            bots = [make_bot("quatrefoil", game, p, seed) for p in range(4)]
            while match.outcome is None and len(match.moves) < 500:
                seat = game.to_move(match.state)
                match.play(bots[seat].choose(game.view(match.state, seat)))
        text = format_record(match.referee_record())
        record = parse_record(text)
        assert record.setup == game.format_position(match.start)
        assert f"solution={format_arrangement(match.start.deal.solution)}" in record.setup
        replayed = Match.from_record(record)
        assert replayed.state == match.state and replayed.outcome == match.outcome
        assert format_record(replayed.referee_record()) == text
        assert match.outcome is not None and match.outcome.result.value == "team-win"


def test_a_timed_loss_is_declared_and_replays_from_its_record() -> None:
    game = fourfold.load("quatrefoil", "race-the-clock", clock_seconds=30)
    match: Match[Any, Any] = Match(game, game.initial_state(4), date="2026-11-25")
    match.play("cw")
    match.declare(game.time_out(match.state, None))
    text = format_record(match.referee_record())
    assert "wait" not in text and '[Termination "the 30-second clock ran out"]' in text
    replayed = Match.from_record(parse_record(text))
    assert replayed.outcome == match.outcome and replayed.state == match.state
