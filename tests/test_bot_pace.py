"""Bots on the server pause at the real-time pace where several seats may act at once
(Quatrefoil Dual), so that a person can follow, and at the turn pace elsewhere."""

from __future__ import annotations

import pytest

import fourfold
from fourfold.core.match import Match
from fourfold.server.settings import Settings
from fourfold.server.specs import bot_pace


@pytest.mark.parametrize(("game", "variant", "real_time"), [
    ("quatrefoil", "dual", True), ("quatrefoil", "base", False),
    ("quatrefoil", "race-the-clock", False), ("dao", None, False), ("quarto", None, False)])
def test_the_bots_pace_follows_real_time_play(game: str, variant: str | None,
                                              real_time: bool) -> None:
    loaded = fourfold.load(game, variant)
    settings = Settings(database="sqlite://", bot_pace=0.6, real_time_bot_pace=6.0)
    pace = bot_pace(loaded, Match(loaded, loaded.initial_state(1)), settings)
    assert pace == (6.0 if real_time else 0.6)


def test_the_default_real_time_pace_is_the_terminals() -> None:
    from fourfold.games.quatrefoil.terminal import DEFAULT_DUAL_PACE

    assert Settings(database="sqlite://").real_time_bot_pace == DEFAULT_DUAL_PACE
