"""``fourfold play`` end to end, through its prompts, with standard input replaced."""

from __future__ import annotations

import dataclasses
import io
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from fourfold.cli.play.console import Console
from fourfold.cli.play.context import Command, PlayContext
from fourfold.cli.play.errors import PlayError
from fourfold.cli.play.loop import run_turns
from fourfold.cli.play.rules import PlayRules
from fourfold.cli.play.session import Session
from fourfold.cli.play.terminal import Terminal, wants_colour
from fourfold.core import registry as games_registry
from fourfold.core.match import Match
from fourfold.core.record import parse_record
from fourfold.core.registry import game_names, get_spec, load
from fourfold.render import Presenter
from fourfold.table import Table
from support.gamecases import case_id, playable_cases
from support.terminal import Line, after, play

PLACEMENT_CASES = [case for case in playable_cases() if case[0] in ("folio", "quarto")
                   and case[1] in ("standard", "fixed-grid", "no-grid")]


# -- whole games -------------------------------------------------------------------------


def test_every_placement_variant_is_covered() -> None:
    assert ("folio", "standard") in PLACEMENT_CASES and ("quarto", "standard") in PLACEMENT_CASES
    assert len(PLACEMENT_CASES) == 4


@pytest.mark.parametrize("case", PLACEMENT_CASES, ids=case_id)
def test_full_game_against_random_to_the_end(
    case: tuple[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    name, variant = case
    record_path = tmp_path / "game.rec"
    code, out, err = play(
        monkeypatch,
        [name, "--variant", variant, "--vs", "random", "--seed", "7", "--save", str(record_path)],
        follow=True,
    )
    assert code == 0, err
    assert err == ""
    assert "Traceback" not in out
    assert "Bot random plays " in out  # the bot opens with a give
    assert "Illegal" not in out and "Cannot read" not in out
    record = parse_record(record_path.read_text())
    assert record.result != "*"
    assert record.players == ("Player 1", "random")
    match = Match.from_record(record)
    assert match.outcome is not None
    labels = ("Player 1 (you)", "Bot random")
    assert f"Game over. {match.outcome.describe(labels)}" in out
    assert f"Record saved to {record_path}" in out


def test_full_game_as_second_player_and_between_people(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, ["quarto", "--seed", "3", "--first", "them"], follow=True)
    assert code == 0
    assert "Bot random vs Player 2 (you)" in out
    assert "Player 2 (you) to move: give Player 1 their first piece" in out
    assert "Game over." in out

    code, out, _ = play(monkeypatch, ["folio", "-v", "no-grid", "--vs", "human"], follow=True)
    assert code == 0
    assert "Player 1 to move: place the" in out and "Player 2 to move: place the" in out
    assert "Game over." in out


# -- bad input ---------------------------------------------------------------------------


def test_bad_moves_get_one_line_and_the_prompt_again(monkeypatch: pytest.MonkeyPatch) -> None:
    script = ["junk", "a1 Rs", "d4 Gx", "d4", "d4 Gs Gs", "quit"]
    code, out, err = play(monkeypatch, ["folio", "--seed", "1"], script)
    assert code == 0 and err == ""
    assert after(out, "junk").startswith("Cannot read 'junk': bad cell 'junk': a square is")
    assert after(out, "a1 Rs") == (
        "Illegal move 'a1 Rs': the first piece must go on one of the central squares"
        " d4, e4, d5, e5."
    )
    assert after(out, "d4 Gx").startswith("Cannot read 'd4 Gx': bad piece 'Gx': a piece is")
    assert after(out, "d4") == "Illegal move 'd4': after placing on d4 you must give your" \
        " opponent a piece."
    assert after(out, "d4 Gs Gs").startswith("Cannot read 'd4 Gs Gs': too many parts")
    assert out.count("Player 1 (you)> ") == 6
    assert "Traceback" not in out


def test_opening_give_and_a_piece_that_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    script: list[Line] = [
        "d4 Gs",
        "Gs",
        lambda example: example.split()[0] + " Gs",
        "quit",
    ]
    code, out, _ = play(monkeypatch, ["folio", "--first", "them", "--seed", "2"], script)
    assert code == 0
    assert after(out, "d4 Gs") == (
        "Cannot read 'd4 Gs': the first ply only gives a piece, e.g. 'Rs'."
        " Type 'help' for how to write a move."
    )
    gone = next(line for line in out.splitlines() if line.startswith("Illegal move"))
    assert re.fullmatch(r"Illegal move '\S+ Gs': no Gs is left to give \(left: [A-Za-z ]+\)\.",
                        gone), gone


def test_blank_lines_are_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, ["quarto"], ["", "   ", "quit"])
    assert code == 0
    assert "Game left unfinished." in out


def test_a_huge_line_is_refused_in_one_short_line(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = play(monkeypatch, ["quarto", "--seed", "1"], ["x" * 100_000, "quit"])
    assert code == 0 and err == ""
    said = after(out, "x" * 100_000)
    assert said == ("Not read: that line is 100,000 characters long, and no move or command"
                    " is longer than 200. Type 'help' for how to write a move.")
    assert len(out) < 100_000 + 3_000  # echoed once as typed, never quoted back
    assert "Traceback" not in out


# -- commands ----------------------------------------------------------------------------


def test_moves_lists_legal_moves_grouped_by_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, ["folio", "--seed", "1"], ["moves", "quit"])
    assert code == 0
    listing = after(out, "moves")
    assert listing.startswith("48 legal moves: place the ")
    assert "  d4 e4 d5 e5: give any of " in out


def test_help_lists_commands_and_notation(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, ["folio", "-v", "fixed-grid"], ["help", "?", "quit"])
    assert code == 0
    assert after(out, "help") == "Commands:"
    for word in ("moves", "undo", "board", "rules", "help", "quit"):
        assert f"\n  {word} " in out
    assert "How to write a move:" in out
    assert "Cells: a1..d4" in out
    assert out.count("Commands:") == 2


def test_rules_prints_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, ["folio"], ["rules", "quit"])
    assert code == 0
    assert after(out, "rules") == "# Folio"


