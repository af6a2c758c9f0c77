"""The browser client as people feel it (issue 31), and the games' controllers served from
their own folders (issue 30), in a real Chromium against a real ``fourfold serve``.

The server also runs the plugin test game (``tests/plugin_game``, through
``FOURFOLD_GAMES``), which has no browser controller: it plays with the generic one.
Checked here: axe-core on every page at desktop and phone width; a phone game in which
the page never scrolls by itself; tap targets of at least 44x44 CSS px measured from the
DOM; the out-of-turn state; moves by keyboard alone with the focus kept on the board;
a missing table that stops asking; the controller files, their fingerprinted URLs and
that no game is named in the app's own JavaScript.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fourfold.core.errors import ConfigurationError
from fourfold.core.registry import game_names, get_spec
from fourfold.server.web import controllers
from support.browser_app import (
    DESKTOP,
    PHONE,
    TIMEOUT,
    AppServer,
    Pages,
    act,
    box,
    centre,
    pick,
    wait_live,
)
from support.keyboard import arrows_to, into_board, tab_to
from support.wait import wait_until

TESTS = Path(__file__).resolve().parent
STATIC = Path(controllers.__file__).resolve().parent / "static"
#: every ruleset, as (game, variant, players); the plugin game last
RULESETS = [("folio", "standard", 2), ("folio", "freeform", 2), ("quarto", None, 2),
            ("dao", None, 2), ("icedao", None, 2), ("quatrefoil", "base", 4),
            ("noughts", None, 2)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FOURFOLD_GAMES", "plugin_game")
        patch.setenv("PYTHONPATH", str(TESTS))
        app = AppServer(tmp_path_factory.mktemp("browser-client")).start()
    try:
        yield app
    finally:
        app.stop()


def seat_page(pages: Pages, server: AppServer, made: dict[str, Any], seat: int = 0,
              viewport: dict[str, int] = DESKTOP) -> Any:
    page = pages.open(server.url + made["seats"][seat]["url"], viewport,
                      phone=viewport is PHONE)
    page.wait_for_selector("#board svg")
    return page


def my_turn(server: AppServer, made: dict[str, Any], seat: int = 0, after: int = -1
            ) -> dict[str, Any]:
    """The seat's state once it may act (bots before it have moved) at a version past
    ``after``: a move the page has just made lands a moment after the click, and until
    it has, the seat's turn is still the one before it."""
    token = made["seats"][seat]["token"]
    found: dict[str, Any] = wait_until(
        lambda: (lambda s: s if s["version"] > after and (s["legal"] or s["outcome"])
                 else None)(server.state(made["id"], token)), 20, "the seat's turn")
    return found


def moved_past(server: AppServer, made: dict[str, Any], version: int) -> None:
    wait_until(lambda: server.state(made["id"])["version"] > version, 10, "the move to land")


def new_table(server: AppServer, game: str, variant: str | None, players: int,
              bot: str = "bot:level1") -> dict[str, Any]:
    return server.create(game, ["human"] + [bot] * (players - 1), variant=variant)


# -- served from the game folders; no game names in the app ----------------------------------

def test_a_bad_browser_reference_is_a_clear_error() -> None:
    with pytest.raises(ConfigurationError, match=r"package:file\.js"):
        controllers.controller_file("fourfold.games.dao")
    with pytest.raises(ConfigurationError, match=r"no nothing\.js in"):
        controllers.controller_file("fourfold.games.dao:nothing.js")
    with pytest.raises(ConfigurationError, match=r"cannot find package|not a package"):
        controllers.controller_file("no_such_package_here:browser.js")
    assert controllers.served_file("fourfold/games/placement/game.py") is None
    assert controllers.served_file("fourfold/core/extensions.js") is None


