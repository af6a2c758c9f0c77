"""The daily deal page in a real Chromium against a real ``fourfold serve`` on loopback:
reached from the lobby, a table dealt today's deal from it, the leaderboard showing a
rank and no line during the day, and the line, the replay and the deal once the day is
over ("now" moved with ``--test-clock``, never by sleeping); on a phone the page never
scrolls sideways. No console errors, and axe-core finds nothing serious.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.browser_app import DESKTOP, PHONE, TIMEOUT, Watched, shots_folder
from support.server import Server, auth

NOON = 1_893_499_200.0            # 2030-01-01 12:00 UTC
NEXT_DAY = NOON + 12 * 3600 + 1   # 2030-01-02 00:00:01 UTC
DAY = "2030-01-01"


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page."""
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['nodes'][0]['target']}" for v in found
            if v["impact"] in ("serious", "critical")]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    folder = tmp_path_factory.mktemp("daily-browser")
    clock = folder / "now"
    clock.write_text(repr(NOON))
    server = Server(folder, extra=("--test-clock", str(clock))).start()
    try:
        yield server, clock
    finally:
        server.stop()


def test_the_daily_page(served: tuple[Server, Path], browser: Any,
                        tmp_path_factory: pytest.TempPathFactory) -> None:
    server, clock = served
    shots = shots_folder(tmp_path_factory)
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(TIMEOUT)
    watched = Watched(context)
    page = watched.page
    try:
        page.goto(server.url + "/")
        page.get_by_role("link", name="play it and race the other tables").click()
        page.wait_for_url(re.compile(r"/daily$"))
        page.get_by_role("heading", name=f"Daily deal · {DAY}").wait_for()
        panels = page.locator(".daily-deal")
        panels.nth(4).wait_for()
        assert [panels.nth(i).get_attribute("data-variant") for i in range(panels.count())] \
            == ["base", "nothing-to-hide", "half-and-half", "race-the-clock", "dual"]

        # a table of today's deal: you and three bots; the page takes you to your seat
        panel = page.locator("#daily-nothing-to-hide")
        assert panel.locator("#daily-nothing-to-hide-seat-1").input_value() == "bot"
        assert panel.locator("#daily-nothing-to-hide-seat-1-bot").input_value() == "quatrefoil"
        panel.get_by_role("button", name="Play today’s nothing-to-hide deal").click()
        page.wait_for_url(re.compile(r"/t/[A-Za-z0-9]+#seat="))
        table_id, token = re.findall(r"/t/([A-Za-z0-9]+)#seat=([A-Za-z0-9_-]+)", page.url)[0]
        page.locator("svg").first.wait_for()
        r = httpx.post(f"{server.url}/api/tables/{table_id}/moves", headers=auth(token),
                       json={"move": "stack", "version": 0}, timeout=30)
        assert r.status_code == 200, r.text

        # a spectator's page says why it shows nothing
        spectator = Watched(context)
        try:
            spectator.page.goto(f"{server.url}/t/{table_id}")
            spectator.page.get_by_text("shown only to its players").first.wait_for()
        finally:
            spectator.page.close()

        # during the day: the rank, and no line, no replay, no deal
        page.goto(server.url + "/daily")
        board = page.locator("#daily-nothing-to-hide-board")
        board.get_by_text("1 table, 0 playing, 1 finished, 0 solved.").wait_for()
        row = board.locator("tbody tr").first
        cells = row.locator("td").all_inner_texts()
        assert cells[:3] == ["1", "no", "1"] and re.fullmatch(r"\d+:\d\d", cells[3])
        assert cells[4].endswith("quatrefoil, quatrefoil, quatrefoil")
        assert board.locator("th").all_inner_texts() == [
            "Rank", "Solved", "Actions", "Time", "Players"]
        during = page.locator("main").inner_text()
        assert "The deal" not in during and "Replay" not in during
        assert not serious(page)
        page.screenshot(path=str(shots / "daily-desktop.png"), full_page=True)

        # the day is over: the results of the day show the line, the replay and the deal
        clock.write_text(repr(NEXT_DAY))
        page.goto(server.url + "/daily")
        page.get_by_role("heading", name="Daily deal · 2030-01-02").wait_for()
        page.locator("#daily-day").fill(DAY)
        board = page.locator("#daily-nothing-to-hide-board")
        board.get_by_role("heading", name=f"Results of {DAY}").wait_for()
        assert board.locator("td.line").first.inner_text() == "stack"
        deal = board.locator("p.deal code").inner_text()
        record = httpx.get(f"{server.url}/api/tables/{table_id}/record", timeout=30).text
        assert deal and deal.split()[0] in record and deal.split()[0] not in during
        assert page.locator("#daily-base").get_by_text("This day is over.").is_visible()
        assert not serious(page)
        page.screenshot(path=str(shots / "daily-results-desktop.png"), full_page=True)
        board.get_by_role("link", name="Replay of rank 1").click()
        page.wait_for_url(re.compile(rf"/replay/{table_id}$"))
        page.locator("svg").first.wait_for()
        page.set_viewport_size(PHONE)
        page.goto(server.url + "/daily")
        page.locator("#daily-dual").wait_for()
        assert not serious(page)
        # a seat's longest choice fits the phone: the page never scrolls sideways
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the daily page scrolls sideways ({width} px)"
        page.screenshot(path=str(shots / "daily-phone.png"), full_page=True)

        # no seat of yours (an open seat and bots): the page says where people sit down
        panel = page.locator("#daily-base")
        panel.locator("#daily-base-seat-0").select_option("open")
        panel.get_by_role("button", name="Play today’s base deal").click()
        panel.get_by_text("The table is made: its open seats wait in the").wait_for()
        assert panel.locator(".error").inner_text() == ""
        page.screenshot(path=str(shots / "daily-open-seat-phone.png"), full_page=True)
        watched.clean()
    finally:
        clock.write_text(repr(NOON))
        context.close()
