"""The render and wire layers reach a game's presenter, drawer and codec only through its
extension bundle, with the documented fallbacks and clear errors, and name no game."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import fourfold
from fourfold.core.errors import ConfigurationError
from fourfold.core.extensions import Extensions
from fourfold.core.game import Game
from fourfold.core.registry import game_names, get_spec
from fourfold.render import Presenter, presenter_for
from fourfold.render.svg import draw_svg, drawer_for
from fourfold.wire import view_from_json, view_to_json
from fourfold.wire.choices import choices_json
from fourfold.wire.codec import GENERIC, BoardCodec, codec_of

SRC = Path(__file__).resolve().parent.parent / "src" / "fourfold"
PLACEMENT_PRESENTER = "fourfold.games.quarto.text:PRESENTER"
PLACEMENT_DRAWER = "fourfold.games.quarto.svg:DRAWER"
PLACEMENT_CODEC = "fourfold.games.placement.wire:CODEC"


def bare(**parts: str) -> Game[Any, Any]:
    """Quarto's rules under another name, with a bundle naming only ``parts`` (the way a
    plugin game would name them; no folder to find others in), configured without
    registering it."""
    spec = replace(get_spec("quarto"), name="bare-quarto", package=None, shares=(),
                   extensions=Extensions(**parts))
    return spec.factory(spec.resolve(None, {}))


def test_a_game_without_a_presenter_gets_the_generic_one() -> None:
    game = bare()
    presenter = presenter_for(game)
    assert type(presenter) is Presenter
    state = game.initial_state()
    assert f"Position: {game.format_position(state)}" in presenter.draw(game, state, None)


def test_a_named_presenter_is_used() -> None:
    game = bare(presenter=PLACEMENT_PRESENTER)
    assert presenter_for(game) is presenter_for(fourfold.load("quarto"))
    assert "In hand" in presenter_for(game).draw(game, game.initial_state(), None)


def test_a_part_of_the_wrong_kind_is_refused_by_name() -> None:
    with pytest.raises(ConfigurationError, match=r"presenter part of .*wire:CODEC.* not a"
                       r" fourfold\.render\.presenter\.Presenter"):
        presenter_for(bare(presenter=PLACEMENT_CODEC))
    with pytest.raises(ConfigurationError, match=r"drawer of .*wire:CODEC.* not a function"):
        drawer_for(bare(drawer=PLACEMENT_CODEC))
    with pytest.raises(ConfigurationError, match=r"codec part of .*text:PRESENTER.* not a"
                       r" fourfold\.wire\.codec\.BoardCodec"):
        codec_of(bare(codec=PLACEMENT_PRESENTER))
    with pytest.raises(ConfigurationError, match=r"cannot import 'fourfold\.no_such_module'"):
        presenter_for(bare(presenter="fourfold.no_such_module:PRESENTER"))


def test_a_game_without_a_drawer_has_no_picture() -> None:
    game = bare()
    with pytest.raises(LookupError, match=r"no SVG drawer for bare-quarto.*names no drawer"):
        draw_svg(game, game.view(game.initial_state(), None))


def test_the_command_line_says_in_one_line_that_a_game_has_no_picture(
        tmp_path: Path) -> None:
    (tmp_path / "bare_game.py").write_text(
        "from dataclasses import replace\n"
        "from fourfold.core.extensions import Extensions\n"
        "from fourfold.core.registry import get_spec\n"
        "SPEC = replace(get_spec('quarto'), name='bare-quarto', aliases=(), package=None,"
        " shares=(), extensions=Extensions())\n")
    env = {**os.environ, "FOURFOLD_GAMES": "bare_game",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "fourfold.cli.main", "render", "bare-quarto"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "no SVG drawer for bare-quarto" in lines[0], done.stderr


def test_a_named_drawer_draws() -> None:
    game = bare(drawer=PLACEMENT_DRAWER)
    svg = draw_svg(game, game.view(game.initial_state(), None))
    assert svg.startswith("<svg") and "game-placement" in svg


def test_a_game_without_a_codec_sends_an_empty_board_and_plain_choices() -> None:
    game = bare()
    assert codec_of(game) is GENERIC
    state = game.apply(game.initial_state(), game.legal_moves(game.initial_state())[0])
    view = game.view(state, 0)
    data = view_to_json(game, view)
    assert data["board"] == {}
    assert data["position"] == game.format_position(state)
    assert view_from_json(game, data).observation == view.observation
    choices = choices_json(game, view)
    assert [set(c) for c in choices] == [{"move", "action"}] * len(choices)
    assert [c["move"] for c in choices] == data["legal_moves"]


def test_a_named_codec_sends_its_board_and_parts() -> None:
    game = bare(codec=PLACEMENT_CODEC)
    view = game.view(game.initial_state(), 1)
    assert isinstance(codec_of(game), BoardCodec)
    assert view_to_json(game, view)["board"] == view_to_json(
        fourfold.load("quarto"), view)["board"]
    assert {"cell", "give"} <= set(choices_json(game, view)[0])


PLUGIN_PARTS = """
from fourfold.render import Presenter
from fourfold.render.svg.canvas import Canvas
from fourfold.wire.codec import BoardCodec