def test_controllers_are_served_from_the_game_folders(server: AppServer) -> None:
    listing = httpx.get(server.url + "/api/games", timeout=30).json()["games"]
    urls = {(g["game"], v["variant"]): v["browser"] for g in listing for v in g["variants"]}
    assert urls[("noughts", "standard")] is None  # the plugin: the generic controller
    assert urls[("folio", "freeform")] != urls[("folio", "standard")] == urls[
        ("quarto", "standard")]
    shell = httpx.get(server.url + "/", timeout=30).text
    build = shell.split("/ui/")[1].split("/")[0]
    assert f'src="/ui/{build}/app.js"' in shell
    for url in {u for u in urls.values() if u}:
        assert url.startswith(f"/ui/{build}/pkg/fourfold/games/")
        r = httpx.get(server.url + url, timeout=30)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
        assert "immutable" in r.headers["cache-control"]
        assert "export default function" in r.text
    assert httpx.get(f"{server.url}/ui/{build}/app.js", timeout=30).headers[
        "cache-control"].endswith("immutable")
    for bad in (f"/ui/{build}/pkg/fourfold/games/placement/game.py",
                f"/ui/{build}/pkg/fourfold/server/web/pages.js",
                f"/ui/{build}/pkg/fourfold/games/../server/web/static/app.js"):
        assert httpx.get(server.url + bad, timeout=30).status_code == 404, bad


def test_the_apps_own_javascript_names_no_game() -> None:
    names = set(game_names()) | {get_spec(n).title.lower() for n in game_names()}
    names |= {"freeform", "dual", "quatrefoil", "icedao", "ice dao"}
    for file in [*sorted(STATIC.glob("*.js")), STATIC / "index.html"]:
        text = file.read_text(encoding="utf-8").lower()
        found = [n for n in names if f"'{n}'" in text or f'"{n}"' in text or f"/{n}" in text]
        assert not found, (file.name, found)


# -- accessibility ---------------------------------------------------------------------------

def serious(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['nodes'][0]['target']}" for v in found
            if v["impact"] in ("serious", "critical")]


