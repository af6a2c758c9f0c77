"""Clocks as a player needs them (issue 31): large, beside the board with the turn (under
it on a phone) so they are in sight without scrolling, the running one marked, and
warning when time runs low: the clock turns red and a screen reader is told once. In a
real Chromium against a real ``fourfold serve``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.browser_app import PHONE, AppServer, Pages, box

LAPTOP = {"width": 1280, "height": 860}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(tmp_path_factory.mktemp("browser-clocks")).start()
    try:
        yield app
    finally:
        app.stop()


def in_sight(page: Any, selector: str, viewport: dict[str, int]) -> None:
    where = box(page, selector)
    assert where["y"] >= 0 and where["y"] + where["height"] <= viewport["height"], (selector, where)
    assert page.evaluate("scrollY") == 0


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_clocks_are_large_in_sight_and_warn_when_time_runs_low(
        server: AppServer, pages: Pages, viewport: dict[str, int]) -> None:
    made = server.create("dao", ["human", "bot:level1"], clock={"base": 22, "increment": 0})
    page = pages.open(server.url + made["seats"][0]["url"], viewport, phone=viewport is PHONE)
    page.wait_for_selector('#board.acting g.square[role="button"]')
    for seat in (0, 1):
        in_sight(page, f'#clocks [data-clock="{seat}"]', viewport)
        size = page.eval_on_selector(f'[data-clock="{seat}"]',
                                     "e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= 24, size
    assert "you" in page.inner_text("#clocks .clock-row.acting")
    assert page.locator('[data-clock="1"].low').count() == 0
    # 22 s on the clock: under 20 s it turns red, and a screen reader hears it once
    page.wait_for_selector('[data-clock="0"].low', timeout=10_000)
    page.wait_for_function("() => /You have 20 seconds left/.test("
                           "document.querySelector('#announce').textContent)")
    assert page.locator('[data-clock="1"].low').count() == 0  # the bot's did not run


def test_a_shared_timer_is_in_sight_beside_the_board(server: AppServer, pages: Pages) -> None:
    made = server.create("quatrefoil", ["human", "bot:level1", "bot:level1", "bot:level1"],
                         variant="race-the-clock")
    page = pages.open(server.url + made["seats"][0]["url"], LAPTOP)
    page.wait_for_selector('#clocks [data-clock="shared"]')
    in_sight(page, '#clocks [data-clock="shared"]', LAPTOP)
    assert "Shared timer" in page.inner_text("#clocks")
