"""Table chat in real Chromium (issue 31): two people in two browser contexts talk at a
Dao table; a line shows as text (markup is never run); mute hides the chat and is
remembered; a Quatrefoil page says why it has no chat; a line said while a page's socket
is not subscribed (before its first welcome, or while it reconnects) still shows there,
once, and Send waits for the socket with a reason."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.browser_app import TIMEOUT, AppServer, HeldHellos, Watched, wait_live

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
        wait_live(w.page)  # Send waits for the socket (test_a_line_said_while_...)
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


def chat_texts(page: Any) -> list[str]:
    texts: list[str] = page.eval_on_selector_all(
        "#chat-lines .chat-text", "els => els.map((e) => e.textContent)")
    return texts


def shows(page: Any, text: str) -> None:
    page.wait_for_function(
        "(t) => [...document.querySelectorAll('#chat-lines .chat-text')]"
        ".some((e) => e.textContent === t)", arg=text)


def test_a_line_said_while_a_page_is_not_subscribed_still_shows_there_once(
        server: AppServer, contexts: list[Any]) -> None:
    """Seat 2's socket is routed through Playwright, which holds its hello: the page has
    read the chat, but the server does not send it lines yet. Seat 1 says a line then;
    once the hello goes on (the page is welcomed), the page reads the chat again and
    shows it. The same after a drop: a line said while the page reconnects shows once
    it is back, and no line shows twice. Meanwhile Send is greyed out with a reason."""
    made = server.create("dao", ["human", "human"], seed=4)
    one = open_seat(contexts[0], server, made, 0)
    wait_live(one.page)
    hellos = HeldHellos()

    def release() -> None:
        hellos.release(two.page, TIMEOUT / 1000)

    two = Watched(contexts[1])
    two.page.set_default_timeout(TIMEOUT)
    two.page.route_web_socket("**/live", hellos.route)
    two.page.goto(server.url + made["seats"][1]["url"])
    two.page.wait_for_selector("#chat-form")  # the chat so far is read
    assert two.page.get_attribute("#board", "data-live") is None
    assert two.page.is_disabled("#chat-send")
    assert "Send works once the page is live" in two.page.inner_text("#chat-wait")

    def say(page: Any, text: str) -> None:
        page.fill("#chat-input", text)
        page.click("#chat-send")
        shows(page, text)

    say(one.page, "said before you listened")
    release()
    wait_live(two.page)
    shows(two.page, "said before you listened")
    assert two.page.locator("#chat-wait").is_hidden()
    say(two.page, "now I hear you")
    shows(one.page, "now I hear you")

    hellos.routes[-1].close()  # the connection drops; the page's next hello is held again
    two.page.wait_for_selector("#board:not([data-live])")
    two.page.wait_for_selector("#chat-send[disabled]")
    assert "connection dropped" in two.page.inner_text("#chat-wait")
    say(one.page, "said while you were away")
    release()
    wait_live(two.page)
    shows(two.page, "said while you were away")
    expected = ["said before you listened", "now I hear you", "said while you were away"]
    assert chat_texts(two.page) == expected
    assert chat_texts(one.page) == expected
    assert two.page.is_enabled("#chat-send")
    for w in (one, two):
        w.clean()