def test_axe_finds_nothing_serious_on_any_page(server: AppServer, pages: Pages) -> None:
    finished = new_table(server, "dao", None, 2)
    token = finished["seats"][0]["token"]
    version = my_turn(server, finished)["version"]
    r = httpx.post(f"{server.url}/api/tables/{finished['id']}/resign", json={"version": version},
                   headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert r.status_code == 200, r.text
    paths = [("/", "#f-create"), ("/rules/icedao", "#rules h2"), ("/rules/noughts", "#rules"),
             (f"/replay/{finished['id']}", "#replay-board svg")]
    for game, variant, players in RULESETS:
        made = new_table(server, game, variant, players)
        paths += [(made["seats"][0]["url"], "#controls .controls-inner"),
                  (made["url"], "#board svg")]
    for viewport in (DESKTOP, PHONE):
        page = pages.open(server.url + "/", viewport)
        problems = {}
        for path, ready in paths:
            page.goto(server.url + path)
            page.wait_for_selector(ready)
            if path.startswith("/t/"):  # a table page settles once live (its chat read again)
                wait_live(page)
            found = serious(page)
            if found:
                problems[path] = found
        assert not problems, (viewport, problems)


# -- the phone -------------------------------------------------------------------------------

def test_a_phone_game_never_scrolls_the_page_by_itself(server: AppServer,
                                                        pages: Pages) -> None:
    made = new_table(server, "folio", "fixed-grid", 2)
    page = seat_page(pages, server, made, viewport=PHONE)
    assert page.evaluate("scrollY") == 0  # it opens at the top
    rng = random.Random(3)
    for _ in range(4):
        state = my_turn(server, made)
        if state["outcome"]:
            break
        page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
        assert page.evaluate("scrollY") == 0
        # the controls a seat needs are on screen on its turn
        turn = box(page, "#turn")
        assert turn["y"] + turn["height"] <= PHONE["height"]
        act(page, state, pick(state, rng), tap=True)
        moved_past(server, made, state["version"])
    # a person who scrolled stays where they scrolled while the bot moves (the page first
    # shows the seat's turn: a tap on the picture before the bot's move is drawn is lost)
    state = my_turn(server, made)
    page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
    page.evaluate("scrollTo(0, 120)")
    y = page.evaluate("scrollY")
    if not state["outcome"]:
        act(page, state, pick(state, rng), tap=True)
        after = my_turn(server, made, after=state["version"])
        page.wait_for_selector(f'#board[data-version="{after["version"]}"]')
    assert page.evaluate("scrollY") == y


SIZES = """() => {
  const out = [];
  const pads = new Map([...document.querySelectorAll('#board rect.hit')].map((r) => [r.hitFor, r]));
  const seen = [...document.querySelectorAll('#board [role="button"]'),
    ...document.querySelectorAll('button, select, a[href], input')];
  for (const el of seen) {
    const label = el.tagName === 'INPUT' && el.closest('label');
    const r = (label || el).getBoundingClientRect();
    if (!r.width || r.right <= 0 || el.closest('[hidden]')) continue;  // unseen: a skip link
    const pad = pads.get(el);
    const p = pad ? pad.getBoundingClientRect() : r;
    const w = Math.max(r.width, p.width), h = Math.max(r.height, p.height);
    const inline = el.tagName === 'A' && el.closest('p, li') && !el.closest('nav');
    if (!inline) out.push([el.id || el.dataset.cell || el.dataset.piece || el.dataset.action
      || el.textContent.trim().slice(0, 20) || el.tagName, Math.round(w), Math.round(h)]);
  }
  return out;
}"""


@pytest.mark.parametrize(("game", "variant", "players"), RULESETS)
def test_tap_targets_are_at_least_44_px_on_a_phone(server: AppServer, pages: Pages, game: str,
                                                    variant: str | None,
                                                    players: int) -> None:
    made = new_table(server, game, variant, players)
    page = seat_page(pages, server, made, viewport=PHONE)
    state = my_turn(server, made)
    page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
    page.wait_for_selector("#controls .controls-inner")
    if game in ("dao", "icedao"):  # the landings too, once a piece is chosen
        page.tap('#board g.square[role="button"]')
        page.wait_for_selector("#board g.square.landing")
    small = [s for s in page.evaluate(SIZES) if s[1] < 44 or s[2] < 44]
    assert not small, small


# -- turns and the keyboard ------------------------------------------------------------------

def test_out_of_turn_the_controls_are_off_and_say_whose_turn_it_is(server: AppServer,
                                                                   pages: Pages) -> None:
    made = server.create("dao", ["human", "human"])
    first, second = seat_page(pages, server, made, 0), seat_page(pages, server, made, 1)
    state = server.state(made["id"])
    mover = state["to_act"][0]
    waiting = second if mover == 0 else first
    waiting.wait_for_selector("#waiting")
    name = state["seats"][mover]["name"]
    assert f"{name} to move" in waiting.inner_text("#waiting")
    assert waiting.is_disabled("#move-input")
    assert waiting.locator('#board [role="button"]').count() == 0
    assert f"{name} to move" in waiting.inner_text("#turn")
    acting = first if mover == 0 else second
    acting.wait_for_selector('#board g.square[role="button"]')
    assert not acting.is_disabled("#move-input")


def keyboard_move(page: Any, state: dict[str, Any]) -> None:
    """One legal move by the keyboard alone, the way the controller offers it: Tab into
    the board, the arrow keys between its buttons, Enter (tests/support/keyboard.py)."""
    game = state["game"]
    if game in ("dao", "icedao"):
        into_board(page)
        page.keyboard.press("Enter")
        page.wait_for_selector("#board g.square.landing")
        arrows_to(page, "#board g.square.landing")
        page.keyboard.press("Enter")
    elif game in ("folio", "quarto"):
        gives = page.locator('#board g.piece.choosable[role="button"]')
        targets = page.locator('#board g.square.target[role="button"]')
        if gives.count():
            arrows_to(page, '#board g.piece.choosable[role="button"]')
            page.keyboard.press("Enter")
        if targets.count():
            arrows_to(page, '#board g.square.target[role="button"]')
            page.keyboard.press("Enter")
    else:  # Quatrefoil's twist, the plugin's first move
        tab_to(page, '#controls button[data-action="cw"], #controls button[data-move]')
        page.keyboard.press("Enter")


@pytest.mark.parametrize(("game", "variant", "players"),
                         [r for r in RULESETS if r[1] != "freeform"])
def test_moves_by_keyboard_keep_the_focus_on_the_board(server: AppServer, pages: Pages,
                                                       game: str, variant: str | None,
                                                       players: int) -> None:
    made = new_table(server, game, variant, players)
    page = seat_page(pages, server, made)
    for _ in range(2):
        state = my_turn(server, made)
        if state["outcome"]:
            break
        page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
        page.wait_for_selector("#controls .controls-inner")
        keyboard_move(page, state)
        moved_past(server, made, state["version"])
        page.wait_for_function("() => +document.querySelector('#board').dataset.version > "
                               + str(state["version"]))
        where = page.evaluate("""() => { const a = document.activeElement;
          return a && (a.closest('#board') || a.closest('#controls')) ? 'board' : a.tagName; }""")
        assert where == "board", where
        assert page.evaluate("""() => { const a = document.activeElement;
          const s = getComputedStyle(a); return s.outlineStyle !== 'none' ||
            a.id === 'board'; }""")


def test_the_plugin_game_plays_to_the_end_by_keyboard(server: AppServer,
                                                      pages: Pages) -> None:
    made = new_table(server, "noughts", None, 2, bot="bot:random")
    page = seat_page(pages, server, made)
    for _ in range(6):
        state = my_turn(server, made)
        if state["outcome"]:
            break
        page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
        keyboard_move(page, state)
        moved_past(server, made, state["version"])
    wait_until(lambda: server.state(made["id"])["outcome"], 20, "the end")
    page.wait_for_selector("#banner:not([hidden])")


def test_a_missing_table_says_so_once_and_stops_asking(server: AppServer,
                                                       pages: Pages) -> None:
    context = pages.browser.new_context(viewport=DESKTOP)
    pages.contexts.append(context)
    page = context.new_page()
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(server.url + "/t/NoSuchTable42")
    # (while the page is still being built there is no #turn yet)
    page.wait_for_function("() => { const turn = document.querySelector('#turn');"
                           " return turn && /no such table/i.test(turn.textContent); }")
    opened = len(sockets)
    with pytest.raises(Exception, match="Timeout"):
        page.wait_for_event("websocket", timeout=3000)  # no retry within three seconds
    assert len(sockets) == opened <= 1


# -- lobby and settings ----------------------------------------------------------------------

def test_the_lobby_names_games_as_people_write_them(server: AppServer, pages: Pages) -> None:
    made = server.create("icedao", ["human", "open"])
    page = pages.open(server.url + "/")
    page.wait_for_selector("#lobby-list li")
    wait_until(lambda: "Ice Dao (standard)" in page.inner_text("#lobby-list"), 10,
               "the table under its title")
    assert "icedao" not in page.inner_text("#lobby-list")
    # a table made meanwhile shows up under "your tables" without a reload
    page.evaluate("""(id) => localStorage.setItem('fourfold.seats', JSON.stringify(
        {[id]: {token: 'x', label: 'Ice Dao (standard), seat 1', at: Date.now()}}))""",
                  made["id"])
    page.wait_for_function("() => { const yours = document.querySelector('.yours');"
                           " return yours && /Ice Dao \\(standard\\), seat 1/.test("
                           "yours.textContent); }", timeout=TIMEOUT)


def test_the_sound_setting_is_remembered(server: AppServer, pages: Pages) -> None:
    page = pages.open(server.url + "/")
    page.wait_for_selector("#f-create")
    assert page.is_checked("#sound-toggle")
    page.click(".settings summary")
    page.uncheck("#sound-toggle")
    page.reload()
    page.wait_for_selector("#f-create")
    assert not page.is_checked("#sound-toggle")


COUNT_ANIMATIONS = """(() => { window.animations = 0; const real = Element.prototype.animate;
  Element.prototype.animate = function (...args) { window.animations += 1;
    return real.apply(this, args); }; })()"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_moves_animate_unless_motion_is_reduced(server: AppServer, browser: Any,
                                                motion: str) -> None:
    made = new_table(server, "dao", None, 2)
    context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
    try:
        context.set_default_timeout(TIMEOUT)
        context.add_init_script(COUNT_ANIMATIONS)
        page = context.new_page()
        page.goto(server.url + made["seats"][0]["url"])
        state = my_turn(server, made)
        page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
        wait_live(page)  # the bot's reply comes as an event, drawn as a move
        act(page, state, pick(state, random.Random(1)))
        after = my_turn(server, made, after=state["version"])  # the bot's reply has come
        page.wait_for_selector(f'#board[data-version="{after["version"]}"]')
        count = page.evaluate("window.animations")
        assert (count >= 2) if motion == "no-preference" else (count == 0), count
    finally:
        context.close()


#: which pieces animate: each animated element's cell, or its place in the tray (@hand)
WHICH_ANIMATE = """(() => { window.animated = []; const real = Element.prototype.animate;
  Element.prototype.animate = function (...args) { const d = this.dataset || {};
    window.animated.push(d.cell || (d.role ? '@' + d.role : '?'));
    return real.apply(this, args); }; })()"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_piece_handed_over_slides_into_the_hand(server: AppServer, browser: Any,
                                                  motion: str) -> None:
    """Folio: the bot's reply places the piece it was given (from its hand onto a cell)
    and gives one (from the pieces left into the person's hand): both move, the laptop's
    wide layout (the tray beside the board) included; nothing under reduced motion."""
    made = new_table(server, "folio", "standard", 2)
    context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
    try:
        context.set_default_timeout(TIMEOUT)
        context.add_init_script(WHICH_ANIMATE)
        page = context.new_page()
        page.goto(server.url + made["seats"][0]["url"])
        state = my_turn(server, made)
        wait_live(page)  # the bot's reply comes as an event, drawn as a move
        while not state["view"]["board"].get("hand"):  # the opening give: no hand yet
            page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
            act(page, state, pick(state, random.Random(2)))
            state = my_turn(server, made, after=state["version"])
        page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
        assert page.evaluate("document.querySelector('#board svg').classList.contains('wide')")
        page.evaluate("window.animated = []")
        act(page, state, pick(state, random.Random(3)))
        after = my_turn(server, made, after=state["version"])
        if after["outcome"]:
            pytest.skip("the game ended before the bot's reply")
        page.wait_for_selector(f'#board[data-version="{after["version"]}"]')
        animated = page.evaluate("window.animated")
        if motion == "reduce":
            assert animated == []
        else:
            assert "@hand" in animated, animated
            assert [a for a in animated if not a.startswith("@")], animated  # a placed piece
    finally:
        context.close()


