"""The Quatrefoil terminal session on the table, run in simulated time with scripted input."""

from __future__ import annotations

from typing import Any

import pytest

from fourfold.cli.play.session import Session
from fourfold.cli.play.setup import PlayRequest, build_session
from fourfold.core.match import Match
from fourfold.core.outcome import Result
from fourfold.core.record import format_record, parse_record
from fourfold.games.quatrefoil.arrangement import TOKENS
from fourfold.games.quatrefoil.terminal import REACTION, QuatrefoilLoop
from fourfold.table import ManualClock
from support.playscript import Item, ScriptedConsole


def session(variant: str, seat: int, seed: int, script: list[Item], *, pace: float | None = None,
            **options: str) -> tuple[Session, ScriptedConsole]:
    clock = ManualClock(1000.0)
    console = ScriptedConsole(clock, script)
    request = PlayRequest(game="quatrefoil", variant=variant, options=dict(options), seed=seed,
                          seat=seat, pace=pace, time=clock, inline_bots=True)
    return build_session(request, console), console


def run(s: Session) -> int:
    assert s.rules.runner is not None
    return s.rules.runner(s)


def test_the_chosen_seat_is_the_only_one_whose_cards_are_shown() -> None:
    s, console = session("base", 3, 12, [(0.0, "board"), (0.1, "quit")])
    assert run(s) == 0
    text = console.out.getvalue()
    deal = s.match.start.deal
    assert "you are Player 3" in text
    assert f"P3 {TOKENS[deal.colour(2)]}@" in text
    for seat in (0, 1, 3):
        assert f"P{seat + 1} ?@?" in text
    assert "seat N" not in text


def test_screens_show_only_the_persons_cards_until_the_end() -> None:
    script: list[Item] = [(0.0, "help"), (0.1, "N>NW"), (0.2, "cw"), (0.3, "E>SE"),
                          (0.4, "ccw")]
    s, console = session("base", 2, 21, script)
    run(s)
    text = console.out.getvalue()
    before_end = text.split("The cards, face up:")[0]
    deal = s.match.start.deal
    for seat in (0, 2, 3):
        assert f"P{seat + 1} ?@?" in before_end
        assert f"P{seat + 1} {TOKENS[deal.colour(seat)]}@" not in before_end
    assert "Signals: P1 " in text
    assert "Bot quatrefoil (seat 1): " in text  # the bots' actions, scheduled by the table


def test_help_lists_only_what_works_and_moves_hint_work_but_undo_is_refused() -> None:
    """No free peeking (a ruling): with cards face down, undo is refused and says why."""
    script: list[Item] = [(0.0, "help"), (0.1, "moves"), (0.2, "hint"), (0.3, "cw"),
                          (0.4, "undo"), (0.5, "quit")]
    s, console = session("base", 1, 5, script)
    run(s)
    text = console.out.getvalue()
    assert "  hint    what the quatrefoil bot would do in your seat" in text
    # help and the intro offer no undo that is always refused: help says why instead
    assert "  undo " not in text and "  moves " in text and "  pace " in text
    assert "No undo in this game: cards are face down" in text
    assert ", undo," not in text.split("\n", 3)[1]
    assert "  resign  give up: the whole team loses, for everyone" in text
    assert "11 legal moves:" in text
    assert "Hint (what the quatrefoil bot would do from your view): " in text
    assert "No undo: no undo in quatrefoil (base): cards are face down" in text
    assert "Took back " not in text
    assert s.match.notation[:1] == ["cw"]


@pytest.mark.parametrize("variant,options", [("half-and-half", {"face-up": "position"}),
                                             ("race-the-clock", {})])
def test_undo_is_refused_wherever_a_card_is_hidden(variant: str, options: dict[str, str]
                                                   ) -> None:
    s, console = session(variant, 1, 5, [(0.0, "cw"), (0.1, "undo"), (0.2, "quit")],
                         **options)
    run(s)
    text = console.out.getvalue()
    assert f"No undo: no undo in quatrefoil ({variant}" in text
    assert s.match.notation[:1] == ["cw"]


def test_undo_works_when_nothing_is_hidden() -> None:
    s, console = session("nothing-to-hide", 1, 5, [(0.0, "cw"), (0.1, "undo"), (0.2, "quit")])
    run(s)
    assert "Took back " in console.out.getvalue()
    assert s.match.moves == []


def test_dual_help_leaves_out_undo() -> None:
    s, console = session("dual", 1, 5, [(0.0, "help"), (0.1, "undo"), (0.2, "quit")],
                         pace=60.0)
    run(s)
    text = console.out.getvalue()
    assert "  undo " not in text
    assert "Cannot read 'undo'" in text


