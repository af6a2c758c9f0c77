"""``ClockSettings``'s checks match its own message (a base of 1 s to 24 h, an
increment of 0 s to 1 h), and a refusal names the value as the user typed it."""

from __future__ import annotations

import pytest

from fourfold.core.errors import FourfoldError
from fourfold.table.clocks import ClockSettings


@pytest.mark.parametrize(("text", "said"), [
    ("0.0001+0", "a clock's base time is 1 s to 24 h, not 0.0001 min"),
    ("0.5s+0", "a clock's base time is 1 s to 24 h, not 0.5 s"),
    ("-5+3", "a clock's base time is 1 s to 24 h, not -5 min"),
    ("1441+0", "a clock's base time is 1 s to 24 h, not 1441 min"),
    ("nan+0", "a clock's base time is 1 s to 24 h, not nan min"),
    ("5+4000", "a clock's increment is 0 s to 1 h, not 4000 s"),
    ("5+-1", "a clock's increment is 0 s to 1 h, not -1 s"),
])
def test_out_of_range_clocks_are_refused_as_typed(text: str, said: str) -> None:
    with pytest.raises(FourfoldError) as refused:
        ClockSettings.parse(text)
    assert str(refused.value) == said


@pytest.mark.parametrize(("text", "base", "increment"), [
    ("1s+0", 1.0, 0.0), ("5+3", 300.0, 3.0), ("5m+3", 300.0, 3.0), ("90s+2", 90.0, 2.0),
    ("1440+3600", 86_400.0, 3600.0), (" 2 + 1 ", 120.0, 1.0),
])
def test_the_edges_of_the_range_are_taken(text: str, base: float, increment: float) -> None:
    assert ClockSettings.parse(text) == ClockSettings(base, increment)


def test_settings_made_in_seconds_are_checked_in_seconds() -> None:
    with pytest.raises(FourfoldError, match=r"1 s to 24 h, not 0\.5 s$"):
        ClockSettings(0.5)
    with pytest.raises(FourfoldError, match=r"0 s to 1 h, not 3601 s$"):
        ClockSettings(60, 3601)
    assert ClockSettings(1).describe() == "1 s + 0 s a move"
