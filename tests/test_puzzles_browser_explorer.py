"""The explorer of solved games against a real ``fourfold serve`` on loopback (issue 32):
the games it answers, every legal move of a position with the value and distance
``fourfold explore`` gives, one-line refusals; and the page in a real Chromium at
desktop and phone width (moves coloured by value and said in words), axe clean."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from support.browser_app import PHONE, TIMEOUT, Watched, shots_folder
from support.server import Api, Server, running

DESKTOP_860 = {"width": 1280, "height": 860}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("explorer")) as started:
        yield started


@pytest.fixture
def api(server: Server) -> Iterator[Api]:
    client = server.client()
    yield client
    client.http.close()


def test_the_explorer_api(api: Api) -> None:
    from fourfold.core.registry import load
    from fourfold.solve.explore import explore

    games = {g["game"]: g for g in api.http.get("/api/explore").json()["games"]}
    assert {"dao", "quarto", "folio"} <= set(games)
    assert "quatrefoil" not in games and "folio" in games
    r = api.http.get("/api/explore/dao", timeout=120)
    assert r.status_code == 200, r.text
    body = r.json()
    game = load("dao")
    want = explore(game, game.initial_state(0), 10).to_json()
    assert body["value"] == want["value"] and body["to_move"] == want["to_move"]
    assert [(m["move"], m["value"], m["distance"]) for m in body["moves"]] == [
        (m["move"], m["value"], m["distance"]) for m in want["moves"]]
    step = body["moves"][0]
    r = api.http.get("/api/explore/dao", params={"position": step["after"]})
    assert r.status_code == 200 and r.json()["position"] == step["after"]
    for path, params, status, words in (
            ("/api/explore/quatrefoil", {}, 404, "no game"),
            ("/api/explore/dao", {"variant": "nosuch"}, 422, "not 'nosuch'"),
            ("/api/explore/dao", {"position": "garbage"}, 422, "position 'garbage'")):
        r = api.http.get(path, params=params)
        assert r.status_code == status and words in r.json()["error"], r.text
        assert "\n" not in r.json()["error"]


def serious(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['nodes'][0]['target']}" for v in found
            if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_explorer_page(server: Server, browser: Any, size: str,
                           tmp_path_factory: pytest.TempPathFactory) -> None:
    shots = shots_folder(tmp_path_factory)
    context = browser.new_context(viewport=DESKTOP_860 if size == "desktop" else PHONE)
    context.set_default_timeout(TIMEOUT * 4)
    watched = Watched(context)
    page = watched.page
    try:
        page.goto(server.url + "/")
        page.get_by_role("link", name="Puzzles").click()
        page.get_by_role("link", name="The explorer of solved games").click()
        page.get_by_role("link", name=re.compile(r"^Dao \(standard\)$")).click()
        page.locator("#explore-moves .explore-move").first.wait_for()
        values = page.locator("#explore-moves .explore-move").evaluate_all(
            "els => els.map(e => e.dataset.value)")
        assert values and set(values) <= {"win", "draw", "loss"}
        first = page.locator("#explore-moves a.explore-move").first
        move = first.get_attribute("data-move")
        before = page.locator("#explore-where").inner_text()
        first.click()
        page.wait_for_function(
            f"document.querySelector('#explore-where') && "
            f"document.querySelector('#explore-where').textContent !== {before!r}")
        page.locator("#explore-moves .explore-move").first.wait_for()
        assert move and "position=" in page.url
        page.screenshot(path=str(shots / f"explore-{size}.png"), full_page=True)
        assert serious(page) == []
        watched.clean()
    finally:
        context.close()
