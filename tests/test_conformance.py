"""One conformance suite, run on every registered game and variant (the checks are in
``support.conformance``, shared with the test game added from outside)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support.conformance import (
    check_move_after_the_end,
    check_parsers_on_junk,
    check_random_games,
)
from support.gamecases import case_id, load_case, playable_cases

CASES = playable_cases()
GAMES_PER_CASE = 6


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_random_games(case: tuple[str, str]) -> None:
    check_random_games(load_case(case), GAMES_PER_CASE)


@pytest.mark.parametrize("case", CASES, ids=case_id)
@given(text=st.text(max_size=40))
def test_parsers_never_crash_on_junk(case: tuple[str, str], text: str) -> None:
    check_parsers_on_junk(load_case(case), text)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_move_after_the_end_is_refused(case: tuple[str, str]) -> None:
    check_move_after_the_end(load_case(case))
