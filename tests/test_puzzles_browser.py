"""The puzzle page against a real ``fourfold serve`` on loopback (issue 32): tries checked
move by move without the line being sent ahead, hints, the solution, Glicko-2 ratings
per browser (only the first try rated), the daily puzzle; and the page in a real
Chromium at desktop and phone width, axe clean, no console errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.browser_app import PHONE, TIMEOUT, Watched, shots_folder
from support.server import Api, Server, running

DESKTOP_860 = {"width": 1280, "height": 860}
ALICE, BOB, CAROL = "a" * 32, "b" * 32, "c" * 32


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("puzzles")) as started:
        yield started


@pytest.fixture
def api(server: Server) -> Iterator[Api]:
    client = server.client()
    yield client
    client.http.close()


def _solution(puzzle_id: str) -> tuple[str, ...]:
    from fourfold.server.puzzles.catalog import catalog

    return catalog()[puzzle_id].solution


def _move(api: Api, pid: str, solver: str, step: int, move: str) -> dict[str, Any]:
    r = api.http.post(f"/api/puzzles/{pid}/move",
                      json={"solver": solver, "step": step, "move": move})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_puzzle_solved_and_missed_with_ratings(api: Api) -> None:
    r = api.http.get("/api/puzzles", params={"solver": ALICE})
    assert r.status_code == 200, r.text
    puzzle = r.json()
    pid = puzzle["id"]
    assert "solution" not in puzzle and puzzle["legal"] and puzzle["svg"].startswith("<svg")
    line = _solution(pid)
    step = 0
    answer: dict[str, Any] = {}
    while step < len(line):
        answer = _move(api, pid, ALICE, step, line[step])
        assert answer["right"]
        if step + 1 < len(line):
            assert answer["reply"] == line[step + 1]
        step = answer["step"]
    assert answer["done"] and answer["rated"]["you"]["rating"] > 1500
    assert answer["rated"]["puzzle"]["plays"] == 1
    start = puzzle["puzzle_rating"]["rating"]
    assert answer["rated"]["puzzle"]["rating"] < start
    # Bob misses first: rated a loss, and his later solve is not rated again
    wrong = next(m for m in puzzle["legal"] if m != line[0])
    missed = _move(api, pid, BOB, 0, wrong)
    assert not missed["right"] and missed["rated"]["you"]["rating"] < 1500
    assert missed["step"] == 0
    again = _move(api, pid, BOB, 0, line[0])
    assert again["right"] and again["rated"] is None
    # a hint is the start of the move, and a miss for the rating
    hint = api.http.post(f"/api/puzzles/{pid}/hint", json={"solver": CAROL, "step": 0}).json()
    assert line[0].startswith(hint["hint"].removesuffix("...")) and hint["rated"] is not None
    shown = api.http.post(f"/api/puzzles/{pid}/solution", json={"solver": CAROL, "step": 0})
    assert shown.json()["solution"] == list(line) and shown.json()["rated"] is None
    assert api.http.get("/api/puzzles/rating", params={"solver": CAROL}).json()["plays"] == 1
    # the next puzzle for Alice is one she has not tried
    assert api.http.get("/api/puzzles", params={"solver": ALICE}).json()["id"] != pid


def test_refusals_and_the_daily_puzzle(api: Api) -> None:
    daily = api.http.get("/api/puzzles/daily").json()
    assert api.http.get("/api/puzzles/daily").json()["id"] == daily["id"] and daily["day"]
    pid = daily["id"]
    r = api.http.get("/api/puzzles", params={"solver": "not-a-browser-id"})
    assert r.status_code == 422
    r = api.http.post(f"/api/puzzles/{pid}/move",
                      json={"solver": ALICE, "step": 1, "move": "x"})
    assert r.status_code == 422 and "step 1" in r.json()["error"]
    r = api.http.post(f"/api/puzzles/{pid}/move",
                      json={"solver": ALICE, "step": 0, "move": "no such move"})
    assert r.status_code == 422 and "not a legal move" in r.json()["error"]
    assert "\n" not in r.json()["error"]
    assert api.http.get("/api/puzzles/nosuch").status_code == 404


def serious(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['nodes'][0]['target']}" for v in found
            if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_daily_puzzle_page(server: Server, browser: Any, size: str,
                               tmp_path_factory: pytest.TempPathFactory) -> None:
    shots = shots_folder(tmp_path_factory)
    context = browser.new_context(viewport=DESKTOP_860 if size == "desktop" else PHONE)
    context.set_default_timeout(TIMEOUT)
    watched = Watched(context)
    page = watched.page
    try:
        page.goto(server.url + "/")
        page.get_by_role("link", name="Puzzles").click()
        page.locator("#puzzle-goal").get_by_text("to play").wait_for()
        page.get_by_role("link", name="The daily puzzle").click()
        page.get_by_role("heading", name="Daily puzzle").wait_for()
        pid = page.evaluate("fetch('/api/puzzles/daily').then(r => r.json()).then(d => d.id)")
        line = _solution(pid)
        feedback = page.locator("#puzzle-feedback")
        page.locator("#puzzle-hint").click()
        feedback.get_by_text("Hint: the move starts").wait_for()
        for k in range(0, len(line), 2):
            page.locator("#puzzle-move").select_option(line[k])
            page.locator("#puzzle-play").click()
            if k + 2 < len(line):
                feedback.get_by_text(f"The reply: {line[k + 1]}").wait_for()
        feedback.get_by_text("Solved").wait_for()
        page.get_by_text("Your rating:").wait_for()
        page.screenshot(path=str(shots / f"puzzle-{size}.png"), full_page=True)
        assert serious(page) == []
        solver = page.evaluate("localStorage.getItem('fourfold-solver')")
        assert len(solver) == 32
        watched.clean()
    finally:
        context.close()


def test_an_icedao_puzzle_with_its_theme_on_the_page(
        server: Server, browser: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The page's game list offers Ice Dao; its puzzle says its bound and its themes, is
    solved move by move, and a themed one (a pin) shows the theme in its title."""
    from fourfold.server.puzzles.catalog import catalog

    shots = shots_folder(tmp_path_factory)
    context = browser.new_context(viewport=DESKTOP_860)
    context.set_default_timeout(TIMEOUT)
    watched = Watched(context)
    page = watched.page
    try:
        page.goto(server.url + "/puzzles")
        page.locator("#puzzle-goal").get_by_text("to play").wait_for()
        page.locator("#puzzle-game option[value=icedao]").wait_for(state="attached")
        page.locator("#puzzle-game").select_option("icedao")
        page.locator("#puzzle-about").get_by_text("icedao (standard)").wait_for()
        about = page.locator("#puzzle-about").inner_text()
        assert "themes: " in about and "proven within" in about
        assert "within" in page.locator("#puzzle-goal").inner_text()
        pid = page.evaluate("fetch('/api/puzzles?game=icedao&solver=' +"
                            " localStorage.getItem('fourfold-solver'))"
                            ".then(r => r.json()).then(d => d.id)")
        line = _solution(pid)
        feedback = page.locator("#puzzle-feedback")
        for k in range(0, len(line), 2):
            page.locator("#puzzle-move").select_option(line[k])
            page.locator("#puzzle-play").click()
            if k + 2 < len(line):
                feedback.get_by_text(f"The reply: {line[k + 1]}").wait_for()
        feedback.get_by_text("Solved").wait_for()
        pinned = next(i for i, p in catalog().items() if p.game == "icedao" and "pin" in p.themes)
        page.goto(f"{server.url}/puzzles/{pinned}")
        page.get_by_role("heading", name="pin").wait_for()
        assert "win in" in page.get_by_role("heading").first.inner_text()
        page.screenshot(path=str(shots / "puzzle-icedao-pin.png"), full_page=True)
        assert serious(page) == []
        watched.clean()
    finally:
        context.close()
