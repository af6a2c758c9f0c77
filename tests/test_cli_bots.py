"""Every bot ``fourfold bots GAME/VARIANT`` lists plays that game: levels 1 to 5 in every
playable variant of every game (Quatrefoil's included), each making real moves."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from fourfold.ai import Limit, bots_for, make_bot
from fourfold.ai.levels import LEVELS
from fourfold.cli.main import main
from fourfold.cli.play.setup import PlayRequest, build_session
from fourfold.core.game import Game
from fourfold.table import ManualClock
from support.gamecases import case_id, load_case, playable_cases
from support.playscript import ScriptedConsole

CASES = playable_cases()
#: the bot's own moves to make in each game (a few: enough to show that it plays)
OWN_MOVES = 2


def listed_bots(case: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The bots and levels ``fourfold bots GAME/VARIANT`` prints."""
    assert main(["bots", f"{case[0]}/{case[1]}"]) == 0
    out = capsys.readouterr().out
    names = []
    for line in out.splitlines():
        word = line.split(maxsplit=1)[0] if line.startswith("  ") and line.strip() else ""
        if word and word not in names:
            names.append(word)
    return names


def play_a_few_moves(game: Game[Any, Any], name: str, seed: int) -> int:
    """``name`` in the last seat, random bots in the others; the bot's moves made."""
    seat = game.num_players - 1
    limit = Limit(seconds=0.2)
    bot = make_bot(name, game, seat, seed, limit)
    others = {p: make_bot("random", game, p, seed + p) for p in range(game.num_players)
              if p != seat}
    rng = random.Random(seed)
    state = game.initial_state(seed)
    made = plies = 0
    while made < OWN_MOVES and game.outcome(state) is None and plies < 60:
        mover = game.to_move(state)
        if mover is None:  # anyone may act (Quatrefoil Dual): the bot, then someone else
            mover = seat if plies % 2 == 0 else rng.choice(sorted(others))
        player = bot if mover == seat else others[mover]
        move = player.choose(game.view(state, mover))
        state = game.apply(state, move)
        plies += 1
        made += mover == seat
    return made


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_listed_bot_plays_the_game(case: tuple[str, str],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    game = load_case(case)
    listed = listed_bots(case, capsys)
    assert {f"level{n}" for n in LEVELS} <= set(listed), listed
    assert set(listed) <= set(bots_for(game)) | {f"level{n}" for n in LEVELS}
    for name in listed:
        made = play_a_few_moves(game, name, seed=7)
        assert made >= 1, f"{name} made no move in {case_id(case)}"


def test_bots_lists_only_the_bots_that_play_quatrefoil(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "quatrefoil"]) == 0
    out = capsys.readouterr().out
    bots_part = out.split("Levels for", 1)[0]
    assert "quatrefoil" in bots_part and "random" in bots_part
    for refused in ("alphabeta", "mcts", "greedy", "perfect", "freeform"):
        assert f"  {refused} " not in bots_part, refused
    assert "level5     quatrefoil seat" in out


@pytest.mark.parametrize("level", [f"level{n}" for n in LEVELS])
def test_play_quatrefoil_against_every_level(level: str, tmp_path: Path) -> None:
    clock = ManualClock()
    console = ScriptedConsole(clock, [])
    session = build_session(PlayRequest(game="quatrefoil", vs=level, seed=3, time=clock,
                                        inline_bots=True), console)
    assert session.table.players[1:] == (level, level, level)


def test_a_bot_that_cannot_play_the_game_is_named_with_the_ones_that_can(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "quatrefoil", "--vs", "alphabeta"]) == 2
    err = capsys.readouterr().err
    assert "the alphabeta bot plays two-player games" in err
    assert "bots for quatrefoil (base): random, quatrefoil, optimal, level1" in err
    assert err.count("\n") == 1
