"""A game added from outside, through the public plugin API only: noughts and crosses,
defined entirely in ``tests/plugin_game/`` (rules, rules text, presenter, drawer,
observation encoder and solver, each found there by its module's name), with no edit
anywhere in ``fourfold``.

In this process it is registered with ``fourfold.register`` for this module only; the
server finds it as a user's would, from ``FOURFOLD_GAMES`` (and ``PYTHONPATH``). It
passes the conformance suite, pickles, renders as text and SVG, answers ``fourfold
solve``, gets a PettingZoo env that passes PettingZoo's own ``api_test``, plays over the
API, and plays in Chromium.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import fourfold
import plugin_game
from fourfold.cli.main import main
from fourfold.core import registry
from fourfold.core.extensions import discover, extensions_of
from fourfold.render import presenter_for
from fourfold.render.svg import svg_for_state
from support.conformance import (
    check_move_after_the_end,
    check_parsers_on_junk,
    check_random_games,
)
from support.server import Api, Server

HERE = Path(__file__).parent
NAME = plugin_game.SPEC.name


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    fourfold.register(plugin_game.SPEC)
    try:
        yield
    finally:
        registry.unregister(NAME)


def game() -> Any:
    return fourfold.load(NAME)


def test_it_is_listed_and_its_parts_are_found_in_its_folder() -> None:
    """The spec names no part: each is found by convention in the plugin's own folder."""
    assert NAME in fourfold.game_names()
    bundle = extensions_of(game())
    assert bundle == discover("plugin_game")
    assert {p: getattr(bundle, p) for p in bundle.names()} == {
        "presenter": "plugin_game.text:PRESENTER",
        "drawer": "plugin_game.svg:DRAWER",
        "observation": "plugin_game.observe:OBSERVATION",
        "solver": "plugin_game.solver_hooks:SOLVERS",
    }


def test_conformance_random_games() -> None:
    check_random_games(game(), 30)


@given(text=st.text(max_size=20))
def test_parsers_never_crash_on_junk(text: str) -> None:
    check_parsers_on_junk(game(), text)


def test_move_after_the_end_is_refused() -> None:
    check_move_after_the_end(game())


def test_game_and_states_pickle() -> None:
    g = game()
    state = g.play(g.play(g.initial_state(), "b2"), "a1")
    assert pickle.loads(pickle.dumps(g)) is g
    assert pickle.loads(pickle.dumps(state)) == state


def test_text_and_svg_come_from_its_own_folder(capsys: pytest.CaptureFixture[str]) -> None:
    g = game()
    state = g.play(g.play(g.initial_state(), "b2"), "a1")
    text = presenter_for(g).draw(g, state, g.parse_move(state, "a1"))
    assert "[O]" in text and " X " in text
    svg = svg_for_state(g, state, g.parse_move(state, "a1"))
    root = ET.fromstring(svg)
    cells = [e.get("data-cell") for e in root.iter() if e.get("data-cell")]
    assert sorted(cells) == sorted(f"{f}{r}" for f in "abc" for r in "123")
    assert main(["rules", NAME]) == 0
    assert "three of one's own marks" in capsys.readouterr().out.lower()


def test_fourfold_solve_uses_its_own_solver(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", NAME, "--json"]) == 0
    start = json.loads(capsys.readouterr().out)
    assert (start["value"], start["distance"], start["exact"]) == ("draw", 9, True)
    # X (a3, b3) to move wins at once on c3; every other move lets O win on c2 or draws
    assert main(["solve", NAME, "--setup", "XX./OO./... X", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert (found["value"], found["distance"]) == ("win", 1)
    assert found["moves"][0] == {"move": "c3", "value": "win", "distance": 1}
    assert sum(m["value"] == "win" for m in found["moves"]) == 1


def test_pettingzoo_api_test_passes() -> None:
    from pettingzoo.test import api_test

    from fourfold.envs.aec import aec_env

    api_test(aec_env(NAME), num_cycles=100)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``fourfold serve`` as a user would start it with a game from outside."""
    paths = [str(HERE), *filter(None, [os.environ.get("PYTHONPATH")])]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", os.pathsep.join(paths))
        patch.setenv(registry.GAMES_VARIABLE, "plugin_game")
        running = Server(tmp_path_factory.mktemp("plugin-server")).start()
    try:
        yield running
    finally:
        running.stop()


def test_it_plays_over_the_api_against_a_bot(server: Server) -> None:
    api = server.client()
    games = api.http.get("/api/games").json()
    listed = games if isinstance(games, list) else games["games"]
    assert any(g["title"] == "Noughts and crosses" for g in listed)
    made = api.create(game=NAME, seats=["human", "bot:random"])
    table, token = made["id"], made["seats"][0]["token"]
    rng = random.Random(3)
    state = api.state(table, token)
    while state["outcome"] is None:
        if state["to_act"] == [0]:
            r = api.move(table, token, rng.choice(state["legal"]), state["version"])
            assert r.status_code == 200, r.text
        version = state["version"]
        state = api.wait(table, token, lambda s, v=version: s["version"] > v  # type: ignore[misc]
                         or s["outcome"] is not None)
    record = api.http.get(f"/api/tables/{table}/record").text
    assert f'[Game "{NAME}"]' in record


def test_it_plays_in_chromium(server: Server, browser: Any) -> None:
    api = Api(server.client().http)
    made = api.create(game=NAME, seats=["human", "human"])
    table = made["id"]
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        pages = [context.new_page() for _ in range(2)]
        for page, seat in zip(pages, made["seats"], strict=True):
            page.goto(server.url + seat["url"])
        # X takes the left column, O the middle one: X wins on its third mark
        for n, move in enumerate(["a1", "b1", "a2", "b2", "a3"]):
            page = pages[n % 2]
            button = page.locator(f'#controls button[data-move="{move}"]')
            button.wait_for(timeout=15_000)
            button.click()
            api.wait(table, None, lambda s, n=n: s["version"] > n)  # type: ignore[misc]
        for page in pages:
            page.wait_for_function(
                "document.body.innerText.includes('X wins')", timeout=15_000)
        final = api.state(table)
        assert final["outcome"]["winner"] == 0
    finally:
        context.close()
