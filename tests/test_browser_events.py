"""The page's protocol: it draws from the events it is sent, and plays structured moves.

A page's socket (``"screen": true``) is sent each event with what the page draws: the
picture of the event's own view and the recipient's legal moves as choices; an API
bot's socket is sent the plain events. A move carries its action number with the
notation alongside, and the two must agree. In a real Chromium, a game played with
clicks makes no HTTP request at all once the page has loaded.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.browser_app import HeldHellos, wait_live
from support.server import Api, Live, Server, auth
from support.wait import wait_until

TIMEOUT = 15_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("page-events")).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def api(server: Server) -> Iterator[Api]:
    client = server.client()
    try:
        yield client
    finally:
        client.http.close()


def _screen(api: Api, table: str, token: str | None) -> dict[str, Any]:
    r = api.http.get(f"/api/tables/{table}/screen", headers=auth(token))
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _until_version(live: Live, version: int) -> dict[str, Any]:
    return live.until(lambda m: m.get("type") == "event" and m["version"] >= version)


@pytest.mark.parametrize(("game", "variant", "players"), [
    ("dao", "standard", 2), ("folio", "standard", 2), ("quatrefoil", "base", 4)])
def test_a_page_event_carries_the_screen_a_fetch_would_give(
        server: Server, api: Api, game: str, variant: str, players: int) -> None:
    made = api.create(game=game, variant=variant, seats=["human"] * players)
    table = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    page = Live(server, table, tokens[1], screen=True)
    plain = Live(server, table, tokens[1])
    try:
        for live in (page, plain):
            assert live.next()["type"] == "welcome"
            assert live.next()["kind"] == "start"
        for _ in range(2):
            state = api.state(table)
            mover = state["to_act"][0]
            mine = api.state(table, tokens[mover])
            assert api.move(table, tokens[mover], mine["legal"][0],
                            state["version"]).status_code == 200
            event = _until_version(page, state["version"] + 1)
            bare = _until_version(plain, state["version"] + 1)
            assert "screen" not in bare  # an API bot's socket: the plain event
            assert {k: v for k, v in event.items() if k != "screen"} == bare
            fetched = _screen(api, table, tokens[1])
            screen = event["screen"]
            assert fetched["state"]["version"] == event["version"]
            # the same picture (the last move marked alike) and the same choices
            assert screen["svg"] == fetched["svg"]
            assert screen["choices"] == fetched["choices"]
            assert [c["move"] for c in screen["choices"]] == event["view"]["legal_moves"]
            assert screen["controller"] == fetched["controller"]
            assert screen["hints"] is False  # people at every seat
            assert screen["table"]["seats"] == fetched["state"]["seats"]
            assert fetched["moves"][-1] == event["move"]
    finally:
        page.close()
        plain.close()


def test_a_move_is_its_action_with_the_notation_alongside(server: Server, api: Api) -> None:
    made = api.create(game="dao", seats=["human", "human"])
    table, token = made["id"], made["seats"][0]["token"]
    page = Live(server, table, token, screen=True)
    try:
        page.next()
        start = page.next()
        first, second = start["screen"]["choices"][:2]
        version = start["version"]

        def send(message: dict[str, Any]) -> dict[str, Any]:
            page.send(message)
            return page.until(lambda m: m.get("type") in ("ack", "refused"))

        wrong = send({"type": "move", "move": first["move"], "action": second["action"],
                      "version": version})
        assert wrong["type"] == "refused" and wrong["status"] == 400, wrong
        assert second["move"] in wrong["error"] and first["move"] in wrong["error"]
        beyond = send({"type": "move", "move": first["move"], "action": 10**6,
                       "version": version})
        assert beyond["status"] == 400 and "action 1000000" in beyond["error"], beyond
        bad = send({"type": "move", "move": first["move"], "action": "3", "version": version})
        assert bad["status"] == 400 and "action" in bad["error"], bad
        assert api.state(table)["version"] == version  # none of them counted
        ok = send({"type": "move", "move": first["move"], "action": first["action"],
                   "version": version})
        assert ok["type"] == "ack", ok
        assert api.state(table)["version"] == version + 1
    finally:
        page.close()


def test_hello_screen_must_be_a_boolean(server: Server, api: Api) -> None:
    made = api.create(game="dao", seats=["human", "human"])
    page = Live(server, made["id"], None)
    try:  # the hello was sent plainly; a second socket says "screen": "yes"
        assert page.next()["type"] == "welcome"
    finally:
        page.close()
    from websockets.sync.client import connect

    with connect(f"{server.ws_url}/api/tables/{made['id']}/live", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": None, "screen": "yes"}))
        answer = json.loads(ws.recv(timeout=10))
    assert answer["status"] == 400 and "screen" in answer["error"], answer


# -- in a real Chromium ----------------------------------------------------------------------

def _my_turn(page: Any) -> None:
    page.wait_for_selector("#turn.mine", timeout=TIMEOUT)


def _click_a_move(page: Any) -> int:
    """Play the first piece's first slide with two clicks on the controls; returns the
    version the move was made on."""
    version = int(page.get_attribute("#board", "data-version"))
    page.click("#controls button[data-origin]")
    page.click("#controls button[data-move]")
    return version


def test_a_game_in_chromium_makes_no_http_request_per_move(
        server: Server, browser: Any, tmp_path: Path) -> None:
    api = server.client()
    made = api.create(game="dao", seats=["human", "bot:level1"])
    table, token = made["id"], made["seats"][0]["token"]
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    requests: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{server.url}/t/{table}#seat={token}")
        _my_turn(page)
        page.wait_for_function("() => document.querySelector('#moves') !== null")
        # a move made before the socket is welcomed goes over HTTP, as it must: the page
        # says when it is live
        wait_live(page)
        # from here on, every request the page makes is counted (sockets are not requests)
        page.on("request", lambda r: requests.append(f"{r.method} {r.url}"))
        plies = 0
        deadline = time.monotonic() + 60
        while plies < 8 and time.monotonic() < deadline:
            version = _click_a_move(page)
            # my move and the bot's answer, drawn from events
            page.wait_for_function(
                "v => Number(document.querySelector('#board').dataset.version) >= v",
                arg=version + 2, timeout=TIMEOUT)
            plies += 2
            state = api.state(table)
            if state["outcome"] is not None:
                break
            _my_turn(page)
        assert plies >= 6, f"only {plies} plies in 60 s"
        assert not requests, f"HTTP requests during the game: {requests}"
        # what the page shows is what the server holds
        state = api.state(table, token)
        page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
        shown = page.locator("#moves li .move").all_inner_texts()
        record = api.http.get(f"/api/tables/{table}/record", params={"format": "json"},
                              headers=auth(token)).json()
        assert shown == list(record["moves"]), (shown, record["moves"])
        assert not errors, errors
    finally:
        context.close()
        api.http.close()


def test_a_missed_event_or_a_reconnect_fetches_the_whole_screen_once(
        server: Server, browser: Any) -> None:
    """The socket is routed through Playwright: one event is dropped on its way to the
    page, which sees the gap at the next event and fetches the whole screen; then the
    socket is closed, and the page reconnects and fetches it again."""
    api = server.client()
    made = api.create(game="dao", seats=["human", "human"])
    table, tokens = made["id"], [s["token"] for s in made["seats"]]
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT)
    drop: dict[str, Any] = {"version": None, "dropped": 0, "welcomed": 0}
    routes: list[Any] = []
    screens: list[str] = []

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def down(message: Any) -> None:
            if isinstance(message, str):
                value = json.loads(message)
                drop["welcomed"] += value.get("type") == "welcome"
                if value.get("type") == "event" and value.get("version") == drop["version"]:
                    drop["dropped"] += 1
                    return
            ws.send(message)

        upstream.on_message(down)
        ws.on_message(lambda message: upstream.send(message))
        routes.append(ws)

    try:
        page = context.new_page()
        page.route_web_socket("**/live", route)
        page.goto(f"{server.url}/t/{table}#seat={tokens[1]}")
        page.wait_for_selector('#board[data-version="0"]')
        # a move made before the socket is subscribed is not an event the page misses
        # (evaluate lets Playwright hand the socket's messages to ``route``)
        wait_until(lambda: page.evaluate("1") and drop["welcomed"], seconds=TIMEOUT / 1000,
                   what="the page's socket to be welcomed")
        page.on("request", lambda r: screens.append(r.url) if "/screen" in r.url else None)

        def move(seat: int) -> int:
            state = api.state(table, tokens[seat])
            assert api.move(table, tokens[seat], state["legal"][0],
                            state["version"]).status_code == 200
            return int(state["version"]) + 1

        assert move(0) == 1
        page.wait_for_selector('#board[data-version="1"]')
        assert screens == []  # drawn from the event
        drop["version"] = 2
        assert move(1) == 2
        assert move(0) == 3  # the page hears version 3 after 1: a gap
        page.wait_for_selector('#board[data-version="3"]')
        assert drop["dropped"] == 1 and len(screens) == 1, screens
        assert page.locator("#moves li .move").count() == 3
        routes[-1].close()  # the connection drops: the page says so, reconnects and catches up
        page.wait_for_selector("#connection", state="visible")
        assert move(1) == 4
        page.wait_for_selector('#board[data-version="4"]')
        wait_live(page)
        page.wait_for_selector("#connection", state="hidden")
        assert len(routes) == 2 and len(screens) == 2, (len(routes), screens)
        assert page.locator("#moves li .move").count() == 4
    finally:
        context.close()
        api.http.close()


@pytest.mark.parametrize("reached", [False, True], ids=["lost", "played"])
def test_a_move_whose_socket_drops_before_its_answer_goes_over_http(
        server: Server, browser: Any, reached: bool) -> None:
    """The page's socket dies with a move on it, before its answer: lost on its way
    (the page sends it again over HTTP and it is played), or played with the answer
    lost (sent again, it is stale; the record shows it was played). Either way the page
    says "You played", and the move is played once."""
    api = server.client()
    made = api.create(game="dao", seats=["human", "human"])
    table, token = made["id"], made["seats"][0]["token"]
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT)
    routes: list[Any] = []
    posts: list[str] = []

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()
        dropping = not routes  # the first socket only

        def up(message: Any) -> None:
            if dropping and isinstance(message, str) and json.loads(message).get("type") == "move":
                if reached:
                    upstream.send(message)
                    wait_until(lambda: api.state(table)["version"] == 1, seconds=TIMEOUT / 1000,
                               what="the move played")
                ws.close()
                return
            upstream.send(message)

        upstream.on_message(lambda message: ws.send(message))
        ws.on_message(up)
        routes.append(ws)

    try:
        page = context.new_page()
        page.route_web_socket("**/live", route)
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        page.goto(f"{server.url}/t/{table}#seat={token}")
        wait_live(page)
        _my_turn(page)
        _click_a_move(page)
        page.wait_for_selector("#feedback.good")
        assert page.inner_text("#feedback").startswith("You played"), page.inner_text("#feedback")
        assert len(posts) == 1 and posts[0].endswith("/moves"), posts
        page.wait_for_selector('#board[data-version="1"]')
        assert api.state(table)["version"] == 1  # played once
        record = api.http.get(f"/api/tables/{table}/record", params={"format": "json"},
                              headers=auth(token)).json()
        assert len(record["moves"]) == 1
    finally:
        context.close()
        api.http.close()


def test_an_offer_made_before_the_page_listened_is_shown_once_it_does(
        server: Server, browser: Any) -> None:
    """The page reads its screen, then its socket subscribes; an offer made in between
    is at the version the page already shows, so no later event carries it: the socket's
    ``start`` holds the open offer, and the page shows it (and asks nothing more)."""
    api = server.client()
    made = api.create(game="dao", seats=["human", "human"])
    table, tokens = made["id"], [s["token"] for s in made["seats"]]
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.set_default_timeout(TIMEOUT)
    hellos = HeldHellos()
    try:
        page = context.new_page()
        page.route_web_socket("**/live", hellos.route)
        page.goto(f"{server.url}/t/{table}#seat={tokens[1]}")
        page.wait_for_selector('#board[data-version="0"]')
        assert page.locator("#offer").is_hidden()
        version = api.state(table)["version"]
        offered = api.post(table, "offer", tokens[0], offer="draw", version=version)
        assert offered.status_code == 200, offered.text
        screens: list[str] = []
        page.on("request", lambda r: screens.append(r.url) if "/screen" in r.url else None)
        hellos.release(page, TIMEOUT / 1000)
        wait_live(page)
        page.wait_for_selector("#offer", state="visible")
        assert "offers a draw" in page.inner_text("#offer")
        assert screens == []  # from the start event, not a fetch
        # answered, it goes (an event, as ever)
        assert api.post(table, "answer", tokens[1], accept=False).status_code == 200
        page.wait_for_selector("#offer", state="hidden")
    finally:
        context.close()
        api.http.close()