def test_race_the_clock_runs_out_while_the_person_thinks() -> None:
    s, console = session("race-the-clock", 1, 4, [(200.0, "cw")], pace=1.0,
                         **{"clock-seconds": "30"})
    assert run(s) == 0
    outcome = s.table.outcome
    assert outcome is not None and outcome.result is Result.TEAM_LOSS
    assert "clock ran out" in outcome.reason
    text = console.out.getvalue()
    assert "[clock] 10 s left" in text
    assert "clock 0:30 left" in text
    replayed = Match.from_record(parse_record(format_record(s.match.referee_record())))
    assert replayed.state == s.match.state and replayed.outcome == outcome


def test_the_prompt_comes_back_after_asynchronous_output() -> None:
    import io
    import threading

    from fourfold.cli.play.console import NOTHING, Console
    from fourfold.cli.play.terminal import Terminal

    typed = threading.Event()

    class Keyboard(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            typed.wait(5)
            return "cw\n"

    out = io.StringIO()
    console = Console(Terminal(Keyboard(), out))
    assert console.wait("Player 4 (you)> ", 0.05) is NOTHING
    console.say("Player 2 (bot): cw")
    typed.set()
    assert console.wait("Player 4 (you)> ", 5) == "cw"
    assert out.getvalue() == "Player 4 (you)> \nPlayer 2 (bot): cw\nPlayer 4 (you)> cw\n"


def test_race_the_clock_bots_act_at_their_pace_on_the_tables_clock() -> None:
    s, console = session("race-the-clock", 4, 4, [(9.0, "quit")], pace=1.0)
    run(s)
    text = console.out.getvalue()
    assert "Bot quatrefoil (seat 1): cw" in text and "clock 1:59 left" in text


def test_dual_bots_finish_while_the_person_watches() -> None:
    s, console = session("dual", 3, 31, [], pace=2.0, clock="true")
    run(s)
    outcome = s.table.outcome
    assert outcome is not None and outcome.result is Result.TEAM_WIN
    assert "Everyone wins" in console.out.getvalue()
    replayed = Match.from_record(parse_record(format_record(s.match.referee_record())))
    assert replayed.state == s.match.state


def test_dual_action_typed_right_after_a_bot_action_is_refused_as_stale() -> None:
    holder: list[Any] = []

    def bot_twists() -> None:  # seat 4 twists on version 0, 5 s in
        holder[0].table.play(3, "4:cw@0")

    script: list[Item] = [(5.0, bot_twists), (5.0 + REACTION / 2, "ccw"),
                          (5.0 + 2 * REACTION, "ccw"), (6.0 + 2 * REACTION, "quit")]
    s, console = session("dual", 1, 8, script, pace=60.0)
    holder.append(s)
    loop = QuatrefoilLoop(s)
    loop.run()
    text = console.out.getvalue()
    assert loop.refused == 1
    assert "Refused: stale: it was chosen on version 0, but 1 action landed first" \
        " (Player 4 cw); the current version is 1." in text
    assert s.match.notation == ["4:cw@0", "1:ccw@1"]


@pytest.mark.parametrize("variant", ["base", "nothing-to-hide", "half-and-half"])
def test_turn_based_variants_play_to_the_end(variant: str) -> None:
    from fourfold.games.quatrefoil.bots_seat import QuatrefoilBot

    holder: list[Session] = []

    def my_turn() -> None:  # the person plays as a bot would, from their own view
        table = holder[0].table
        if table.outcome is None and 0 in table.actors():
            table.play(0, QuatrefoilBot(table.game, 0, 3).choose(table.view(0)))

    s, console = session(variant, 1, 3, [(float(i), my_turn) for i in range(40)])
    holder.append(s)
    assert run(s) == 0
    assert s.table.outcome is not None
    assert "Game over." in console.out.getvalue()


def test_a_secret_deal_is_named_only_once_the_game_is_over() -> None:
    """Without --seed, the seed that replays the deal is told after the cards are face up,
    never before; the bots do not play from it."""
    clock = ManualClock(1000.0)
    console = ScriptedConsole(clock, [(0.0, "board"), (0.1, "stack"), (0.2, "y")])
    request = PlayRequest(game="quatrefoil", variant="base", seat=1, time=clock,
                          inline_bots=True)
    s = build_session(request, console)
    assert s.replay_seed is not None and s.seed != s.replay_seed
    run(s)
    text = console.out.getvalue()
    before_end, after_end = text.split("The cards, face up:")
    assert str(s.replay_seed) not in before_end
    assert f"play it again with --seed {s.replay_seed}" in after_end
    game = s.match.game
    assert game.initial_state(s.replay_seed) == s.match.start
