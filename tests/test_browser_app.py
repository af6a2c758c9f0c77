"""The browser app in a real Chromium against a real ``fourfold serve`` on loopback.

Two browsers play Folio to a win and a whole Ice Dao game, with a spectator watching
live; a person plays a bot in every ruleset (by clicks and taps, screenshots at desktop
and phone width); four browsers play Quatrefoil, each holding only its own cards, then
replay it together; Dual with simultaneous clicks; a refresh keeps the seat and clock;
one game is played with the keyboard alone. No page may log a console error.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import fourfold
from support.browser_app import (
    DESKTOP,
    PHONE,
    TIMEOUT,
    AppServer,
    Pages,
    act,
    pick,
    shots_folder,
    wait_live,
    wait_version,
)
from support.wait import wait_until

#: the folder ``shoot`` writes in, set once per module by ``screenshots``
SHOTS: dict[str, Path] = {}


@pytest.fixture(scope="module", autouse=True)
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    SHOTS["folder"] = shots_folder(tmp_path_factory)
    return SHOTS["folder"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(tmp_path_factory.mktemp("browser-app")).start()
    try:
        yield app
    finally:
        app.stop()


@pytest.fixture
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """A server for one test that needs the server's one job worker (a hint, a game's
    review). On the module's server a game a test before it played is being reviewed
    (started as it ended, when no other review ran: the solver's positions take minutes
    on a busy machine), and a hint or a review asked for waits behind it:
    the four-browser game's review outlasted 240 s, and so did the keyboard game's hint.
    And a review the test leaves running (a long job: one at a time per client address,
    and every test comes from 127.0.0.1) would refuse a later test's (a 429, which
    Chromium logs as a console error)."""
    app = AppServer(tmp_path_factory.mktemp("browser-app-own")).start()
    try:
        yield app
    finally:
        app.stop()


# -- playing through the page ----------------------------------------------------------------


def play_turn(server: AppServer, page: Any, table: str, token: str, rng: random.Random,
              tap: bool = False) -> dict[str, Any]:
    state = server.state(table, token)
    wait_version(page, state["version"])
    act(page, state, pick(state, rng), tap)
    return after(server, table, state["version"], "the move to land")


def after(server: AppServer, table: str, version: int, what: str, seconds: float = 15
          ) -> dict[str, Any]:
    """The table's public state once its version is past ``version``."""
    def newer() -> dict[str, Any] | None:
        state = server.state(table)
        return state if state["version"] > version else None
    found: dict[str, Any] = wait_until(newer, seconds, what)
    return found


def until_state(server: AppServer, table: str, token: str | None, test: Any, what: str,
                seconds: float = 20) -> dict[str, Any]:
    def check() -> dict[str, Any] | None:
        state = server.state(table, token)
        return state if test(state) else None
    found: dict[str, Any] = wait_until(check, seconds, what)
    return found


def shoot(page: Any, name: str) -> None:
    folder = SHOTS["folder"]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    from PIL import Image  # fewer colours: the same picture in a smaller file

    with Image.open(path) as shot:
        small = shot.convert("RGB").quantize(colors=160)
    small.save(path, optimize=True)
    assert path.stat().st_size < 120_000, f"{path.name} is {path.stat().st_size} bytes"


