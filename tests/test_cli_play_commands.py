"""Game commands of the terminal player, from the ``terminal`` part of each game's bundle:
Ice Dao and Dao's ``draw``, freeform's ``assist``; ``resign`` is built in for every game.
(They used to be the presenters' ``extra_commands``; presenters are now pure text.)"""

from __future__ import annotations

import pytest

import fourfold
from fourfold.cli.play.rules import rules_for
from fourfold.core.record import parse_record
from support.terminal import Line, after, play


def test_the_bundle_gives_each_game_its_commands() -> None:
    assert [c.name for c in rules_for(fourfold.load("icedao")).commands] == ["draw"]
    assert [c.name for c in rules_for(fourfold.load("dao")).commands] == ["draw"]
    freeform = rules_for(fourfold.load("folio", "freeform"))
    assert [c.name for c in freeform.commands] == ["assist"]
    assert rules_for(fourfold.load("folio")).commands == ()


def test_draw_between_people_asks_the_other_person(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: object) -> None:
    code, out, _ = play(monkeypatch, ["icedao", "--vs", "human"], ["draw", "n", "draw", "yes"])
    assert code == 0
    assert "Green, accept a draw? [y/n] n\nGreen declines: play on." in out
    assert "Game over. Draw: agreed" in out


def test_a_bot_declines_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(monkeypatch, ["dao", "--vs", "random"], ["draw", "quit"])
    assert code == 0
    assert "declines the draw: bots play on (or type resign)." in after(out, "draw")


def test_resign(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    from pathlib import Path

    save = Path(str(tmp_path)) / "r.rec"
    code, out, _ = play(monkeypatch, ["icedao", "--save", str(save)], ["resign", "resign"])
    assert code == 0
    assert "Resign? Give up: your opponent wins. Type resign again (or y) to confirm" in out
    assert "Game over. Bot random (Green) wins: Blue" in out
    assert parse_record(save.read_text()).result == "0-1"


def test_resign_asks_a_second_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """One word does not end the game (as one tap does not on the page): anything but
    resign or y keeps it going."""
    code, out, _ = play(monkeypatch, ["dao", "--vs", "level1", "--seed", "3"],
                        ["resign", "n", "board", "quit"])
    assert code == 0
    assert "Not resigned: play on." in out
    assert "resigned" not in out.replace("Not resigned", "")
    assert "Game over" not in out


def test_resign_works_in_every_game(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    """``resign`` is a command everywhere (Quarto used to read it as a cell: "bad cell")."""
    from pathlib import Path

    save = Path(str(tmp_path)) / "q.rec"
    code, out, _ = play(monkeypatch, ["quarto", "--vs", "level1", "--seed", "1", "--save",
                                      str(save)], ["help", "resign", "y"])
    assert code == 0
    assert "  resign  give up: your opponent wins" in out
    assert "bad cell" not in out
    assert "wins: Player 1 resigned" in out
    assert parse_record(save.read_text()).result == "0-1"


def test_the_examples_name_only_pieces_still_to_give(monkeypatch: pytest.MonkeyPatch) -> None:
    """The freeform prompt's and help's examples give a piece still in the supply (they
    named Rm, wherever it was), at a place legal now."""
    code, out, _ = play(monkeypatch, ["folio", "-v", "freeform", "--vs", "level1", "--seed",
                                      "2"], ["0,0 Rm", "help", "quit"])
    assert code == 0
    lines = out.splitlines()
    prompts = [i for i, line in enumerate(lines) if "to move: place the" in line]
    assert len(prompts) == 2
    for i in prompts:
        example = lines[i].split("e.g. ")[1].rstrip(")").split(")")[0].split()
        supply = next(line for line in reversed(lines[:i]) if line.startswith("Pieces left"))
        left = {w.split("×")[0] for w in supply.split(": ")[1].split()}
        assert example[1] in left, (example, supply)
    assert "Rm" not in lines[prompts[1]]
    helped = out.split("piece you give, e.g. ")[1].split()[:2]
    assert helped == lines[prompts[1]].split("(e.g. ")[1].split(")")[0].split()


def test_assist_switches_the_freeform_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    script: list[Line] = ["assist maybe", "assist on", "assist off", "quit"]
    code, out, _ = play(monkeypatch, ["folio", "-v", "freeform", "--seed", "1"], script)
    assert code == 0
    assert after(out, "assist maybe") == "Write 'assist on' or 'assist off'."
    assert after(out, "assist on") == "Assist on."
    assert after(out, "assist off") == "Assist off."


def test_a_seat_has_one_name_as_on_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot is called by its level ("Bot level 1"), with the side where the rules name
    it ("Bot level 1 (Green)"), never "Player 2 (level1)"."""
    code, out, _ = play(monkeypatch, ["icedao", "--vs", "level1", "--seed", "2"], ["quit"])
    assert code == 0
    assert "Blue (you) vs Bot level 1 (Green)" in out
    assert "(level1)" not in out
    code, out, _ = play(monkeypatch, ["folio", "--vs", "random", "--seed", "2"], ["quit"])
    assert "Player 1 (you) vs Bot random" in out
    assert "(random)" not in out


def test_quatrefoil_stack_asks_a_second_time() -> None:
    """Stack ends the game for all four players: the terminal says so and asks again, as
    the page's Stack button does; only the second word stacks."""
    from fourfold.cli.play.setup import PlayRequest, build_session
    from fourfold.table import ManualClock
    from support.playscript import ScriptedConsole

    clock = ManualClock(1000.0)
    console = ScriptedConsole(clock, [(0.0, "stack"), (0.1, "no"), (0.2, "board"),
                                      (0.3, "stack"), (0.4, "stack")])
    session = build_session(PlayRequest(game="quatrefoil", variant="base", seed=4, seat=1,
                                        time=clock, inline_bots=True), console)
    assert session.rules.runner is not None
    assert session.rules.runner(session) == 0
    text = console.out.getvalue()
    first, _, rest = text.partition("Not stacked: play on.")
    assert "Stack ends the game for all four players, solved or not. Type stack again" in first
    assert "Game over" not in first and "Game over" in rest
    assert session.match.outcome is not None
    assert session.match.notation[-1] == "stack"
    assert session.match.notation.count("stack") == 1
