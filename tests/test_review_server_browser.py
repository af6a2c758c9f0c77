"""The review on the replay page in a real Chromium against a real ``fourfold serve`` on
loopback (issue 32): the value chart, a mark on every move, the jump to the first
mistake and the best line stepped through on the board; at desktop and phone width,
no console errors, and axe-core finds nothing serious."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.browser_app import DESKTOP, PHONE, TIMEOUT, Watched, shots_folder
from support.server import Server, play_out
from support.wait import wait_until

#: the desktop size the issue's screenshots use
DESKTOP_860 = {**DESKTOP, "height": 860}


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page."""
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['nodes'][0]['target']}" for v in found
            if v["impact"] in ("serious", "critical")]


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[tuple[Server, str, dict[str, Any]]]:
    """A server and a finished, reviewed Dao game with a mistake in it."""
    server = Server(tmp_path_factory.mktemp("review-browser"),
                    extra=("--analysis-seconds", "0.3")).start()
    try:
        api = server.client()
        created = api.create(game="dao", seats=["human", "bot:level2"], seed=5)
        tid = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
        rng = random.Random(7)
        play_out(api, tid, tokens, lambda legal: rng.choice(sorted(legal)))

        def ready() -> httpx.Response | None:
            r = api.http.get(f"/api/tables/{tid}/review")
            return r if r.status_code == 200 else None

        review = wait_until(ready, 120, "the stored review", every=0.3).json()
        api.http.close()
        assert review["first_mistake"] is not None
        yield server, tid, review
    finally:
        server.stop()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_review_on_the_replay_page(reviewed: tuple[Server, str, dict[str, Any]],
                                       browser: Any, size: str,
                                       tmp_path_factory: pytest.TempPathFactory) -> None:
    server, tid, review = reviewed
    shots = shots_folder(tmp_path_factory)
    context = browser.new_context(viewport=DESKTOP_860 if size == "desktop" else PHONE)
    context.set_default_timeout(TIMEOUT)
    watched = Watched(context)
    page = watched.page
    try:
        page.goto(f"{server.url}/replay/{tid}")
        page.locator("#review-chart svg circle").first.wait_for()
        plies = review["plies"]
        # the moves and the review come in two answers, either first: the move list
        # carries the marks once both are in (its last move drawn, with the chart)
        page.locator("#replay-moves li").nth(len(plies)).wait_for(state="attached")
        assert page.locator("#review-chart svg circle").count() >= sum(
            1 for p in plies if p["before"]["value"] != "unknown")
        # every move of the list carries its label
        marks = page.locator("#replay-moves .value.mark")
        assert marks.count() == sum(1 for p in plies if p["label"])
        first = plies[review["first_mistake"] - 1]
        button = page.locator("#first-mistake")
        assert f"move {first['ply']}" in button.inner_text()
        button.click()
        page.wait_for_function(
            f"document.querySelector('#replay-slider').value === '{first['ply']}'")
        page.locator("#review-move").get_by_text(first["label"]).wait_for()
        # one name per seat, as on the table page: the bot is "Bot level 2", never the
        # record's "level2" or "Player 2"
        seats = httpx.get(f"{server.url}/api/tables/{tid}/replay", timeout=30).json()["seats"]
        seat = review["players"].index(first["player"])
        mover = "Bot level 2" if seat == 1 else seats[0]["name"]
        said = page.inner_text("#review-move") + " " + page.inner_text("#replay-status")
        assert f"by {mover}:" in said and "level2" not in said, said
        page.locator("#show-line").click()
        page.locator("#best-line").wait_for()
        page.get_by_text(re.compile(r"After 1 of \d+ moves of the best line")).wait_for()
        if len(first["line"]) > 1:
            page.locator("#line-next").click()
            page.get_by_text(re.compile(r"After 2 of \d+ moves")).wait_for()
        assert page.locator("#replay-board svg").count() == 1
        page.screenshot(path=str(shots / f"review-{size}.png"), full_page=True)
        assert serious(page) == []
        page.locator("#line-close").click()
        page.locator("#show-line").wait_for()
        watched.clean()
    finally:
        context.close()


@pytest.fixture(scope="module")
def estimated(tmp_path_factory: pytest.TempPathFactory
              ) -> Iterator[tuple[Server, str, dict[str, Any]]]:
    """A server and a finished Folio freeform game (no solver: every value an estimate),
    two bots' game whose review is asked for."""
    server = Server(tmp_path_factory.mktemp("review-estimated"),
                    extra=("--analysis-seconds", "0.3")).start()
    try:
        api = server.client()
        created = api.create(game="folio", variant="freeform",
                             seats=["bot:level3", "bot:level2"], seed=3)
        tid = created["id"]
        wait_until(lambda: api.state(tid)["outcome"] is not None, 300, "the bots' game end",
                   every=0.3)

        def ready() -> httpx.Response | None:
            r = api.http.get(f"/api/tables/{tid}/review")
            return r if r.status_code == 200 else None

        review = wait_until(ready, 300, "the stored review", every=0.5).json()
        api.http.close()
        yield server, tid, review
    finally:
        server.stop()


def test_estimated_values_look_like_estimates(
        estimated: tuple[Server, str, dict[str, Any]], browser: Any,
        tmp_path_factory: pytest.TempPathFactory) -> None:
    server, tid, review = estimated
    plies = review["plies"]
    assert plies and all(p["estimate"] and p["label"] for p in plies)
    context = browser.new_context(viewport=DESKTOP_860)
    context.set_default_timeout(TIMEOUT)
    watched = Watched(context)
    page = watched.page
    try:
        page.goto(f"{server.url}/replay/{tid}")
        page.locator("#review-chart svg circle").first.wait_for()
        page.locator("#replay-moves li").nth(len(plies)).wait_for(state="attached")  # (as above)
        assert "No solver answers this game" in page.locator("#review-status").inner_text()
        # every dot of the chart hollow, every mark of the move list said to be an estimate
        circles = page.locator("#review-chart svg circle")
        assert circles.count() == len(plies) + 1
        assert circles.evaluate_all("cs => cs.every(c => c.classList.contains('estimate')"
                                    " && getComputedStyle(c).fill === 'rgb(255, 255, 255)')")
        marks = page.locator("#replay-moves .value.mark")
        assert marks.count() == len(plies)
        assert marks.evaluate_all("ms => ms.every(m => m.classList.contains('estimate')"
                                  " && m.textContent.includes('(est.)')"
                                  " && getComputedStyle(m).fontStyle === 'italic')")
        if review["first_mistake"] is not None:
            assert "estimated" in page.locator("#first-mistake").inner_text()
        page.locator("#replay-moves button[data-ply='1']").click()
        page.locator("#review-move").get_by_text("(estimate)").wait_for()
        page.screenshot(path=str(shots_folder(tmp_path_factory) / "review-estimated.png"),
                        full_page=True)
        assert serious(page) == []
        watched.clean()
    finally:
        context.close()
