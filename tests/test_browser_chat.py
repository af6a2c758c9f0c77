"""Table chat in real Chromium (issue 31): two people in two browser contexts talk at a
Dao table; a line shows as text (markup is never run); mute hides the chat and is
remembered; a Quatrefoil page says why it has no chat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.browser_app import TIMEOUT, AppServer, Watched, wait_live

MARKUP = "<img src=x onerror=\"document.body.dataset.hacked=1\"> gl & hf"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(tmp_path_factory.mktemp("browser-chat")).start()
    try:
        yield app
    finally:
        app.stop()


@pytest.fixture
def contexts(browser: Any) -> Iterator[list[Any]]:
    opened = [browser.new_context(viewport={"width": 1280, "height": 860}) for _ in range(2)]
    yield opened
    for context in opened:
        context.close()


def open_seat(context: Any, server: AppServer, made: dict[str, Any], seat: int) -> Watched:
    watched = Watched(context)
    watched.page.set_default_timeout(TIMEOUT)
    watched.page.goto(server.url + made["seats"][seat]["url"])
    watched.page.wait_for_selector("#board svg")
    return watched


def test_two_people_chat_across_two_browsers(server: AppServer, contexts: list[Any]) -> None:
    made = server.create("dao", ["human", "human"], seed=4)
    one, two = (open_seat(c, server, made, s) for c, s in zip(contexts, (0, 1), strict=True))
    for w in (one, two):
        w.page.wait_for_selector("#chat-form")
        # chat goes over the socket only: a line sent before the sender's socket is
        # welcomed is refused ("Not sent"), and one said before the reader's socket is
        # subscribed (after its page read the chat so far) never reaches it
        wait_live(w.page)
    one.page.fill("#chat-input", MARKUP)
    one.page.click("#chat-send")
    for w in (one, two):
        w.page.wait_for_selector("#chat-lines li.chat-line")
        assert w.page.locator("#chat-lines .chat-text").last.text_content() == MARKUP
        assert w.page.locator("#chat-lines img").count() == 0
        assert w.page.evaluate("() => document.body.dataset.hacked") is None
    assert one.page.input_value("#chat-input") == ""
    two.page.fill("#chat-input", "thanks!")
    two.page.press("#chat-input", "Enter")
    one.page.wait_for_function(
        "() => [...document.querySelectorAll('#chat-lines .chat-text')]"
        ".some((e) => e.textContent === 'thanks!')")
    scroll = one.page.evaluate("() => window.scrollY")
    two.page.click("#chat-mute")  # muted: the lines are hidden, and it is remembered
    assert two.page.locator("#chat-lines").is_hidden()
    assert two.page.get_attribute("#chat-mute", "aria-pressed") == "true"
    two.page.reload()
    two.page.wait_for_selector("#chat-mute[aria-pressed=true]")
    assert two.page.locator("#chat-lines").is_hidden()
    two.page.click("#chat-mute")
    two.page.wait_for_selector("#chat-lines li.chat-line")
    assert one.page.evaluate("() => window.scrollY") == scroll  # a line never scrolls the page
    for w in (one, two):
        w.clean()


def test_quatrefoil_says_it_has_no_chat(server: AppServer, contexts: list[Any]) -> None:
    made = server.create("quatrefoil", ["human", "bot:level1", "bot:level1", "bot:level1"],
                         variant="base", seed=3)
    page = open_seat(contexts[0], server, made, 0)
    page.page.wait_for_selector("#chat-off")
    text = page.page.text_content("#chat-off") or ""
    assert text.startswith("No chat: Quatrefoil has no table chat") and "show" in text
    assert page.page.locator("#chat-input").count() == 0
    page.clean()