def test_a_seat_downloads_its_own_record(server: AppServer, pages: Pages) -> None:
    made = server.create("quatrefoil", ["human", "bot:level1", "bot:level1", "bot:level1"],
                         variant="base", seed=3)
    page = seat_page(pages, server, made)
    state = my_turn(server, made)  # the bots wait for this seat: the record stands still
    page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
    with page.expect_download() as download:
        page.click("#record-link")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    token = made["seats"][0]["token"]

    def record(headers: dict[str, str]) -> str:
        r = httpx.get(f"{server.url}/api/tables/{made['id']}/record", headers=headers,
                      timeout=30)
        assert r.status_code == 200, r.text
        return r.text

    own = record({"Authorization": f"Bearer {token}"})
    assert text == own != record({})  # the seat's, with its own cards: not the spectator's


def test_a_piece_is_dragged_to_where_it_stops(server: AppServer, pages: Pages) -> None:
    made = new_table(server, "dao", None, 2)
    page = seat_page(pages, server, made)
    state = my_turn(server, made)
    page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
    page.wait_for_selector('#board g.square[role="button"]')
    origin, landing = state["legal"][0].split("-")
    x0, y0 = centre(page, f'#board g.square[data-cell="{origin}"]')
    x1, y1 = centre(page, f'#board g.square[data-cell="{landing}"]')
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=5)
    page.wait_for_selector(f'#board g.square.landing[data-cell="{landing}"]')  # shown mid-drag
    page.mouse.move(x1, y1, steps=5)
    page.mouse.up()
    moved_past(server, made, state["version"])
    record = httpx.get(f"{server.url}/api/tables/{made['id']}/record?format=json",
                       timeout=30).json()
    assert record["moves"][0] == state["legal"][0], record


