"""A hint's words in the table page, in a real Chromium against a real ``fourfold serve``
on loopback: a distance is in plies, as ``fourfold play``'s ``hint`` says it (the page
said "You: win in 11 with best play" at Ice Dao's start, which reads as 11 of one's own
moves: it is 11 plies, 6 of hers), and a move the solver proved nothing of is "not
proven either way" (the page said "unknown")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.browser_app import AppServer, Pages


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(tmp_path_factory.mktemp("browser-hint-words")).start()
    try:
        yield app
    finally:
        app.stop()


def test_a_hint_gives_its_distances_in_plies(server: AppServer, pages: Pages) -> None:
    made = server.create("icedao", ["human", "bot:level1"])
    page: Any = pages.open(server.url + made["seats"][0]["url"])
    page.wait_for_selector("#turn.mine")
    page.click("#hint-btn")
    # the start's value comes from the stored proof certificates: no search to wait for
    page.wait_for_selector("#hint h2", timeout=120_000)
    words = page.inner_text("#hint")
    assert "You: win in 11 plies with best play." in words, words
    moves = page.eval_on_selector_all("#hint li", "els => els.map((e) => e.textContent)")
    assert "b5-a4 win in 11 plies" in moves, moves
    assert "a1-a4 not proven either way" in moves, moves
    assert not any(m.endswith("unknown") for m in moves), moves
