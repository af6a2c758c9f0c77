"""``fourfold play`` on the table: records that name their bots, player clocks, bots that
think off the terminal's thread, Ctrl-C, and what Quatrefoil refuses."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

from fourfold.ai import base
from fourfold.cli.main import main
from fourfold.cli.play import session as session_module
from fourfold.cli.play.loop import run_turns
from fourfold.cli.play.setup import PlayRequest, build_session
from fourfold.core.outcome import Result
from fourfold.core.record import parse_record
from fourfold.table import ManualClock
from support.playscript import ScriptedConsole
from support.terminal import Player
from support.wait import wait_until


def play(monkeypatch: pytest.MonkeyPatch, args: list[str], script: list[Any]
         ) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdin", Player(out, script, follow=False))
    code = main(["play", *args])
    return code, out.getvalue(), err.getvalue()


def test_load_resumes_against_the_recorded_bot(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    first, second = tmp_path / "a.rec", tmp_path / "b.rec"
    code, _, _ = play(monkeypatch, ["folio", "-v", "fixed-grid", "--vs", "level2", "--first",
                                    "them", "--seed", "4", "--save", str(first)],
                      [lambda e: e, "quit"])
    assert code == 0
    assert parse_record(first.read_text()).players == ("level2", "Player 2")
    code, out, _ = play(monkeypatch, ["--load", str(first), "--save", str(second)], ["quit"])
    assert code == 0
    assert "Folio (fixed-grid): Bot level 2 vs Player 2 (you)" in out
    assert parse_record(second.read_text()).players == ("level2", "Player 2")
    # --vs says otherwise
    code, out, _ = play(monkeypatch, ["--load", str(first), "--vs", "random"], ["quit"])
    assert "Player 1 (you) vs Bot random" in out


def test_quatrefoil_between_people_is_refused_with_a_pointer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, err = play(monkeypatch, ["quatrefoil", "--vs", "human"], [])
    assert code == 2 and out == ""
    assert "two people cannot share one screen" in err and "fourfold serve" in err
    assert len(err.splitlines()) == 1


def test_a_player_clock_runs_out_while_the_person_thinks() -> None:
    clock = ManualClock()
    console = ScriptedConsole(clock, [(1.0, "Gs"), (500.0, "d4 Gs")])
    session = build_session(PlayRequest(game="folio", variant="fixed-grid", vs="human",
                                        clock="1+0", time=clock, inline_bots=True), console)
    assert run_turns(session) == 0
    text = console.out.getvalue()
    outcome = session.table.outcome
    assert outcome is not None and outcome.result is Result.WIN and outcome.winner == 1
    assert "Clock: 1 min + 0 s a move for each player" in text
    assert "Clock: Player 1 1:00   Player 2 0:59" in text
    assert "[clock] Player 1: 10 s left" in text
    assert "Game over. Player 2 wins: Player 1 ran out of time" in text
    assert "d4 Gs" not in text  # the flag fell before the line came


def test_bots_think_off_the_terminal_thread_and_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_module, "THINKING_DELAY", 0.05)
    slow = base.Bot.propose

    def propose(self: base.Bot, view: Any, idle: float = 0.0) -> Any:
        # slow for as long as it takes: it answers once the terminal said it is thinking
        out = sys.stdout  # the test's StringIO (see ``play``)
        assert isinstance(out, io.StringIO)
        wait_until(lambda: "is thinking..." in out.getvalue(), 10,
                   "the terminal saying the bot is thinking")
        return slow(self, view, idle)

    monkeypatch.setattr(base.Bot, "propose", propose)
    code, out, _ = play(monkeypatch, ["quarto", "--vs", "random", "--seed", "2"], ["quit"])
    assert code == 0
    assert "Bot random is thinking..." in out
    assert out.index("is thinking...") < out.index("Bot random plays")


def test_ctrl_c_while_a_bot_thinks_saves_and_leaves_cleanly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    save = tmp_path / "c.rec"

    def interrupted(self: Any, prompt: str | None, timeout: float | None) -> Any:
        raise KeyboardInterrupt

    from fourfold.cli.play.console import Console

    monkeypatch.setattr(Console, "wait", interrupted)
    code, out, err = play(monkeypatch, ["quarto", "--vs", "level4", "--seed", "2",
                                        "--save", str(save)], [])
    assert code == 0 and err == ""
    assert out.rstrip().endswith(f"Interrupted: game left unfinished.\nRecord saved to {save}")
    assert "Traceback" not in out
    assert parse_record(save.read_text()).result == "*"


def test_clock_is_for_two_player_games(monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = play(monkeypatch, ["quatrefoil", "--clock", "5+3"], [])
    assert code == 2 and "two-player games" in err
    code, _, err = play(monkeypatch, ["folio", "--clock", "soon"], [])
    assert code == 2 and "cannot read clock 'soon'" in err
