"""The shared replay in real Chromium: a follower's socket is routed through Playwright,
which can hold its hello (the page has read the replay, but the server does not send it
the table's steps yet) or drop it. A step taken meanwhile still reaches the follower once
it is welcomed; after a drop the page says so, is no longer marked live, reconnects and
catches up, and then follows live again."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.browser_app import TIMEOUT, AppServer, HeldHellos, Watched


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(tmp_path_factory.mktemp("browser-replay-shared")).start()
    try:
        yield app
    finally:
        app.stop()


def post(server: AppServer, path: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(server.url + path, json=body, headers={"Authorization": f"Bearer {token}"},
                   timeout=30)
    assert r.status_code == 200, (path, r.status_code, r.text)
    data: dict[str, Any] = r.json()
    return data


def finished_game(server: AppServer) -> tuple[str, list[str]]:
    """A Dao game between two people: three moves, then seat 1 resigns."""
    made = server.create("dao", ["human", "human"], seed=4)
    table, tokens = made["id"], [s["token"] for s in made["seats"]]
    for n in range(3):
        state = server.state(table, tokens[n % 2])
        post(server, f"/api/tables/{table}/moves", tokens[n % 2],
             {"move": state["legal"][0], "version": state["version"]})
    post(server, f"/api/tables/{table}/resign", tokens[0],
         {"version": server.state(table)["version"]})
    assert server.state(table)["outcome"] is not None
    return table, tokens


def test_a_follower_catches_up_after_its_socket_was_late_or_dropped(
        server: AppServer, browser: Any) -> None:
    table, tokens = finished_game(server)
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    hellos = HeldHellos()

    try:
        watched = Watched(context)
        page = watched.page
        page.set_default_timeout(TIMEOUT)

        def release() -> None:
            hellos.release(page, TIMEOUT / 1000)

        def at(ply: int) -> None:
            page.wait_for_function(
                "(n) => document.querySelector('#replay-slider').value === String(n)",
                arg=ply)

        def step(ply: int) -> None:  # seat 1 leads the shared replay
            post(server, f"/api/tables/{table}/replay", tokens[0], {"ply": ply})

        page.route_web_socket("**/live", hellos.route)
        page.goto(f"{server.url}/replay/{table}#seat={tokens[1]}")
        page.wait_for_selector("#follow")
        at(3)  # the last position (three moves): no one has stepped yet
        step(1)  # read the replay, not yet subscribed: the step's message never comes
        release()
        page.wait_for_selector('#shared[data-live="1"]')
        at(1)

        hellos.routes[-1].close()  # the connection drops; the next hello is held again
        page.wait_for_selector("#shared:not([data-live])")
        page.wait_for_selector("#shared-connection", state="visible")
        assert "reconnecting" in page.inner_text("#shared-connection")
        step(2)
        release()
        page.wait_for_selector('#shared[data-live="1"]')
        page.wait_for_selector("#shared-connection", state="hidden")
        at(2)
        assert len(hellos.routes) == 2
        step(0)  # and live again
        at(0)
        watched.clean()
    finally:
        context.close()