class CountingPresenter(Presenter):
    def draw(self, game, state, last_move, *, colour=False, viewer=None):
        return f"{len(game.legal_moves(state))} moves to choose from"


def draw(game, view, *, last_move, outcome, size):
    canvas = Canvas(100, 100, game.view_position(view), size=size, kind="outside")
    return canvas.to_string()


PRESENTER = CountingPresenter()
CODEC = BoardCodec(lambda game, observation: {"free": len(observation.supply)})
"""


def test_parts_from_outside_the_tree_are_used(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "outside_parts.py").write_text(PLUGIN_PARTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    game = bare(presenter="outside_parts:PRESENTER", drawer="outside_parts:draw",
                codec="outside_parts:CODEC")
    state = game.initial_state()
    assert presenter_for(game).draw(game, state, None) == "16 moves to choose from"
    assert "game-outside" in draw_svg(game, game.view(state, None))
    assert view_to_json(game, game.view(state, 0))["board"] == {"free": 16}


def test_a_variant_names_its_own_parts() -> None:
    grid, freeform = fourfold.load("folio", "standard"), fourfold.load("folio", "freeform")
    assert type(presenter_for(grid)) is not type(presenter_for(freeform))
    assert drawer_for(grid) is not drawer_for(freeform)
    assert codec_of(grid) is not codec_of(freeform)
    assert codec_of(grid) is codec_of(fourfold.load("quarto"))


def test_the_generic_layers_name_no_game() -> None:
    names = set()
    for name in game_names():
        spec = get_spec(name)
        names |= {spec.name, *spec.aliases}
        names |= {v.name for v in spec.variants if v.name not in ("standard", "base")}
    alternatives = "|".join(map(re.escape, sorted(names)))
    quoted = re.compile(rf"""["']({alternatives})["']""")
    for layer in ("render", "wire"):
        for path in sorted((SRC / layer).rglob("*.py")):
            text = path.read_text()
            assert "fourfold.games" not in text, f"{path} imports a game"
            found = quoted.search(text)
            assert found is None, f"{path} names the game or variant {found and found[0]}"


def test_loading_the_games_imports_none_of_their_drawings_or_codecs() -> None:
    """A bundle names its parts lazily: rules load without their text, SVG or wire code,
    and a part's module is imported the first time a layer asks for it."""
    script = (
        "import sys, fourfold\n"
        "from fourfold.core.registry import game_names, get_spec, load\n"
        "for name in game_names():\n"
        "    spec = get_spec(name)\n"
        "    for v in spec.variants:\n"
        "        if not v.unavailable:\n"
        "            load(name, v.name)\n"
        "parts = [m for m in sys.modules if m.startswith('fourfold.games.')\n"
        "         and m.rsplit('.', 1)[1] in ('text', 'text_board', 'svg', 'wire')]\n"
        "print(sorted(parts))\n"
        "from fourfold.render import presenter_for\n"
        "presenter_for(load('dao'))\n"
        "print(sorted(m for m in sys.modules if m.startswith('fourfold.games.dao.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True)
    before, after = done.stdout.splitlines()
    assert before == "[]"
    assert "'fourfold.games.dao.text'" in after and "'fourfold.games.dao.svg'" not in after