def test_a_team_plays_again_from_the_same_seats_with_a_new_deal(server: AppServer,
                                                                 pages: Pages) -> None:
    made = server.create("quatrefoil", ["bot:level1", "human", "bot:level1", "bot:level1"],
                         variant="base")
    page = seat_page(pages, server, made, seat=1)
    state = my_turn(server, made, seat=1)
    token = made["seats"][1]["token"]
    if not state["outcome"]:  # a level-1 bot may stack, ending the game before this seat acts
        r = httpx.post(f"{server.url}/api/tables/{made['id']}/resign",
                       json={"version": state["version"]},
                       headers={"Authorization": f"Bearer {token}"}, timeout=30)
        assert r.status_code == 200, r.text
    page.wait_for_selector("#rematch")
    assert "Play again (same seats, a new deal)" in page.inner_text("#rematch")
    page.click("#rematch")
    page.wait_for_url(lambda url: made["id"] not in url)
    # the new table's page may not have drawn its turn line yet when its URL is set
    page.wait_for_function("() => /\\(seat 2\\)/.test((document.querySelector('.who')"
                           " || {}).textContent || '')")
    again = page.url.split("/t/")[1].split("#")[0]
    seats = server.state(again, token)
    assert seats["you"] == 1
    assert [s["kind"] for s in seats["seats"]] == ["bot", "human", "bot", "bot"]


