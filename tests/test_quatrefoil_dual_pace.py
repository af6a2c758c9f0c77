"""Terminal Dual at its default pace (issue 31): the bots leave a person time to read each
screen, and their actions print as a person types them, not as the record writes them."""

from __future__ import annotations

import re
from typing import Any

from fourfold.cli.play.setup import PlayRequest, build_session
from fourfold.core.outcome import Result
from fourfold.games.quatrefoil.arrangement import ACTION_NAMES
from fourfold.games.quatrefoil.terminal import DEFAULT_DUAL_PACE, QuatrefoilLoop
from fourfold.table import Event, ManualClock
from support.playscript import ScriptedConsole

BOT_LINE = re.compile(r"^Bot quatrefoil \(seat \d\): (\S+)", re.MULTILINE)


def watch(seed: int, pace: float | None) -> tuple[QuatrefoilLoop, str, list[float]]:
    """A whole Dual game in simulated time, the person (seat 1) typing nothing; returns the
    loop, the output and the table time of each action."""
    clock = ManualClock(1000.0)
    console = ScriptedConsole(clock, [])
    request = PlayRequest(game="quatrefoil", variant="dual", options={"clock": "true"},
                          seed=seed, seat=1, pace=pace, time=clock, inline_bots=True)
    loop = QuatrefoilLoop(build_session(request, console))
    times: list[float] = []
    say = loop.say_event

    def timed(event: Event) -> Any:
        if event.move is not None:
            times.append(clock.now)
        return say(event)

    loop.say_event = timed  # type: ignore[method-assign]
    loop.run()
    return loop, console.out.getvalue(), times


def test_bot_actions_print_in_the_notation_a_person_types() -> None:
    _loop, text, times = watch(31, None)
    names = BOT_LINE.findall(text)
    assert names and len(names) == len(times)
    assert set(names) <= set(ACTION_NAMES), names
    assert "@" not in "".join(line for line in text.splitlines()
                              if line.startswith("Bot quatrefoil (seat"))


def test_the_default_pace_leaves_each_screen_up_long_enough_to_read() -> None:
    gaps: list[float] = []
    for seed in range(6):
        loop, text, times = watch(seed, None)
        outcome = loop.table.outcome
        assert outcome is not None and outcome.result is Result.TEAM_WIN, text[-400:]
        gaps.extend(b - a for a, b in zip([1000.0, *times], times, strict=False))
    assert DEFAULT_DUAL_PACE == 6.0  # the documented default (docs/quatrefoil.md)
    assert min(gaps) >= 0.6 * DEFAULT_DUAL_PACE - 1e-6, gaps
    assert sum(gaps) / len(gaps) >= 4.0, gaps


def test_a_faster_pace_is_an_option() -> None:
    _loop, _text, times = watch(31, 1.0)
    gaps = [b - a for a, b in zip([1000.0, *times], times, strict=False)]
    assert max(gaps) <= 1.4 + 1e-6, gaps
