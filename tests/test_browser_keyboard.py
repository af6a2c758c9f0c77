"""Whole games by keyboard alone (issue 31), in a real Chromium against a real
``fourfold serve``: Dao, Ice Dao, Quarto, and Folio's standard, fixed-grid, no-grid and
freeform variants, each played to its end against a level-1 bot, with no mouse, no tap
and never the *Type a move* box.

The keys are the ones a player would press: Tab into the board, the arrow keys from one
square or piece to the next (the board's buttons are one Tab stop), Enter or Space to
choose, Escape to forget a choice; on Folio's freeform table the arrow keys move a
cursor (0.5 a press, 0.1 with Shift; [ and ] turn its axes). After every move the focus
is still on the board and drawn. Screen readers are told whose turn it is and every
move (the polite live regions #announce and #turn), checked from what those regions
said during the game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import pytest

from support.browser_app import DESKTOP, AppServer, Pages, configured, pick, wait_live
from support.keyboard import arrows_to, cursor_point, cursor_to, focused, into_board, tab_to
from support.wait import wait_until

#: the rulesets played here, as (game, variant); Quatrefoil's keyboard game is its own
#: test (tests/test_browser_quatrefoil*.py)
RULESETS = [("dao", None), ("icedao", None), ("quarto", None), ("folio", "standard"),
            ("folio", "fixed-grid"), ("folio", "no-grid"), ("folio", "freeform")]
#: at most this many of the person's own moves (a level-1 bot ends these games sooner)
MOST_MOVES = 90

#: what the page's live regions said, collected from the moment the page opens
LISTEN = """() => {
  window.said = [];
  const note = (el) => new MutationObserver(() => {
    const t = el.textContent.trim();
    if (t) window.said.push(t);
  }).observe(el, {childList: true, characterData: true, subtree: true});
  note(document.getElementById('announce'));
  const turn = document.getElementById('turn');
  if (turn) note(turn);
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(tmp_path_factory.mktemp("browser-keyboard")).start()
    try:
        yield app
    finally:
        app.stop()


def my_turn(server: AppServer, made: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    """The seat's state once it may act (or the game is over)."""
    token = made["seats"][seat]["token"]
    found: dict[str, Any] = wait_until(
        lambda: (lambda s: s if s["legal"] or s["outcome"] else None)(
            server.state(made["id"], token)), 30, "the seat's turn")
    return found


def landed(server: AppServer, made: dict[str, Any], version: int, what: str) -> None:
    wait_until(lambda: server.state(made["id"])["version"] > version, 20, f"{what} to land")


def short_pick(state: dict[str, Any], rng: random.Random) -> str:
    """A winning move, else (in the sliding games, whose random games run long) one that
    lets the bot win at once, else any legal move: the game reaches its end soon."""
    if state["game"] not in ("dao", "icedao"):
        return pick(state, rng)
    game = configured(state)
    position = game.parse_position(state["view"]["position"])
    me = state["you"]
    legal = [str(m) for m in state["legal"]]
    rng.shuffle(legal)
    for text in legal:
        ended = game.outcome(game.play(position, text))
        if ended is not None and ended.winner == me:
            return text
    for text in legal:
        after = game.play(position, text)
        if game.outcome(after) is None and any(
                (lambda o: o is not None and o.winner != me)(game.outcome(game.apply(after, r)))
                for r in game.legal_moves(after)):
            return text
    return legal[0]


def on_the_table_shown(page: Any, state: dict[str, Any]) -> dict[str, Any]:
    """``state`` with only the legal moves a player can reach on the table as drawn: in
    freeform, the spots inside the picture's window (``data-world``), as for a click."""
    if state["variant"] != "freeform":
        return state
    x0, y0, span = (float(v) for v in page.get_attribute("#board [data-world]",
                                                          "data-world").split(" "))

    def shown(move: str) -> bool:
        if " " not in move and "," not in move:
            return True
        x, y = (float(v) for v in move.split(" ")[0].split(","))
        return x0 <= x <= x0 + span and y0 <= y <= y0 + span
    return {**state, "legal": [m for m in state["legal"] if shown(m)]}


def keyboard_move(page: Any, state: dict[str, Any], move: str) -> None:
    """``move`` made with the keyboard alone, the way the page offers it."""
    game, variant = state["game"], state["variant"]
    if move in ("pass", "challenge"):
        tab_to(page, f'#controls button[data-move="{move}"]')
        page.keyboard.press("Enter")
        return
    if game in ("dao", "icedao"):
        origin, landing = move.split("-")
        arrows_to(page, f'#board g.square[role="button"][data-cell="{origin}"]')
        page.keyboard.press("Enter")
        page.wait_for_selector(f'#board g.square.landing[data-cell="{landing}"]')
        arrows_to(page, f'#board g.square.landing[data-cell="{landing}"]')
        page.keyboard.press("Space")
        return
    pieces = {p["piece"] for p in state["view"]["board"]["pieces"]}
    parts = move.split(" ")
    cell, give = (parts[0], parts[1]) if len(parts) == 2 else (
        (None, parts[0]) if parts[0] in pieces else (parts[0], None))
    if give is not None:
        arrows_to(page, f'#board g.piece.choosable[data-piece="{give}"]')
        page.keyboard.press("Enter")
        if cell is None:
            return
        page.wait_for_selector(f'#board g.piece.selected[data-piece="{give}"]')
    assert cell is not None
    if variant == "freeform":
        cursor_to(page, cell)
    else:
        arrows_to(page, f'#board g.square.target[data-cell="{cell}"]')
    page.keyboard.press("Enter")


def check_focus_kept(page: Any) -> None:
    where = page.evaluate("""() => { const a = document.activeElement;
      return a && (a.closest('#board') || a.closest('#controls')) ? 'board' : a.tagName; }""")
    assert where == "board", where
    assert page.evaluate("""() => { const a = document.activeElement;
      return a.id === 'board' || getComputedStyle(a).outlineStyle !== 'none'; }""")


@pytest.mark.parametrize(("game", "variant"), RULESETS)
def test_a_whole_game_by_keyboard(server: AppServer, pages: Pages, game: str,
                                  variant: str | None) -> None:
    made = server.create(game, ["human", "bot:level1"], variant=variant)
    page = pages.open(server.url + made["seats"][0]["url"], DESKTOP)
    page.wait_for_selector("#board svg")
    page.evaluate(LISTEN)
    # a move made before the page's socket is welcomed goes over HTTP (its fallback), and
    # the bot's moves made meanwhile are not read aloud one by one: live first
    wait_live(page)
    typed: list[str] = []
    page.on("request", lambda r: typed.append(r.url) if "/moves" in r.url else None)
    rng = random.Random(f"{game}-{variant}")
    mine = 0
    for _ in range(MOST_MOVES):
        state = my_turn(server, made)
        if state["outcome"]:
            break
        page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
        page.wait_for_selector("#controls .controls-inner")
        move = short_pick(on_the_table_shown(page, state), rng)
        keyboard_move(page, state, move)
        mine += 1
        landed(server, made, state["version"], move)
        page.wait_for_function("(v) => +document.querySelector('#board').dataset.version > v",
                               arg=state["version"])
        check_focus_kept(page)
    ended = wait_until(lambda: server.state(made["id"])["outcome"], 30, "the end")
    assert ended, "the game did not end"
    page.wait_for_selector("#banner:not([hidden])")
    # one name per seat: the banner and the picture name the winner alike
    if ended["result"] == "win":
        person = server.state(made["id"])["seats"][0]["name"]
        name = "Bot level 1" if ended["winner"] == 1 else person
        page.wait_for_function("() => !!document.querySelector('#board svg text.status')")
        head = " ".join(page.locator("#board svg text.status").all_text_contents())
        assert f"{name} wins" in page.inner_text("#banner") and f"{name}" in head, head
        assert "Player 2" not in head, head
    assert mine > 0
    assert page.input_value("#move-input") == "" and not typed  # never the move box
    said = " | ".join(page.evaluate("window.said"))
    assert "Your turn" in said, said
    assert "Bot level 1 played" in said, said  # each of the bot's moves, by the page's name
    assert "Game over" in said, said


#: how many boards of buttons (a seeded random subset of a 4x4 board's squares each) are
#: checked for buttons the arrow keys cannot reach
BOARDS = 300

#: the squares of a 4x4 board drawn as the sliding games draw theirs (a group per square,
#: a1 at the bottom left), each a button where ``cells`` says; every button's way to every
#: other by the page's own arrow rule (kit.js's arrowTarget): the pairs with none
UNREACHED = """async ([boards, seed, fixed]) => {
  const app = document.querySelector('script[src$="/app.js"]').getAttribute('src');
  const kit = await import(app.replace(/app\\.js$/, 'kit.js'));
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('width', '400'); svg.setAttribute('height', '400');
  document.body.prepend(svg);
  const names = [];
  for (let sq = 0; sq < 16; sq++) {
    const [x, y] = [sq % 4, Math.floor(sq / 4)];
    const g = document.createElementNS(NS, 'g');
    const r = document.createElementNS(NS, 'rect');
    r.setAttribute('x', 100 * x); r.setAttribute('y', 100 * (3 - y));
    r.setAttribute('width', 100); r.setAttribute('height', 100);
    g.append(r);
    svg.append(g);
    names.push('abcd'[x] + (y + 1));
  }
  const groups = [...svg.children];
  let state = seed;
  const next = () => { state = (state * 48271) % 2147483647; return state / 2147483647; };
  const missed = [];
  for (let n = 0; n <= boards; n++) {
    const cells = n === 0 ? fixed : names.filter(() => next() < 0.4);
    groups.forEach((g, i) => {
      if (cells.includes(names[i])) g.setAttribute('role', 'button');
      else g.removeAttribute('role');
    });
    const buttons = groups.filter((g) => g.getAttribute('role') === 'button');
    for (const start of buttons) {
      const seen = new Set([start]);
      const queue = [start];
      while (queue.length) {
        const at = queue.shift();
        for (const key of ['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp', 'Home', 'End']) {
          const to = kit.arrowTarget(svg, at, key);
          if (to && !seen.has(to)) { seen.add(to); queue.push(to); }
        }
      }
      for (const b of buttons.filter((b) => !seen.has(b))) {
        const [from, to] = [start, b].map((g) => names[groups.indexOf(g)]);
        missed.push(`${cells.join(' ')}: ${from} to ${to}`);
      }
    }
  }
  svg.remove();
  return missed;
}"""


def test_the_arrow_keys_reach_every_button_of_a_sparse_board(server: AppServer,
                                                             pages: Pages) -> None:
    """From any button of the board, any other, whichever squares are buttons: the
    nearest button that way alone left some out (in CI's Dao game, a1 chosen with buttons
    on c1, a3, c3 and d4: its landing on b2 was the nearest of none of them)."""
    page = pages.open(server.url + "/", DESKTOP)
    page.wait_for_selector('script[src$="/app.js"]', state="attached")
    missed = page.evaluate(UNREACHED, [BOARDS, 7, ["a1", "c1", "b2", "a3", "c3", "d4"]])
    assert not missed, missed[:10]


def test_the_freeform_cursor_turns_its_axes_and_takes_fine_steps(server: AppServer,
                                                                 pages: Pages) -> None:
    made = server.create("folio", ["human", "bot:level1"], variant="freeform")
    page = pages.open(server.url + made["seats"][0]["url"], DESKTOP)
    rng = random.Random(5)
    for _ in range(4):  # past the forced first placement, to a choice of spots
        state = my_turn(server, made)
        page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
        if len({m.split(" ")[0] for m in state["legal"] if " " in m}) > 1:
            break
        keyboard_move(page, state, pick(on_the_table_shown(page, state), rng))
        landed(server, made, state["version"], "the move")
    tab_to(page, "#board g.cursor")
    x, y = cursor_point(page)
    label = page.get_attribute("#board g.cursor", "aria-label") or ""
    assert label.startswith("Table cursor at ") and "a legal spot" in label, label
    page.keyboard.press("]")  # the axes turn 15 degrees anticlockwise
    assert "15 degrees" in (page.get_attribute("#board g.cursor", "aria-label") or "")
    page.keyboard.press("ArrowRight")
    nx, ny = cursor_point(page)
    turn = math.radians(15)
    assert math.isclose(nx - x, 0.5 * math.cos(turn), abs_tol=1e-5)
    assert math.isclose(ny - y, 0.5 * math.sin(turn), abs_tol=1e-5)
    page.keyboard.press("0")
    page.keyboard.press("Shift+ArrowUp")
    fx, fy = cursor_point(page)
    assert math.isclose(fx, nx, abs_tol=1e-6) and math.isclose(fy, ny + 0.1, abs_tol=1e-6)
    assert "off-list" in (page.get_attribute("#board g.cursor", "class") or "")
    # a piece to give, then Enter on a point off the server's list: sent as notation
    give = next(m.split(" ")[1] for m in state["legal"] if " " in m)
    page.keyboard.press("Shift+Tab")
    arrows_to(page, f'#board g.piece.choosable[data-piece="{give}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#board g.piece.selected[data-piece="{give}"]')
    tab_to(page, "#board g.cursor")
    assert cursor_point(page) == (fx, fy)
    page.keyboard.press("Enter")
    wait_until(lambda: server.state(made["id"])["version"] > state["version"]
               or page.inner_text("#feedback").strip(), 20, "the move judged")
    played = server.state(made["id"])["version"] > state["version"]
    feedback = page.inner_text("#feedback")
    # the server judged the point: played (with its coordinates) or refused with a reason
    assert played or feedback.startswith(("Not allowed", "Refused")), feedback
    # Escape forgets a chosen piece
    if not played:
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('#board g.piece.selected')")


def test_escape_forgets_a_chosen_piece_and_keeps_the_focus(server: AppServer,
                                                           pages: Pages) -> None:
    made = server.create("dao", ["human", "bot:level1"])
    token = made["seats"][0]["token"]
    page = pages.open(server.url + made["seats"][0]["url"], DESKTOP)
    state = wait_until(lambda: (lambda s: s if s["legal"] else None)(
        server.state(made["id"], token)), 30, "the seat's turn")
    page.wait_for_selector(f'#board[data-version="{state["version"]}"]')
    into_board(page)
    assert page.evaluate("""() => [...document.querySelectorAll('#board [role="button"]')]
      .filter((b) => b.getAttribute('tabindex') === '0').length""") == 1  # one Tab stop
    cell = focused(page)["cell"]  # type: ignore[index]
    page.keyboard.press("Enter")
    page.wait_for_selector("#board g.square.landing")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('#board g.square.landing')")
    now = focused(page)
    assert now is not None and now["cell"] == cell