def drawn(page: Any) -> None:
    """Return once the page has drawn what it holds now: two animation frames later, the
    layout and paint of every change made before the call are done."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def seat_url(server: AppServer, made: dict[str, Any], seat: int) -> str:
    return server.url + made["seats"][seat]["url"]


def play_two(server: AppServer, made: dict[str, Any], players: list[Any], spectator: Any,
             seed: int, max_plies: int) -> dict[str, Any]:
    rng = random.Random(seed)
    table = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    state = server.state(table)
    for _ in range(max_plies):
        if state["outcome"] is not None:
            break
        mover = state["to_act"][0]
        state = play_turn(server, players[mover], table, tokens[mover], rng)
        if state["version"] % 5 == 0:  # the spectator follows without reloading
            spectator.wait_for_selector(f'#board[data-version="{state["version"]}"]')
    return state


# -- the tests -------------------------------------------------------------------------------

def test_two_browsers_play_folio_to_a_win_with_a_spectator(server: AppServer, pages: Pages
                                                           ) -> None:
    made = server.create("folio", ["human", "human"], variant="standard")
    players = [pages.open(seat_url(server, made, p)) for p in range(2)]
    spectator = pages.open(server.url + made["url"])
    spectator.wait_for_selector("#board svg")
    assert "watching" in spectator.inner_text(".who")
    players[0].wait_for_selector("#board svg")
    assert players[0].locator("#hint-btn").count() == 0  # no hints between people
    r = httpx.get(f"{server.url}/api/tables/{made['id']}/hint",
                  headers={"Authorization": f"Bearer {made['seats'][0]['token']}"})
    assert r.status_code == 403
    state = play_two(server, made, players, spectator, seed=3, max_plies=40)
    assert state["outcome"] and state["outcome"]["result"] == "win", state["outcome"]
    for page in [*players, spectator]:
        page.wait_for_selector("#banner:not([hidden])")
        text = page.inner_text("#banner")
        assert "wins" in text and "Winning line" in text, text
    moves = spectator.locator("#moves li").count()
    assert moves == state["version"]
    shoot(players[state["outcome"]["winner"]], "folio-standard-won-desktop")


def test_two_browsers_play_a_whole_ice_dao_game(server: AppServer, pages: Pages) -> None:
    made = server.create("icedao", ["human", "human"], options={"max-plies": "24"})
    players = [pages.open(seat_url(server, made, p)) for p in range(2)]
    spectator = pages.open(server.url + made["url"])
    # a draw offered and declined on the way (seat 2's page live first: an offer made
    # between its first read and its socket's welcome reaches it with neither, as the
    # welcome's start event does not carry the offer and comes at the same version)
    wait_live(players[1])
    players[0].wait_for_selector("#offer-draw")
    players[0].click("#offer-draw")
    players[1].wait_for_selector("#decline")
    players[1].click("#decline")
    players[1].wait_for_selector("#offer[hidden]", state="attached")
    state = play_two(server, made, players, spectator, seed=5, max_plies=60)
    assert state["outcome"] is not None
    for page in players:
        page.wait_for_selector("#banner:not([hidden])")
    shoot(players[0], "icedao-standard-over-desktop")


RULESETS = [
    ("folio", "standard"), ("folio", "fixed-grid"), ("folio", "no-grid"), ("folio", "freeform"),
    ("quarto", "standard"), ("icedao", "standard"), ("dao", "standard"),
    ("quatrefoil", "base"), ("quatrefoil", "nothing-to-hide"), ("quatrefoil", "half-and-half"),
    ("quatrefoil", "race-the-clock"), ("quatrefoil", "dual"),
]


#: every answer the feedback line gives from now on (a bot's next move may clear it at once)
HEAR_FEEDBACK = """() => { if (window.answers) { window.answers = []; return; }
  window.answers = [];
  const line = document.querySelector('#feedback');
  new MutationObserver(() => { if (line.textContent) window.answers.push(line.textContent); })
    .observe(line, {childList: true, characterData: true, subtree: true}); }"""
#: "played" or "stale" once the feedback answered the click, "over" once the game is over
ANSWERED = """() => document.querySelector('#banner:not([hidden])') ? 'over'
  : window.answers.some((t) => /You played/.test(t)) ? 'played'
  : window.answers.some((t) => /was stale/.test(t)) ? 'stale' : ''"""


def twist_in_real_time(page: Any) -> bool:
    """Dual: the person twists on the picture as drawn, while the bots act (an action
    carries the version it was chosen on: one chosen just before a bot's is refused as
    stale, with a reason, and made again on the new picture). False if a bot ended the
    game first (the banner, not the twist, was there to click)."""
    twist = page.locator('#controls button[data-action="cw"]')
    for _ in range(10):
        page.evaluate(HEAR_FEEDBACK)
        twist.or_(page.locator("#banner:not([hidden])")).first.click()
        answer = page.wait_for_function(ANSWERED).json_value()
        if answer != "stale":
            return bool(answer == "played")
    raise AssertionError("ten twists in a row were stale")


@pytest.mark.parametrize(("game", "variant"), RULESETS, ids=[f"{g}-{v}" for g, v in RULESETS])
def test_a_person_plays_a_bot(server: AppServer, pages: Pages, game: str, variant: str) -> None:
    n = 4 if game == "quatrefoil" else 2
    bot = "bot:quatrefoil" if game == "quatrefoil" else (
        "bot:freeform" if variant == "freeform" else "bot:level1")
    made = server.create(game, ["human"] + [bot] * (n - 1), variant=variant)
    table, token = made["id"], made["seats"][0]["token"]
    page = pages.open(seat_url(server, made, 0))
    rng = random.Random(1)
    mine = until_state(server, table, token, lambda s: s["legal"] or s["outcome"],
                       "the person's turn")
    if variant == "dual":  # real time: the bots do not wait for the person
        played = not mine["outcome"] and twist_in_real_time(page)
    else:
        wait_version(page, mine["version"])
        if game != "quatrefoil":
            page.wait_for_selector("#turn.mine")
        act(page, mine, pick(mine, rng))
        played = True
    if not played:  # real-time bots may finish a Dual game first
        page.wait_for_selector("#banner:not([hidden])")
        shoot(page, f"{game}-{variant}-desktop")
        return
    reached = until_state(server, table, None, lambda s: s["version"] >= mine["version"] + 2
                          or s["outcome"] is not None, "the bot's answer", 30)
    page.wait_for_function("v => Number(document.querySelector('#board').dataset.version) >= v",
                           arg=reached["version"])
    assert page.locator("#moves li:not(.none)").count() >= 2
    if variant == "race-the-clock":
        assert re.search(r"\d:\d\d", page.inner_text(".shared-clock"))
    if game == "dao":  # undo against a bot is immediate
        before = server.state(table)["version"]
        page.wait_for_selector("#undo")
        page.click("#undo")
        undone = wait_until(lambda: (v := server.state(table)["version"]) > before and v,
                            10, "the undo")
        wait_version(page, undone)  # the page shows the position after the undo
    drawn(page)
    shoot(page, f"{game}-{variant}-desktop")
    page.set_viewport_size(PHONE)
    drawn(page)
    shoot(page, f"{game}-{variant}-phone")


def test_touch_at_phone_width(server: AppServer, pages: Pages) -> None:
    made = server.create("dao", ["human", "bot:level1"])
    table, token = made["id"], made["seats"][0]["token"]
    page = pages.open(seat_url(server, made, 0), PHONE, phone=True)
    page.wait_for_selector("#turn.mine")
    state = play_turn(server, page, table, token, random.Random(2), tap=True)
    assert state["version"] >= 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"the page scrolls sideways ({width}px)"


def test_four_browsers_play_quatrefoil_each_with_only_its_own_cards(own_server: AppServer,
                                                                   pages: Pages) -> None:
    server = own_server  # its replay starts the game's review: see own_server
    made = server.create("quatrefoil", ["human"] * 4, variant="base", seed=11)
    table = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    players = [pages.open(seat_url(server, made, p)) for p in range(4)]
    for seat, page in enumerate(players):
        page.wait_for_selector("#board svg")
        own = server.state(table, tokens[seat])["view"]["board"]
        for other in range(4):
            for kind in ("colour", "position"):
                value = page.get_attribute(
                    f'#board .card-group.{kind}[data-seat="{other + 1}"]', "data-value")
                expected = own[f"{kind}_cards"][other]
                if other == seat:
                    assert value == expected and value != "?"
                else:
                    assert expected is None and value == "?", (seat, other, kind, value)
        for other in range(4):  # nothing of another seat's cards anywhere in the page
            if other != seat:
                theirs = server.state(table, tokens[other])["view"]["board"]
                html = page.content()
                card = theirs["position_cards"][other]
                assert f'data-seat="{other + 1}" data-card="position" data-value="{card}"' \
                    not in html
        signals = page.locator("#controls .sig, .signals .sig").count()
        assert signals in (0, 4)
    rng = random.Random(4)
    for _ in range(6):  # six actions in turn, then the player to act stacks
        state = server.state(table)
        mover = state["to_act"][0]
        play_turn(server, players[mover], table, tokens[mover], rng)
    state = server.state(table)
    mover = state["to_act"][0]
    wait_version(players[mover], state["version"])
    stack = '#controls button[data-move="stack"]'
    players[mover].click(stack)  # the first tap only asks: it ends the game for everyone
    players[mover].wait_for_selector(stack.replace("button", "button.armed"))
    assert "the game ends for everyone" in players[mover].inner_text(stack)
    assert server.state(table)["outcome"] is None
    players[mover].click(stack)
    final = until_state(server, table, None, lambda s: s["outcome"], "the end")
    for page in players:
        page.wait_for_selector("#banner:not([hidden])")
        values = page.eval_on_selector_all("#board .card-group[data-value]",
                                           "els => els.map(e => e.dataset.value)")
        assert values and "?" not in values  # everything revealed
    shoot(players[0], "quatrefoil-base-end-desktop")
    # the shared replay: seat 1 leads, seat 2 follows
    players[0].click("#replay-link")
    players[1].click("#replay-link")
    for page in players[:2]:
        page.wait_for_selector("#replay-board svg")
        page.wait_for_selector("#lead")
    players[1].wait_for_selector('#shared[data-live="1"]')
    players[0].check("#lead")
    players[0].click("#r-first")
    players[1].wait_for_function("() => document.querySelector('#replay-slider').value === '0'")
    players[0].click("#r-next")
    players[1].wait_for_function("() => document.querySelector('#replay-slider').value === '1'")
    assert final["outcome"]["result"] in ("team-win", "team-loss")
    shoot(players[1], "quatrefoil-base-replay-desktop")


def test_dual_simultaneous_clicks_refuse_the_stale_ones_with_a_reason(server: AppServer,
                                                                     pages: Pages) -> None:
    made = server.create("quatrefoil", ["human"] * 4, variant="dual", seed=5)
    table = made["id"]
    # Simultaneous: each page clicks before it has heard of anyone else's action. The
    # pages' sockets hold the table's events back while the four click, one after the
    # other (a timer set to fire at one moment in four pages may fire late on a busy
    # machine, in a page that has heard the first action by then and acts on the new
    # position); their answers go through.
    held: list[tuple[Any, str | bytes]] = []
    holding = [False]

    def between(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            if holding[0] and isinstance(message, str) \
                    and json.loads(message).get("type") == "event":
                held.append((ws, message))
            else:
                ws.send(message)

        upstream.on_message(down)
        ws.on_message(lambda message: upstream.send(message))

    players = [pages.open(seat_url(server, made, p), sockets=between) for p in range(4)]
    for page in players:
        page.wait_for_selector('#controls button[data-action="cw"]')
        wait_live(page)
    holding[0] = True
    for page in players:
        page.click('#controls button[data-action="cw"]')
    for page in players:  # every click was answered: played, or refused as stale
        page.wait_for_function("() => /was stale|You played/.test("
                               "document.querySelector('#feedback').innerText)",
                               timeout=TIMEOUT)
    said = [p.inner_text("#feedback") for p in players]
    refused = [p for p, text in zip(players, said, strict=True) if "was stale" in text]
    accepted = [text for text in said if "You played" in text]
    assert len(accepted) == 1 and len(refused) == 3, said
    shoot(refused[0], "quatrefoil-dual-refused-desktop")
    holding[0] = False
    for ws, message in held:  # (in the order they came)
        ws.send(message)
    assert server.state(table)["version"] == 1
    for page in players:  # and every page draws the one action played
        wait_version(page, 1)


def test_a_refresh_keeps_the_seat_and_the_clock(server: AppServer, pages: Pages) -> None:
    made = server.create("folio", ["human", "human"], variant="fixed-grid",
                         clock={"base": 120, "increment": 0})
    table = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    for seat in (1, 0):  # the opening give, then a placement
        state = server.state(table, tokens[seat])
        r = httpx.post(f"{server.url}/api/tables/{table}/moves",
                       json={"move": state["legal"][0], "version": state["version"]},
                       headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 200, r.text
    page = pages.open(seat_url(server, made, 1))
    page.wait_for_selector("#turn.mine")

    def seconds() -> float:
        m, s = page.inner_text('[data-clock="1"]').split(":")
        return int(m) * 60 + float(s)

    wait_until(lambda: seconds() < 119.0, 10, "seat 2's running clock shown below 1:59")
    before = seconds()
    assert before < 119.0
    started = time.monotonic()
    page.reload()
    page.wait_for_selector("#turn.mine")
    assert "You are" in page.inner_text(".who") and "seat 2" in page.inner_text(".who")
    after = seconds()
    # the clock ran on through the reload, however long that took (seconds, on a busy
    # machine), and did not start again
    took = time.monotonic() - started
    assert before - took - 1 < after <= before + 0.5, (before, after, took)


def test_keyboard_only_game_then_hint_rematch_replay_and_a_new_game_from_it(
        own_server: AppServer, pages: Pages) -> None:
    server = own_server  # its hint and its replay's review: see own_server
    made = server.create("quarto", ["human", "bot:level1"])
    table, token = made["id"], made["seats"][0]["token"]
    page = pages.open(seat_url(server, made, 0))
    rng = random.Random(7)
    hinted = False
    for _ in range(12):
        state = until_state(server, table, token, lambda s: s["legal"] or s["outcome"],
                            "a turn")
        if state["outcome"]:
            break
        wait_version(page, state["version"])
        if not hinted and len(state["view"]["board"]["cells"]) >= 6:
            focus_by_tab(page, "hint-btn")
            page.keyboard.press("Enter")
            # the test server runs without the warm-up: the first hint compiles the
            # placement solver (about 65 s on an idle machine, fresh numba cache)
            page.wait_for_selector("#hint h2", timeout=240_000)
            hinted = True
        focus_by_tab(page, "move-input")
        page.keyboard.type(pick(state, rng))
        page.keyboard.press("Enter")
        after(server, table, state["version"], "the move", 10)
    state = until_state(server, table, None, lambda s: s["outcome"], "the end")
    page.wait_for_selector("#banner:not([hidden])")
    # the replay, with the game's review (the solver's values) beside it
    focus_by_tab(page, "replay-link")
    page.keyboard.press("Enter")
    page.wait_for_selector("#replay-board svg")
    page.wait_for_selector("#review #review-status")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelector('#replay-slider').value !== '"
                           + str(state["version"]) + "'")
    shoot(page, "quarto-replay-desktop")
    focus_by_tab(page, "from-here-btn")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9]+#seat="))
    page.wait_for_selector("#board svg")
    assert "You are" in page.inner_text(".who")
    # the rematch of the first table, sides swapped
    page.goto(seat_url(server, made, 0))
    page.wait_for_selector("#rematch")
    focus_by_tab(page, "rematch")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/t/(?!" + table + r")[A-Za-z0-9]+#seat="))
    page.wait_for_selector(".who")
    wait_until(lambda: "seat 2" in page.inner_text(".who"), 10, "the swapped seat")


def focus_by_tab(page: Any, element_id: str, presses: int = 120) -> None:
    """Press Tab until the element with ``element_id`` has the focus (bounded)."""
    for _ in range(presses):
        if page.evaluate("document.activeElement && document.activeElement.id") == element_id:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached #{element_id}")


def test_lobby_create_join_watch_and_rules(server: AppServer, pages: Pages) -> None:
    page = pages.open(server.url + "/")
    page.wait_for_selector("#f-create")
    page.select_option("#f-game", "icedao")
    page.wait_for_selector("#opt-start")
    page.select_option("#seat-1", "friend")
    page.click("#f-create")
    page.wait_for_selector("#f-result .link")
    links = page.eval_on_selector_all("#f-result input.link", "els => els.map(e => e.value)")
    assert len(links) == 2 and all("#seat=" in link for link in links)
    shoot(page, "lobby-created-desktop")
    friend = pages.open(links[1])
    friend.wait_for_selector(".who")
    wait_until(lambda: "Green" in friend.inner_text(".who"), 10, "the friend's seat")
    # an open seat, joined from the lobby
    made = server.create("dao", ["human", "open"])
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby-list button")
    page.click("#lobby-list button")
    page.wait_for_url(re.compile(r"/t/" + made["id"] + "#seat="))
    page.wait_for_selector(".who")
    wait_until(lambda: "seat 2" in page.inner_text(".who"), 10, "the joined seat")
    page.set_viewport_size(PHONE)
    page.goto(server.url + "/")
    page.wait_for_selector("#f-create")
    shoot(page, "lobby-phone")
    page.set_viewport_size(DESKTOP)
    page.goto(server.url + "/rules/icedao")
    page.wait_for_selector("#rules h2")
    page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth)")
    assert "Ruling" in page.inner_text("#rules")
    # code inside bold is code, not backticks ("**Ruling (...; option `start`).**")
    assert page.locator("#rules strong code", has_text="start").count() >= 1
    prose = page.eval_on_selector_all("#rules p, #rules li",
                                      "els => els.map((e) => e.textContent).join(' ')")
    assert "`" not in prose, prose[max(0, prose.find("`") - 80):prose.find("`") + 80]
    shoot(page, "rules-icedao-desktop")


def test_static_files_ship_in_the_package() -> None:
    static = Path(fourfold.__file__).parent / "server" / "web" / "static"
    for name in ("index.html", "app.js", "util.js", "table.js", "controllers.js", "kit.js",
                 "lobby.js", "replay.js", "rules.js", "markdown.js", "app.css", "favicon.svg"):
        assert (static / name).is_file(), name
    games = Path(fourfold.__file__).parent / "games"
    for name in ("placement", "sliding", "icedao", "quatrefoil", "folio/freeform"):
        assert (games / name / "browser.js").is_file(), name
    html = (static / "index.html").read_text()
    assert "http://" not in html and "https://" not in html
