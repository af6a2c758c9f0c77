"""Game commands of the terminal player, from the ``terminal`` part of each game's bundle:
Ice Dao and Dao's ``draw`` (and ``resign``), freeform's ``assist``. (They used to be the
presenters' ``extra_commands``; presenters are now pure text.)"""

from __future__ import annotations

import pytest

import fourfold
from fourfold.cli.play.rules import rules_for
from fourfold.core.record import parse_record
from support.terminal import Line, after, play


def test_the_bundle_gives_each_game_its_commands() -> None:
    assert [c.name for c in rules_for(fourfold.load("icedao")).commands] == ["draw", "resign"]
    assert [c.name for c in rules_for(fourfold.load("dao")).commands] == ["draw", "resign"]
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
    code, out, _ = play(monkeypatch, ["icedao", "--save", str(save)], ["resign"])
    assert code == 0
    assert "Game over. Green (random) wins: Blue (you) resigned" in out \
        or "wins: Blue resigned" in out
    assert parse_record(save.read_text()).result == "0-1"


def test_assist_switches_the_freeform_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    script: list[Line] = ["assist maybe", "assist on", "assist off", "quit"]
    code, out, _ = play(monkeypatch, ["folio", "-v", "freeform", "--seed", "1"], script)
    assert code == 0
    assert after(out, "assist maybe") == "Write 'assist on' or 'assist off'."
    assert after(out, "assist on") == "Assist on."
    assert after(out, "assist off") == "Assist off."
