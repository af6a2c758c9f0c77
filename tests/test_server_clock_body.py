"""A table's clock as the API reads it: 1 s to 24 h on each clock, as the referee's own
check says (``ClockSettings``: "a clock's base time is 1 s to 24 h"); a clock of a few
milliseconds was taken, and its player lost on time before the page had loaded."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from fourfold.server.schemas import CreateTable


def _body(base: float) -> dict[str, object]:
    return {"game": "dao", "seats": ["human", "bot:level1"],
            "clock": {"base": base, "increment": 0.0}}


@pytest.mark.parametrize("base", [0.001, 0.5, 0.999])
def test_a_clock_under_a_second_is_refused(base: float) -> None:
    with pytest.raises(ValidationError, match="greater than or equal to 1"):
        CreateTable.model_validate(_body(base))


@pytest.mark.parametrize("base", [1.0, 30.0, 86_400.0])
def test_a_clock_of_a_second_to_a_day_is_taken(base: float) -> None:
    clock = CreateTable.model_validate(_body(base)).clock
    assert clock is not None and clock.base == base
