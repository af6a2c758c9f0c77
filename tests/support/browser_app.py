"""Helpers for the browser-app tests: a real ``fourfold serve`` on loopback with the
browser app installed, pages that fail on console errors, and moves made through the
page by clicks and taps (``pick`` a move from a seat's view, ``act`` it out). Every
wait is bounded."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

import fourfold
from support.server import START_SECONDS, end_process, free_port
from support.wait import wait_until

ARGS = ["--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
DESKTOP = {"width": 1280, "height": 860}  # issue 31's laptop; the docs' script uses it too
PHONE = {"width": 390, "height": 844}
#: The tests' screenshots go to a temporary folder (or where this variable says): tests
#: never write into the checkout; ``scripts/refresh_screenshots.py`` makes the docs' own.
SHOTS_ENV = "FOURFOLD_SCREENSHOTS"


def shots_folder(tmp_path_factory: Any) -> Path:
    """Where ``shoot`` writes: ``$FOURFOLD_SCREENSHOTS`` when set, else a fresh temporary
    folder of this test run."""
    named = os.environ.get(SHOTS_ENV, "").strip()
    folder: Path = Path(named) if named else tmp_path_factory.mktemp("screenshots")
    return folder


@dataclass
class AppServer:
    data: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[str] | None = None
    #: the bots' mean pause before a move, in seconds (``--bot-pace``)
    bot_pace: float = 0.05

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> AppServer:
        log = (self.data / "server.log").open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "fourfold.cli.main", "serve", "--port", str(self.port),
             "--data",
             str(self.data), "--bot-pace", str(self.bot_pace),
             "--real-time-bot-pace", str(self.bot_pace), "--rate", "5000",
             "--max-bot-tables-per-address", "100000", "--analysis-seconds", "0.3",
             "--max-tables-per-address", "100000", "--max-lobby-tables-per-address",
             "100000", "--tables-per-minute", "1000000", "--address-rate", "50000",
             "--max-connections-per-address", "100000",
             "--no-warm-up"],
            stdout=log, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError((self.data / "server.log").read_text())
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/ui/app.js", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start: " + (self.data / "server.log").read_text())

    def stop(self) -> None:
        if self.process is not None:
            end_process(self.process)
        self.process = None

    def create(self, game: str, seats: list[str], variant: str | None = None,
               **extra: Any) -> dict[str, Any]:
        body: dict[str, Any] = {"game": game, "seats": seats, **extra}
        if variant:
            body["variant"] = variant
        r = httpx.post(self.url + "/api/tables", json=body, timeout=30)
        assert r.status_code == 201, r.text
        made: dict[str, Any] = r.json()
        return made

    def state(self, table_id: str, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = httpx.get(f"{self.url}/api/tables/{table_id}", headers=headers, timeout=30)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data


class Watched:
    """A page whose console errors, page errors and failed requests are collected."""

    def __init__(self, context: Any) -> None:
        self.page = context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console: {m.text}")
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("requestfailed", lambda r: self.errors.append(
            f"failed: {r.url} {r.failure}") if "/live" not in r.url
            and "ERR_ABORTED" not in (r.failure or "") else None)
        self.page.on("request", lambda r: self.errors.append(f"external: {r.url}")
                     if not r.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:",
                                              "blob:", "about:")) else None)

    def clean(self) -> None:
        assert not self.errors, self.errors


TIMEOUT = 15_000


def configured(state: dict[str, Any]) -> Any:
    return fourfold.load(state["game"], state["variant"], **state["options"])


def pick(state: dict[str, Any], rng: random.Random) -> str:
    """A winning move if there is one, else a random legal one (from the seat's view)."""
    legal: list[str] = state["legal"]
    quiet = [m for m in legal if m not in ("challenge", "stack")] or legal
    if state["game"] == "quatrefoil":  # a seat's view is no playable position
        return rng.choice(quiet)
    game = configured(state)
    position = game.parse_position(state["view"]["position"])
    me = state["you"]
    for text in legal:
        if text == "challenge":
            continue
        after = game.play(position, text)
        ended = game.outcome(after)
        if ended is not None and ended.winner == me:
            return text
    return rng.choice(quiet)


def wait_version(page: Any, version: int) -> None:
    page.wait_for_selector(f'#board[data-version="{version}"]', timeout=TIMEOUT)


def wait_live(page: Any) -> None:
    """Wait until the table page's socket is welcomed (``#board[data-live="1"]``): from
    then on its actions go over the socket and every change reaches it as an event.
    Before that, an action goes over HTTP (the page's fallback) and a change made
    meanwhile reaches it only as the whole screen, so a test that counts requests or
    events, or watches how one change is drawn, waits for this first. The chat is read
    again on each welcome (``#chat[data-live="1"]`` once that read is back), so this waits
    for it too: after that the page asks the server nothing until a reconnect."""
    page.wait_for_selector('#board[data-live="1"]')
    page.wait_for_selector('#chat[data-live="1"]')


#: the first element matching a selector, measured in one step in the page, or null
MEASURE = """s => { const e = document.querySelector(s); if (!e) return null;
  const r = e.getBoundingClientRect();
  return r.width || r.height ? {x: r.x, y: r.y, width: r.width, height: r.height} : null; }"""


def box(page: Any, selector: str) -> dict[str, float]:
    """Where the first element matching ``selector`` is drawn (as ``bounding_box``), once it
    is drawn. Found and measured in one step in the page: a live page redraws its board on
    every event, and Playwright's ``locator.bounding_box`` finds the element and measures it
    in two, so an element replaced in between measures as None."""
    found: dict[str, float] = page.wait_for_function(MEASURE, arg=selector).json_value()
    return found


def centre(page: Any, selector: str) -> tuple[float, float]:
    """The middle of the first element matching ``selector``, where a pointer would press."""
    where = box(page, selector)
    return where["x"] + where["width"] / 2, where["y"] + where["height"] / 2


def world_click(page: Any, point: str) -> None:
    """Click the freeform table at ``x,y`` in table units (as data-world/data-px map)."""
    x, y = (float(v) for v in point.split(","))
    where = page.evaluate("""([x, y]) => {
      const svg = document.querySelector('#board svg');
      const area = svg.querySelector('[data-world][data-px]');
      const [x0, y0, span] = area.dataset.world.split(' ').map(Number);
      const [left, top, side] = area.dataset.px.split(' ').map(Number);
      const pt = svg.createSVGPoint();
      pt.x = left + (x - x0) / span * side; pt.y = top + (y0 + span - y) / span * side;
      const p = pt.matrixTransform(svg.getScreenCTM());
      return [p.x, p.y];
    }""", [x, y])
    page.mouse.click(where[0], where[1])


def act(page: Any, state: dict[str, Any], move: str, tap: bool = False) -> None:
    """Make ``move`` with clicks (or taps) on the board and its controls, never typing."""
    hit = page.tap if tap else page.click
    game, variant = state["game"], state["variant"]
    board = state["view"]["board"]
    if game == "quatrefoil":
        action = re.sub(r"^\d+:|@\d+$", "", move)
        arrow = f'#board g.push.target[data-action="{action}"]'
        button = f'#controls button[data-move="{move}"]'
        # a push is made on the picture's arrow where one is drawn (the picture may
        # still be drawing: wait for the arrow or the button, whichever shows first)
        page.wait_for_selector(f"{arrow}, {button}" if ">" in action else button)
        if ">" in action and page.locator(arrow).count():
            page.locator(arrow).first.click()
        elif action == "stack":  # it ends the game for everyone: a second tap confirms
            hit(f'#controls button[data-move="{move}"]')
            page.wait_for_selector(f'#controls button.armed[data-move="{move}"]')
            hit(f'#controls button[data-move="{move}"]')
        else:
            hit(f'#controls button[data-move="{move}"]')
        return
    if game in ("icedao", "dao"):
        if move == "pass":
            hit('#controls button[data-move="pass"]')
            return
        origin, landing = move.split("-")
        hit(f'#board g.square[data-cell="{origin}"]')
        page.wait_for_selector(f'#board g.square.landing[data-cell="{landing}"]')
        hit(f'#board g.square.landing[data-cell="{landing}"]')
        return
    if move == "challenge":
        hit('#controls button[data-move="challenge"]')
        return
    pieces = {p["piece"] for p in board["pieces"]}
    parts = move.split(" ")
    cell, give = (parts[0], parts[1]) if len(parts) == 2 else (
        (None, parts[0]) if parts[0] in pieces else (parts[0], None))
    if give is not None:
        hit(f'#board g.piece[data-role="supply"][data-piece="{give}"]')
        if cell is None:
            return
        page.wait_for_selector(f'#board g.piece.selected[data-piece="{give}"]')
    assert cell is not None
    if variant == "freeform":
        world_click(page, cell)
    else:
        hit(f'#board g.square.target[data-cell="{cell}"]')


class Pages:
    """Browser contexts (one per person) whose pages must stay free of console errors;
    ``phone`` opens a touch, mobile context."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.watched: list[Watched] = []

    def open(self, url: str, viewport: dict[str, int] = DESKTOP, phone: bool = False,
             sockets: Callable[[Any], None] | None = None) -> Any:
        """A new person's page at ``url``; ``sockets`` (Playwright's WebSocketRoute
        handler) stands between the page and the server on its sockets from the start."""
        context = self.browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
        context.set_default_timeout(TIMEOUT)
        self.contexts.append(context)
        watched = Watched(context)
        self.watched.append(watched)
        if sockets is not None:
            watched.page.route_web_socket("**/live", sockets)
        watched.page.goto(url)
        return watched.page

    def close(self) -> None:
        errors = [e for w in self.watched for e in w.errors]
        for context in self.contexts:
            context.close()
        assert not errors, errors


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    opened = Pages(browser)
    yield opened
    opened.close()


class HeldHellos:
    """A page's sockets routed through Playwright (``page.route_web_socket("**/live",
    held.route)``) with each hello held back: the server does not subscribe the page
    until ``release``. ``routes`` are the page's sockets, to close one and drop it."""

    def __init__(self) -> None:
        self.held: list[tuple[Any, Any]] = []
        self.routes: list[Any] = []

    def route(self, ws: Any) -> None:
        upstream = ws.connect_to_server()

        def up(message: Any) -> None:
            if isinstance(message, str) and json.loads(message).get("type") == "hello":
                self.held.append((upstream, message))  # subscribed when it goes on
                return
            upstream.send(message)

        ws.on_message(up)
        upstream.on_message(lambda message: ws.send(message))
        self.routes.append(ws)

    def release(self, page: Any, seconds: float) -> None:
        """Let the page's held hello go on (waiting for it to be held first)."""
        # evaluate lets Playwright hand the socket's messages to ``route``
        wait_until(lambda: page.evaluate("1") and self.held, seconds=seconds,
                   what="the page's hello")
        upstream, hello = self.held.pop()
        upstream.send(hello)