def test_board_shows_the_board_again(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, ["quarto"], ["board", "quit"])
    assert code == 0
    assert out.count("In hand:") == 2


def test_undo_against_a_bot_goes_back_to_your_previous_turn(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    save = tmp_path / "u.rec"
    script: list[Line] = ["undo", lambda e: e, lambda e: e, "undo", "quit"]
    code, out, _ = play(monkeypatch, ["folio", "-v", "fixed-grid", "--seed", "5",
                                      "--save", str(save)], script)
    assert code == 0
    assert after(out, "undo") == "Nothing to undo: no move has been made at this terminal yet."
    assert "Took back 2 plies." in out
    record = parse_record(save.read_text())
    assert len(record.moves) == 3  # bot's give, my move, bot's reply


def test_undo_between_people_needs_the_other_persons_consent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script: list[Line] = ["TDRH", "undo", lambda e: e, "undo", "n", "undo", "y", "quit"]
    code, out, _ = play(monkeypatch, ["quarto", "--vs", "human"], script)
    assert code == 0
    # Player 1 has made no move yet; then Player 2 asks to take back the opening give
    assert after(out, "undo") == "Nothing to undo: no move has been made at this terminal yet."
    assert "Player 1, accept taking back Player 2's last move? [y/n] n\n" \
        "Player 1 declines: play on." in out
    assert "[y/n] y\nTook back 2 plies." in out
    assert out.count("Player 2 to move: give Player 1 their first piece") == 2


def test_quit_saves_an_unfinished_record(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    save = tmp_path / "q.rec"
    code, out, _ = play(monkeypatch, ["folio", "--save", str(save)], ["quit"])
    assert code == 0
    assert out.rstrip().endswith(f"Game left unfinished.\nRecord saved to {save}")
    record = parse_record(save.read_text())
    assert record.result == "*" and len(record.moves) == 1


def test_end_of_input_quits_cleanly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    save = tmp_path / "eof.rec"
    code, out, err = play(monkeypatch, ["quarto", "--save", str(save)])
    assert code == 0 and err == ""
    assert "Game left unfinished." in out
    assert save.exists()


# -- menu --------------------------------------------------------------------------------


def test_menu_offers_games_then_variants(monkeypatch: pytest.MonkeyPatch) -> None:
    many = str(len(game_names()) + 1)
    variants = [v.name for v in get_spec("folio").variants]
    unplayable = str(variants.index("orientation-matters") + 1)
    script = [many, "folio", unplayable, "orientation-matters", "2", "", "", "quit"]
    code, out, _ = play(monkeypatch, [], script)
    assert code == 0
    assert "  1. Folio" in out and "  2. Quarto" in out
    assert after(out, many) == (
        f"'{many}' is not on the list: type a number from 1 to {len(game_names())} or a"
        f" name ({', '.join(game_names())}), or q to leave."
    )
    assert "[not playable: the designer never defined it" in out
    assert after(out, unplayable).startswith("orientation-matters cannot be played:")
    assert after(out, "orientation-matters").startswith("orientation-matters cannot be played:")
    assert "Folio (fixed-grid): Player 1 (you) vs Bot random" in out


def test_an_empty_line_at_the_menu_asks_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # it said "'' is not on the list" (a game's prompt ignores an empty line)
    code, out, _ = play(monkeypatch, [], ["", "  ", "2", "", "", "quit"])
    assert code == 0
    assert "is not on the list" not in out and out.count("Game> ") == 3
    assert "Quarto (standard):" in out


def test_menu_skips_the_variant_question_of_a_one_variant_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, _ = play(monkeypatch, [], ["2", "", "", "quit"])
    assert code == 0
    assert "Variant> " not in out
    assert "Quarto (standard):" in out


def test_menu_chooses_the_opponent_its_level_and_who_moves_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    save = tmp_path / "m.rec"
    code, out, _ = play(monkeypatch, ["--save", str(save)], ["1", "fixed-grid", "level2", "2",
                                                              "quit"])
    assert code == 0
    assert "  1. human       another person at this terminal" in out
    assert "level5 " in out and "alpha-beta" in out
    assert "Folio (fixed-grid): Bot level 2 vs Player 2 (you)" in out
    # the first seat is not the first to move in Folio: the question says who opens
    assert "Which seat is yours (Player 2 moves first)?" in out
    assert "  1. me as Player 1, level2 as Player 2" in out
    assert parse_record(save.read_text()).players == ("level2", "Player 2")
    code, out, _ = play(monkeypatch, [], ["1", "fixed-grid", "human", "quit"])
    assert "Folio (fixed-grid): Player 1 vs Player 2" in out
    assert "Which seat is yours" not in out
    # every bot in the menu says what it plays, as `fourfold bots` does
    assert re.search(r"\d+\. greedy +wins at once when it can", out)
    assert re.search(r"\d+\. random +uniformly random legal moves \(the usual opponent", out)
    assert not re.search(r"\d+\. \w+ +a bot$", out, re.MULTILINE)


def test_menu_of_quatrefoil_asks_for_a_seat_not_a_person(monkeypatch: pytest.MonkeyPatch) -> None:
    index = str(game_names().index("quatrefoil") + 1)
    code, out, _ = play(monkeypatch, ["--seed", "5"], [index, "base", "", "3", "quit"])
    assert code == 0
    assert "another person" not in out
    assert "you are Player 3" in out
    # the other seats are team-mates: no "opponent" in the question
    assert "usual opponent" not in out and "Opponent [" not in out
    assert "Bots [quatrefoil]> " in out
    assert "quatrefoil  Quatrefoil seat: " in out and "(the usual choice here)" in out


def test_leaving_the_menu(monkeypatch: pytest.MonkeyPatch) -> None:
    assert play(monkeypatch, [], ["q"])[0] == 0
    code, out, _ = play(monkeypatch, [], ["1"])  # then end of input at the variant menu
    assert code == 0
    assert "Variant> " in out


# -- records -----------------------------------------------------------------------------


def test_save_then_load_round_trip(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    first, second = tmp_path / "a.rec", tmp_path / "b.rec"
    script: list[Line] = [lambda e: e, lambda e: e, "quit"]
    code, _, _ = play(monkeypatch, ["folio", "-v", "no-grid", "--seed", "4", "--save", str(first)],
                      script)
    assert code == 0
    saved = parse_record(first.read_text())
    assert len(saved.moves) == 5 and saved.result == "*"

    code, out, _ = play(monkeypatch, ["--load", str(first), "--seed", "4", "--save", str(second)],
                        follow=True)
    assert code == 0
    assert "Folio (no-grid): Player 1 (you) vs Bot random" in out
    finished = parse_record(second.read_text())
    assert finished.moves[:5] == saved.moves
    assert finished.result != "*"

    code, out, _ = play(monkeypatch, ["folio", "--load", str(second)])
    assert code == 0
    assert "Game over." in out
    assert "> " not in out


def test_load_refusals(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    missing = tmp_path / "missing.rec"
    code, out, err = play(monkeypatch, ["--load", str(missing)])
    assert code == 2 and out == ""
    assert err.startswith(f"fourfold play: cannot read the record {missing}:")
    assert len(err.splitlines()) == 1

    bad = tmp_path / "bad.rec"
    bad.write_text('[Game "folio"]\n')
    code, _, err = play(monkeypatch, ["--load", str(bad)])
    assert code == 2 and "bad game record: missing tag(s)" in err

    good = tmp_path / "good.rec"
    play(monkeypatch, ["folio", "--save", str(good)], ["quit"])
    code, _, err = play(monkeypatch, ["quarto", "--load", str(good)])
    assert code == 2 and "is a game of folio, not quarto" in err
    code, _, err = play(monkeypatch, ["--load", str(good), "--variant", "no-grid"])
    assert code == 2 and "cannot be used with --load" in err


def test_bad_arguments_are_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, _, err = play(monkeypatch, ["folio", "--vs", "nobody"])
    assert code == 2 and "unknown bot 'nobody'; valid bots: random" in err
    code, _, err = play(monkeypatch, ["folio", "-v", "orientation-matters"])
    assert code == 2 and "cannot be played" in err
    code, _, err = play(monkeypatch, ["folio", "--save", str(tmp_path / "no" / "x.rec")])
    assert code == 2 and "does not exist" in err
    code, _, err = play(monkeypatch, ["folio", "--option", "line-rule=maybe"])
    assert code == 2 and "bad value 'maybe'" in err


def test_the_command_as_a_process() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "fourfold.cli.main", "play", "quarto", "--seed", "1"],
        input="nonsense\nmoves\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={"NO_COLOR": "1", "PATH": ""},
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "Cannot read 'nonsense'" in result.stdout
    assert "Game left unfinished." in result.stdout
    assert "\x1b[" not in result.stdout


def test_bytes_that_are_not_text_are_a_line_refused_not_the_end() -> None:
    """A byte that is not UTF-8 (a Latin-1 terminal's "é") made the line unreadable, and
    the decoding error read as the end of input: the session ended without a word."""
    result = subprocess.run(
        [sys.executable, "-m", "fourfold.cli.main", "play", "dao", "--vs", "level1"],
        input=b"\xe9t\xe9\nmoves\nquit\n", capture_output=True, timeout=60,
        env={"NO_COLOR": "1", "PATH": "", "PYTHONIOENCODING": "utf-8"})
    out, err = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 0 and err == "", err
    assert "Cannot read '\ufffdt\ufffd': " in out, out
    assert "legal moves:" in out and "Game left unfinished." in out


def test_output_that_goes_away_ends_the_session_and_saves(tmp_path: Path) -> None:
    """``fourfold play | head``: once the prompt is shown, the reader of the output goes
    away and input ends. The session used to hang for ever (its input thread died of the
    broken pipe, with a traceback, and nothing told the session); now it ends as at the
    end of input, saves its record, and says nothing on standard error."""
    save = tmp_path / "gone.rec"
    process = subprocess.Popen(
        [sys.executable, "-m", "fourfold.cli.main", "play", "dao", "--vs", "level1",
         "--save", str(save)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={"NO_COLOR": "1", "PATH": ""})
    assert process.stdin is not None and process.stdout is not None
    try:
        seen = b""
        deadline = time.monotonic() + 60
        while b"(you)> " not in seen:  # the first prompt: the session waits for a line
            left = deadline - time.monotonic()
            assert left > 0, f"no prompt within 60 s: {seen!r}"
            if select.select([process.stdout], [], [], left)[0]:
                chunk = os.read(process.stdout.fileno(), 4096)
                assert chunk, f"the output ended before the prompt: {seen!r}"
                seen += chunk
        process.stdout.close()  # the reader goes away
        process.stdin.close()   # and input ends: the next write meets a broken pipe
        code = process.wait(timeout=60)
        assert process.stderr is not None
        err = process.stderr.read().decode()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert code == 0 and err == "", err
    assert parse_record(save.read_text()).result == "*"


# -- colour ------------------------------------------------------------------------------


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert wants_colour(FakeTerminal())
    assert not wants_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_colour(FakeTerminal())


# -- extension points --------------------------------------------------------------------


def _count(ctx: PlayContext, arg: str) -> bool:
    ctx.say(f"{len(ctx.match.moves)} plies so far; you said {arg!r}")
    return False


def _agree(ctx: PlayContext, arg: str) -> bool:
    ctx.table.offer(ctx.seat, "draw")
    ctx.table.answer(1 - ctx.seat, True)
    return True


class Noted(Presenter):
    def notes(self, match: Match[Any, Any]) -> list[str]:
        return [f"Note: {len(match.states)} states seen"]


def _session(presenter: Presenter, rules: PlayRules, lines: str) -> tuple[Session, io.StringIO]:
    out = io.StringIO()
    game = load("quarto")
    console = Console(Terminal(io.StringIO(lines), out))
    match: Match[Any, Any] = Match(game)
    session = Session(Table(game, match=match), presenter, console, rules, frozenset({0, 1}),
                      referee=match)
    session.listen()
    return session, out


def test_games_add_commands_through_their_play_rules() -> None:
    rules = PlayRules(commands=(Command("count", "count plies", _count),
                                Command("agree", "agree a draw", _agree)))
    session, out = _session(Noted(), rules, "count now\nhelp\nagree\n")
    assert run_turns(session) == 0
    text = out.getvalue()
    assert "0 plies so far; you said 'now'" in text
    assert "  count   count plies" in text
    assert "Game over. Draw: agreed" in text
    assert "Note: 1 states seen" in text
    # the generic presenter draws position strings
    assert "Position: - -" in text


def test_a_game_command_may_not_hide_a_built_in_it_keeps() -> None:
    session, _ = _session(Presenter(), PlayRules(commands=(Command("undo", "mine", _count),)),
                          "help\n")
    with pytest.raises(PlayError, match="'undo': that name is built in"):
        run_turns(session)
    session, out = _session(Presenter(), PlayRules(
        commands=(Command("undo", "mine", _count),), without=frozenset({"undo"})), "undo\n")
    assert run_turns(session) == 0
    assert "0 plies so far" in out.getvalue()


#: the sessions ``OWN_RULES`` ran (its runner is named by a bundle, so it is module-level)
OWN_SEEN: list[PlayContext] = []


def _own_session(ctx: PlayContext) -> int:
    OWN_SEEN.append(ctx)
    ctx.say(f"own session of {ctx.game.name}")
    return 0


OWN_RULES = PlayRules(runner=_own_session)


def test_a_game_may_run_its_own_session(monkeypatch: pytest.MonkeyPatch) -> None:
    # Quarto with a terminal part of its own, named in its bundle as a plugin would
    spec = get_spec("quarto")
    own = dataclasses.replace(spec, extensions=dataclasses.replace(
        spec.extensions, terminal="test_cli_play:OWN_RULES"))
    monkeypatch.setitem(games_registry._SPECS, "quarto", own)
    monkeypatch.setattr(games_registry, "_GAMES", {})
    OWN_SEEN.clear()
    code, out, _ = play(monkeypatch, ["quarto", "--seed", "9"])
    assert code == 0
    assert out == "own session of quarto\n"
    assert OWN_SEEN[0].seed == 9


def test_render_imports_nothing_from_the_command_line() -> None:
    import ast

    root = Path(__file__).parent.parent / "src" / "fourfold" / "render"
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("fourfold.cli"), path
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("fourfold.cli") for a in node.names), path
