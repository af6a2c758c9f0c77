"""The Quatrefoil terminal session, run in simulated time with scripted input."""

from __future__ import annotations

import io
from typing import Any

import fourfold
import fourfold.render.quatrefoil  # registers the presenter (see PRESENTER_MODULES)
from fourfold.cli.play.setup import PlayRequest, build_session
from fourfold.cli.play.terminal import Terminal
from fourfold.cli.play_quatrefoil import (
    REACTION,
    QuatrefoilSession,
    StandaloneContext,
    run_session,
)
from fourfold.core.match import Match
from fourfold.core.outcome import Result
from fourfold.core.record import format_record, parse_record
from fourfold.games.quatrefoil.arrangement import TOKENS
from fourfold.games.quatrefoil.state import Action
from fourfold.render import get_presenter


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class ScriptedLines:
    """Lines that arrive at given (simulated) times; time passes while nothing comes."""

    def __init__(self, clock: FakeClock, script: list[tuple[float, str]]) -> None:
        self.clock = clock
        self.script = [(clock.t + at, line) for at, line in script]

    def poll(self, timeout: float | None) -> tuple[bool, str | None]:
        if self.script and (timeout is None or self.script[0][0] <= self.clock.t + timeout):
            at, line = self.script.pop(0)
            self.clock.t = max(self.clock.t, at)
            return True, line
        if timeout is None:
            return True, None  # the script is over: input has ended
        self.clock.t += timeout
        return False, None


def standalone(variant: str, seat: int, seed: int, **options: Any) -> tuple[Any, io.StringIO]:
    game = fourfold.load("quatrefoil", variant, **options)
    out = io.StringIO()
    match: Match[Any, Any] = Match(game, game.initial_state(seed), date="2026-11-22")
    return StandaloneContext(match, seat, seed, None, io.StringIO(), out), out


def test_the_play_command_hands_quatrefoil_to_this_session() -> None:
    presenter = get_presenter("quatrefoil")
    assert presenter.session is not None
    out = io.StringIO()
    terminal = Terminal(io.StringIO("seat 3\nboard\nquit\n"), out)
    session = build_session(PlayRequest(game="quatrefoil", seed=12, vs="human"), terminal)
    assert presenter.session(session) == 0
    text = out.getvalue()
    deal = session.match.start.deal
    assert "you are Player 3" in text
    mine = f"P3 {TOKENS[deal.colour(2)]}@"
    assert mine in text
    for seat in (0, 1, 3):
        assert f"P{seat + 1} ?@?" in text


def test_screens_show_only_the_persons_cards_until_the_end() -> None:
    clock = FakeClock()
    ctx, out = standalone("base", 1, 21)
    script = [(0.0, "help"), (0.1, "N>NW"), (0.2, "cw"), (0.3, "E>SE"), (0.4, "ccw")]
    run_session(ctx, seat=1, clock=clock, lines=ScriptedLines(clock, script))
    text = out.getvalue()
    before_end = text.split("The cards, face up:")[0]
    deal = ctx.match.start.deal
    for seat in (0, 2, 3):
        assert f"P{seat + 1} ?@?" in before_end
        assert f"P{seat + 1} {TOKENS[deal.colour(seat)]}@" not in before_end
    assert "Signals: P1 " in text


def test_race_the_clock_runs_out_while_the_person_thinks() -> None:
    clock = FakeClock()
    ctx, out = standalone("race-the-clock", 0, 4, clock_seconds=30)
    assert run_session(ctx, seat=0, pace=1.0, clock=clock,
                       lines=ScriptedLines(clock, [(200.0, "cw")])) == 0
    outcome = ctx.match.outcome
    assert outcome is not None and outcome.result is Result.TEAM_LOSS
    assert "clock ran out" in outcome.reason
    assert "[clock] 10 s left" in out.getvalue()
    replayed = Match.from_record(parse_record(format_record(ctx.match.to_record())))
    assert replayed.state == ctx.match.state


def test_dual_bots_finish_while_the_person_watches() -> None:
    clock = FakeClock()
    ctx, out = standalone("dual", 2, 31, clock="true")
    run_session(ctx, seat=2, pace=2.0, clock=clock, lines=ScriptedLines(clock, []))
    outcome = ctx.match.outcome
    assert outcome is not None and outcome.result is Result.TEAM_WIN
    assert "Everyone wins" in out.getvalue()
    replayed = Match.from_record(parse_record(format_record(ctx.match.to_record())))
    assert replayed.state == ctx.match.state


def test_dual_action_typed_right_after_a_bot_action_is_refused_as_stale() -> None:
    clock = FakeClock()
    ctx, out = standalone("dual", 0, 8)
    session = QuatrefoilSession(ctx, seat=0, pace=1000.0, clock=clock,
                                lines=ScriptedLines(clock, []))
    session.show()
    clock.t += 5.0
    assert session._land(3, Action(8, 3, 0), clock.t)  # a bot twists at version 0
    clock.t += REACTION / 2  # the person types before they could see it
    session.handle("ccw")
    assert session.refused == 1
    assert "Refused: stale: it was chosen on version 0" in out.getvalue()
    clock.t += REACTION  # now they have seen version 1
    session.handle("ccw")
    assert ctx.match.state.version == 2
    assert ctx.match.notation[-1] == "1:ccw@1"
