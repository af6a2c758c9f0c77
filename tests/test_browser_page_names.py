"""One name per seat everywhere (issue 31): what the table's events say (their ``text``,
which the page reads aloud for offers and seats, and the terminal and API show) names
each seat as the page's player list does: "Bot level 1 (seat 2)", never the internal
"level1"; a name of one long word (40 characters, the most a seat's name may have) breaks
rather than push a page sideways. In a real Chromium against a real ``fourfold
serve``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.browser_app import DESKTOP, PHONE, AppServer, Pages, wait_live
from support.wait import wait_until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(tmp_path_factory.mktemp("browser-names")).start()
    try:
        yield app
    finally:
        app.stop()


def listen(page: Any) -> list[dict[str, Any]]:
    """The events the page's socket receives, as they come."""
    events: list[dict[str, Any]] = []

    def frame(payload: Any) -> None:
        if isinstance(payload, str):
            message = json.loads(payload)
            if message.get("type") == "event":
                events.append(message)

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    return events


def test_event_texts_name_bots_as_the_page_does(server: AppServer, pages: Pages) -> None:
    made = server.create("quatrefoil", ["human", "bot:level1", "bot:level1", "bot:level1"],
                         variant="nothing-to-hide")
    context = pages.browser.new_context(viewport=DESKTOP)
    pages.contexts.append(context)
    page = context.new_page()
    events = listen(page)
    page.goto(server.url + made["seats"][0]["url"])
    page.wait_for_selector('#controls button[data-action="cw"]')
    # the bots answer at once: were the page's socket not yet subscribed, their moves
    # would reach it as one whole screen, not as the move events checked here
    wait_live(page)
    shown = page.eval_on_selector_all("#seats .seat .name", "els => els.map((e) => e.textContent)")
    assert shown == ["Player 1", "Bot level 1 (seat 2)", "Bot level 1 (seat 3)",
                     "Bot level 1 (seat 4)"]
    page.click('#controls button[data-action="cw"]')
    moved = wait_until(lambda: (page.wait_for_timeout(50), [
        e for e in events if e["kind"] == "move" and e["seat"] != 0])[1], 30,
        "a bot's move event")  # (Playwright hands the frames over while it is called)
    for event in moved:
        assert event["text"].startswith(f"{shown[event['seat']]} plays "), event["text"]
        assert "level1 plays" not in event["text"]
    # the page reads a bot's move aloud by the same name
    page.wait_for_function(
        "() => /Bot level 1 \\(seat [234]\\) played/.test(document.querySelector('#announce')"
        ".textContent)")
    # the REST state names the seats as before (the stored names do not change)
    seats = httpx.get(f"{server.url}/api/tables/{made['id']}", timeout=30).json()["seats"]
    assert [s["bot"] for s in seats] == [None, "level1", "level1", "level1"]


def test_a_bot_is_its_level_everywhere_whatever_its_stored_name(server: AppServer,
                                                                 pages: Pages) -> None:
    r = httpx.post(server.url + "/api/tables", json={
        "game": "dao", "seats": ["human", {"player": "bot:level1", "name": "Robin"}]},
        timeout=30)
    assert r.status_code == 201, r.text
    made = r.json()
    token = made["seats"][0]["token"]
    context = pages.browser.new_context(viewport=DESKTOP)
    pages.contexts.append(context)
    page = context.new_page()
    events = listen(page)
    page.goto(server.url + made["seats"][0]["url"])
    page.wait_for_selector("#board svg")
    names = page.eval_on_selector_all("#seats .seat .name", "els => els.map((e) => e.textContent)")
    assert names[1] == "Bot level 1"  # "Robin" goes in the record only
    wait_live(page)  # the bot's answer to the move below reaches the page as an event
    state = server.state(made["id"], token)
    r = httpx.post(f"{server.url}/api/tables/{made['id']}/moves", timeout=30,
                   json={"move": state["legal"][0], "version": state["version"]},
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    moved = wait_until(lambda: (page.wait_for_timeout(50), [
        e for e in events if e["kind"] == "move" and e["seat"] == 1])[1], 30,
        "the bot's move event")
    assert moved[0]["text"].startswith("Bot level 1 plays "), moved[0]["text"]
    page.wait_for_function("() => /Bot level 1 played/.test(document.querySelector('#announce')"
                           ".textContent)")


def test_a_long_name_never_pushes_a_page_sideways(server: AppServer, pages: Pages) -> None:
    """The lobby lists a table's names for everyone: before, one name of 40 unbroken
    characters made the lobby 663 px wide on a phone (1,423 px on a laptop), and the
    table's seats, its "You are" line and a game's outcome did the same."""
    long = [letter * 40 for letter in "QWMZ"]

    def create(body: dict[str, Any]) -> dict[str, Any]:
        r = httpx.post(server.url + "/api/tables", json=body, timeout=30)
        assert r.status_code == 201, r.text
        made: dict[str, Any] = r.json()
        return made

    listed = create({"game": "quatrefoil", "variant": "nothing-to-hide", "seats": [
        {"player": "human", "name": long[0]}, "open", "open", "open"]})
    for seat, name in ((1, long[1]), (2, long[2])):
        r = httpx.post(f"{server.url}/api/tables/{listed['id']}/join", timeout=30,
                       json={"seat": seat, "name": name})
        assert r.status_code == 201, r.text
    over = create({"game": "dao", "seats": [{"player": "human", "name": long[3]}, "bot:level1"]})
    token = over["seats"][0]["token"]
    r = httpx.post(f"{server.url}/api/tables/{over['id']}/resign", timeout=30,
                   json={"version": 0}, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    # each page once it shows the name that pushed it sideways
    shown = {"/": long[2], listed["seats"][0]["url"]: long[1],
             over["seats"][0]["url"]: f"Bot level 1 wins: {long[3]} resigned",
             f"/replay/{over['id']}": f"Bot level 1 wins: {long[3]} resigned"}
    for viewport, phone in ((PHONE, True), (DESKTOP, False)):
        for path, text in shown.items():
            page = pages.open(server.url + path, viewport, phone=phone)
            page.get_by_text(text).first.wait_for()
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{path} is {width} px wide at {viewport}"
