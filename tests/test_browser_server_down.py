"""A table page while its server is down, and after it is back, in a real Chromium
against a real ``fourfold serve`` on loopback, stopped and started again.

The page used to say "Moves still go through" while nothing answered, and a move made
then was answered "Could not load the table: the server is not answering" (the move's
own refusal overwritten by the reload that followed it), which leaves a person asking
whether the move was played. Now the line says the server is not answering, the move's
answer says it was not sent, and once the server is back the page is live again and the
move can be made.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.browser_app import DESKTOP, TIMEOUT, AppServer


@pytest.fixture
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(tmp_path_factory.mktemp("browser-down")).start()
    try:
        yield app
    finally:
        app.stop()


def test_a_move_while_the_server_is_down_says_it_was_not_sent(server: AppServer,
                                                              browser: Any) -> None:
    made = server.create("dao", ["human", "human"])
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(TIMEOUT)
    crashes: list[str] = []  # the page's own errors (failed requests are expected here)
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: crashes.append(str(e)))
        page.goto(server.url + made["seats"][0]["url"])
        page.wait_for_selector('#board[data-live="1"]')
        move = page.eval_on_selector_all("#legal-moves option", "els => els[0].value")

        server.stop()
        page.wait_for_selector("#connection", state="visible")
        page.fill("#move-input", move)
        page.press("#move-input", "Enter")
        page.wait_for_function("() => /not sent/.test(document.querySelector('#feedback')"
                               ".textContent)")
        feedback = page.inner_text("#feedback")
        assert feedback.startswith("Your move was not sent: the server is not answering"), \
            feedback
        assert page.inner_text("#connection") == "The server is not answering; reconnecting…"
        assert page.input_value("#move-input") == move  # kept, to be sent again

        server.start()  # the same port and data: the page reconnects by itself
        page.wait_for_selector('#board[data-live="1"]', timeout=60_000)
        page.wait_for_selector("#connection", state="hidden")
        page.press("#move-input", "Enter")
        page.wait_for_function("() => /^You played/.test(document.querySelector('#feedback')"
                               ".textContent)")
        assert server.state(made["id"])["version"] == 1
        assert "Moves still go through" in page.text_content("#connection")  # next drop
        assert not crashes, crashes
    finally:
        context.close()