def test_the_piece_in_hand_is_dragged_onto_a_cell_and_a_piece_given_by_drag(
        server: AppServer, pages: Pages) -> None:
    made = new_table(server, "quarto", None, 2)
    page = seat_page(pages, server, made)
    state = my_turn(server, made)
    if " " not in state["legal"][0]:  # the opening give first: then a piece is in hand
        page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
        act(page, state, state["legal"][0])
        moved_past(server, made, state["version"])
        state = my_turn(server, made)
    page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
    page.wait_for_selector('#board g.piece.draggable[data-role="hand"]')
    cell = state["legal"][0].split(" ")[0]
    x0, y0 = centre(page, '#board g.piece[data-role="hand"]')
    x1, y1 = centre(page, f'#board g.square[data-cell="{cell}"]')
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=8)
    page.mouse.up()
    page.wait_for_selector(f'#board g.square.selected[data-cell="{cell}"]')  # placed there
    assert "Now choose the piece to give" in page.inner_text("#controls")
    # then a piece to give, dragged onto the hand's box: the move is made
    give = next(m.split(" ")[1] for m in state["legal"] if m.startswith(f"{cell} "))
    x0, y0 = centre(page, f'#board g.piece.draggable[data-role="supply"][data-piece="{give}"]')
    x1, y1 = centre(page, '#board g.piece[data-role="hand"]')
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=8)
    page.mouse.up()
    moved_past(server, made, state["version"])
    record = httpx.get(f"{server.url}/api/tables/{made['id']}/record?format=json",
                       timeout=30).json()
    assert f"{cell} {give}" in record["moves"], record


WINDOW = {"width": 1280, "height": 860}


@pytest.mark.parametrize(("game", "variant", "players"), RULESETS)
def test_on_a_desktop_the_board_is_the_page(server: AppServer, pages: Pages, game: str,
                                            variant: str | None, players: int) -> None:
    made = new_table(server, game, variant, players)
    page = pages.open(server.url + made["seats"][0]["url"], WINDOW)
    page.wait_for_selector("#controls .controls-inner")
    board = box(page, "#board svg")
    assert board["height"] >= 600, board
    for what in ("#turn", "#controls .prompt"):  # whose turn and what to do: no scrolling
        where = box(page, what)
        assert where["y"] + where["height"] <= WINDOW["height"], (what, where)
    assert page.evaluate("scrollY") == 0
