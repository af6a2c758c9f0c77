"""The bots, terminal and report parts of a game's bundle, given by a game from outside.

A copy of the plugin test game (noughts and crosses, tests/plugin_game) is registered
for each test with parts named in this module, as a plugin would name its own: the
generic layers (``make_bot``, the levels, ``fourfold bots``, hints, ``fourfold play``,
the report) must find them there, and a game without them gets the defaults.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from fourfold.ai import bot_names, make_bot
from fourfold.ai.base import Bot, Limit
from fourfold.ai.game_bots import GameBots, NamedBot
from fourfold.ai.levels import LEVELS, Level, level_for
from fourfold.analysis.report.complexity import state_space
from fourfold.analysis.report.facts import ReportFacts, StateCount
from fourfold.analysis.report.games import coverage
from fourfold.cli.main import main
from fourfold.cli.play.context import Command, PlayContext
from fourfold.cli.play.rules import DEFAULT, PlayRules, rules_for
from fourfold.core import registry
from fourfold.core.errors import ConfigurationError
from fourfold.core.extensions import Extensions
from fourfold.core.game import Game, View
from fourfold.server.hints import hint_for
from plugin_game import SPEC as NOUGHTS

NAME = "noughts-parts"


class FirstMoveBot(Bot):
    """Plays the first legal move (the game's own bot, named ``first``)."""

    name = "first"

    def choose(self, view: View[Any]) -> Any:
        return self.game.view_legal_moves(view)[0]


class FirstLevel:
    """Level 5 of this game is the ``first`` bot."""

    def build(self, level: Level, game: Game[Any, Any], player: int, seed: int | None,
              limit: Limit | None) -> Bot:
        return FirstMoveBot(game, player, seed, limit)

    def describe(self, level: Level) -> str:
        return "first: the first legal move"


BOTS = GameBots(
    named={"first": NamedBot(FirstMoveBot, "the first legal move, always")},
    levels={5: Level(5, "first", own=FirstLevel())},
    too_slow=frozenset({"mcts"}),
    too_slow_reason="a made-up reason for the test",
    hint="first",
    hint_proposes=True,
)


def _count(ctx: PlayContext, argument: str) -> bool:
    ctx.say("counted")
    return False


TERMINAL = PlayRules(commands=(Command("count", "say counted", _count),), opponent="first")


def _sites(game: Game[Any, Any]) -> tuple[int, Any]:
    return 9, lambda state: frozenset(i for i, m in enumerate(state.board) if m is not None)


REPORT = ReportFacts(state_space=lambda game: StateCount(3 ** 9, False, "3^9 boards"),
                     sites=_sites)
NOT_A_PART = object()


def _register(monkeypatch: pytest.MonkeyPatch, **parts: str) -> Game[Any, Any]:
    # no package: the copy has only the parts named here, none found in plugin_game/
    spec = dataclasses.replace(NOUGHTS, name=NAME, package=None,
                               extensions=Extensions(**parts))
    registry.game_names()  # the built-in games and plugins first
    monkeypatch.setitem(registry._SPECS, NAME, spec)
    monkeypatch.setattr(registry, "_GAMES", {})
    return registry.load(NAME)


@pytest.fixture
def game(monkeypatch: pytest.MonkeyPatch) -> Game[Any, Any]:
    module = "test_game_parts_play"
    return _register(monkeypatch, bots=f"{module}:BOTS", terminal=f"{module}:TERMINAL",
                     report=f"{module}:REPORT")


def test_a_games_own_bot_is_made_listed_and_refused_elsewhere(game: Game[Any, Any]) -> None:
    state = game.initial_state()
    bot = make_bot("first", game, 0, 1)
    assert isinstance(bot, FirstMoveBot)
    assert bot.choose(game.view(state, 0)) == game.legal_moves(state)[0]
    assert "first" in bot_names()
    with pytest.raises(ConfigurationError, match="the first bot plays only Noughts and crosses, not"
                                                 r" quarto \(standard\)"):
        make_bot("first", registry.load("quarto"), 0)
    with pytest.raises(ConfigurationError, match=r"the mcts bot is too slow for .*made-up"):
        make_bot("mcts", game, 0)


def test_a_games_levels_override_the_generic_ones(game: Game[Any, Any]) -> None:
    assert level_for(NAME, 5).describe() == "first: the first legal move"
    assert level_for(NAME, 3) == LEVELS[3]
    bot = make_bot("level5", game, 1, 2)
    assert isinstance(bot, FirstMoveBot) and bot.name == "level5"


def test_fourfold_bots_describes_the_games_own_bot_and_levels(
        game: Game[Any, Any], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", NAME]) == 0
    out = capsys.readouterr().out
    assert "  first      the first legal move, always" in out
    assert f"Levels for {NAME}:" in out and "level5     first: the first legal move" in out
    assert main(["bots"]) == 0
    assert f"Levels for {NAME}:" in capsys.readouterr().out


def test_a_hint_comes_from_the_bot_the_bundle_names(game: Game[Any, Any]) -> None:
    state = game.initial_state()
    hint = hint_for(game, 0, game.view(state, 0), 0, 5)
    assert hint["kind"] == "bot" and hint["bot"] == "first"
    assert hint["move"] == game.format_move(state, game.legal_moves(state)[0])


def test_the_terminal_and_report_parts_are_found(game: Game[Any, Any]) -> None:
    assert rules_for(game) is TERMINAL
    count = state_space(game)
    assert count is not None and count.positions == 3 ** 9
    state = game.initial_state()
    states = [state, game.apply(state, game.legal_moves(state)[4])]
    assert coverage(game, states) == pytest.approx(1 / 9)


def test_a_game_without_parts_gets_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _register(monkeypatch)
    assert rules_for(game) is DEFAULT
    assert level_for(NAME, 5) == LEVELS[5]
    assert state_space(game) is None and coverage(game, [game.initial_state()]) is None
    hint = hint_for(game, 0, game.view(game.initial_state(), 0), 0, 5)
    assert hint["kind"] in ("bot", "solver")


def test_a_part_of_the_wrong_kind_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = "test_game_parts_play:NOT_A_PART"
    game = _register(monkeypatch, bots=wrong, terminal=wrong)
    with pytest.raises(ConfigurationError, match=r"the bots part of .* is a object, not a"):
        make_bot("level1", game, 0)
    with pytest.raises(ConfigurationError, match=r"the terminal part of .* is a object"):
        rules_for(game)
