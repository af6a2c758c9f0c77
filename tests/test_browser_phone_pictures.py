"""The board pictures on a phone and a laptop, measured from the DOM of a real Chromium
against a real ``fourfold serve`` on loopback (issue 31).

Every ruleset is opened at its start and in a mid-game, as the seat to move (so the
picture's cells, pieces to give, stacks and arrows are buttons), on a phone (390x844,
touch) and a laptop (1280x860). On the phone:

- every text of the picture is at least 12 CSS px (the bar Quatrefoil's picture set);
- every button of the picture, and every piece one may drag, owns a 44x44 CSS px
  square (WCAG 2.5.5): a tap anywhere in the square centred on it reaches it, not a
  neighbour (a pad that overlaps the next piece's pad does not count).

On both (the laptop in the mid-game only): no text leaves the picture's viewBox (a
clipped label), no count badge (``×2``) or other label covers a piece or another
label. On the laptop the picture is drawn at least 600 px tall and is no tall strip
in the middle of its column (drawn at least 0.7 times as wide as tall: a picture with
a wide layout, the tray or the seats beside the board, is shown in it, and before it
had one Folio's 8x8 board was a strip 447 px wide and 740 px tall). The mid-games are
reached by seeded random moves sent to the server as each seat; no move is made by
the page.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import fourfold
from support.browser_app import TIMEOUT, AppServer

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 860}

RULESETS = [(name, variant.name) for name in fourfold.game_names()
            for variant in fourfold.get_spec(name).variants if variant.unavailable is None]
#: plies of seeded random play before the measured mid-game (then on to seat 1's turn)
MID_PLIES = 7

#: Texts under 12 CSS px, texts outside the viewBox, and labels that cover a piece or
#: another label: one line per problem.
TEXT_PROBLEMS = """(minPx) => {
  const svg = document.querySelector('#board svg');
  const vb = svg.viewBox.baseVal;
  const problems = [];
  // the texts shown: a picture with two layouts hides one layout's own labels
  const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim()
    && t.checkVisibility());
  const name = (el) => `${el.tagName}.${el.getAttribute('class') || ''}` +
    (el.tagName === 'text' ? ` "${el.textContent}"` : '');
  for (const t of texts) {
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    if (minPx && px < minPx - 0.01) problems.push(`${name(t)} is ${px.toFixed(1)} px`);
    const b = t.getBBox();
    const c = svg.getScreenCTM().inverse().multiply(t.getScreenCTM());  // to viewBox units
    const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
      [b.x + b.width, b.y + b.height]];
    const xs = corners.map(([x, y]) => x * c.a + y * c.c + c.e);
    const ys = corners.map(([x, y]) => x * c.b + y * c.d + c.f);
    if (Math.min(...xs) < vb.x - 0.5 || Math.max(...xs) > vb.x + vb.width + 0.5 ||
        Math.min(...ys) < vb.y - 0.5 || Math.max(...ys) > vb.y + vb.height + 0.5) {
      problems.push(`${name(t)} is clipped by the viewBox`);
    }
  }
  const LABELS = ['status', 'note', 'coord', 'label', 'count', 'signal-text', 'tick', 'code'];
  const SOLID = ['body', 'token', 'card', 'signal', 'pip'];
  const has = (el, list) => list.some((k) => el.classList.contains(k));
  const meet = (a, b) => a.left + 1 < b.right && b.left + 1 < a.right &&
    a.top + 1 < b.bottom && b.top + 1 < a.bottom;
  const labels = texts.filter((t) => has(t, LABELS)).map((t) => [t, t.getBoundingClientRect()]);
  const solids = [...svg.querySelectorAll('rect,circle,polygon,path,ellipse')]
    .filter((s) => has(s, SOLID)).map((s) => [s, s.getBoundingClientRect()]);
  labels.forEach(([t, r], i) => {
    for (const [u, q] of labels.slice(i + 1)) {
      if (meet(r, q)) problems.push(`${name(t)} covers ${name(u)}`);
    }
    for (const [s, q] of solids) {
      const own = t.classList.contains('code') && s.closest('g.piece') === t.closest('g.piece');
      if (meet(r, q) && !own) {  // a Quarto piece's code is drawn under its own shape
        const piece = s.closest('[data-piece]')?.dataset.piece || '?';
        problems.push(`${name(t)} covers ${name(s)} of ${piece}`);
      }
    }
  });
  return problems;
}"""

#: The picture's buttons and draggable pieces, each as [label, problem] when the square
#: of TAP x TAP CSS px centred on it is not all its own (sampled on a 7x7 grid of points:
#: each must reach the element itself, through its own drawing or its pad).
TAP_PROBLEMS = """(tap) => {
  const svg = document.querySelector('#board svg');
  const targets = [...new Set([...svg.querySelectorAll('[role="button"], .draggable')])]
    .filter((el) => !el.hasAttribute('data-keys'));  // the freeform table's keyboard cursor
  const pads = new Map();
  for (const r of svg.querySelectorAll('rect.hit')) if (r.hitFor) pads.set(r.hitFor, r);
  const owner = (node) => {
    if (!node) return null;
    const el = node.hitFor || node;
    return targets.find((t) => t === el || t.contains(el)) || null;
  };
  const named = (el) => el.getAttribute('aria-label') || el.dataset.piece;
  const problems = [];
  const reach = (el) => {  // the box of the element with its pad, on screen now
    const boxes = [el.getBoundingClientRect()];
    if (pads.has(el)) boxes.push(pads.get(el).getBoundingClientRect());
    const most = (f, key) => f(...boxes.map((b) => b[key]));
    return {left: most(Math.min, 'left'), right: most(Math.max, 'right'),
      top: most(Math.min, 'top'), bottom: most(Math.max, 'bottom')};
  };
  for (const el of targets) {
    const before = reach(el);
    window.scrollBy(0, (before.top + before.bottom) / 2 - window.innerHeight / 2);
    const box = reach(el);
    const [x0, y0] = [(box.left + box.right) / 2, (box.top + box.bottom) / 2];
    const label = named(el) || el.dataset.cell || el.tagName;
    const miss = [];
    const half = tap / 2 - 0.5;
    for (let i = 0; i < 7; i++) {
      for (let j = 0; j < 7; j++) {
        const [x, y] = [x0 - half + 2 * half * i / 6, y0 - half + 2 * half * j / 6];
        const under = document.elementFromPoint(x, y);
        const found = owner(under);
        if (found !== el) {
          const other = found ? named(found) || 'another button'
            : (under ? `${under.tagName}.${under.getAttribute('class') || ''}` : 'nothing');
          miss.push(`(${(x - x0).toFixed(0)},${(y - y0).toFixed(0)}) reaches ${other}`);
        }
      }
    }
    if (miss.length) {
      const size = `${(box.right - box.left).toFixed(0)}x${(box.bottom - box.top).toFixed(0)}`;
      problems.push(`${label} (${size} px with its pad): ${miss.length}/49 points miss it,` +
        ` e.g. ${miss[0]}`);
    }
  }
  window.scrollTo(0, 0);
  return problems;
}"""


#: ``[width, height]`` of the picture as drawn, in CSS px: its viewBox fitted in its box
DRAWN = """() => {
  const svg = document.querySelector('#board svg');
  const box = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  const scale = Math.min(box.width / vb.width, box.height / vb.height);
  return [vb.width * scale, vb.height * scale];
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(tmp_path_factory.mktemp("phone-pictures")).start()
    try:
        yield app
    finally:
        app.stop()


def play_randomly(server: AppServer, made: dict[str, Any], plies: int, seed: int) -> int:
    """``plies`` seeded random moves (none that ends the game, no challenge, no stack),
    then on until seat 1 is to act; returns the table's version."""
    rng = random.Random(seed)
    table = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    state = server.state(table)
    for count in range(plies + 40):
        if count >= plies and 0 in state["to_act"]:
            break
        mover = state["to_act"][0] if count < plies or 0 not in state["to_act"] else 0
        mine = server.state(table, tokens[mover])
        quiet = [m for m in mine["legal"] if m not in ("challenge", "stack")
                 and not m.endswith(":stack") and ":stack@" not in m]
        move = rng.choice(quiet)
        r = httpx.post(f"{server.url}/api/tables/{table}/moves", json={
            "move": move, "version": mine["version"]},
            headers={"Authorization": f"Bearer {tokens[mover]}"}, timeout=30)
        assert r.status_code == 200, r.text
        state = server.state(table)
        assert state["outcome"] is None, f"random play ended the game: {state['outcome']}"
    assert 0 in state["to_act"], "seat 1 never came to act"
    version: int = state["version"]
    return version


def positions(server: AppServer, game: str, variant: str) -> list[tuple[str, str]]:
    """``(label, seat 1's URL)`` at the start and in a mid-game, seat 1 to act."""
    n = 4 if game == "quatrefoil" else 2
    found = []
    for label, plies in (("start", 0), ("mid", MID_PLIES)):
        made = server.create(game, ["human"] * n, variant=variant, seed=11)
        play_randomly(server, made, plies, seed=5)
        found.append((label, server.url + made["seats"][0]["url"]))
    return found


def open_board(context: Any, url: str) -> Any:
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#board.acting svg [role='button']", timeout=TIMEOUT)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return page


@pytest.mark.parametrize(("game", "variant"), RULESETS, ids=[f"{g}-{v}" for g, v in RULESETS])
def test_the_picture_on_a_phone_and_a_laptop(server: AppServer, browser: Any, game: str,
                                             variant: str) -> None:
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    laptop = browser.new_context(viewport=LAPTOP)
    problems: list[str] = []
    try:
        for label, url in positions(server, game, variant):
            page = open_board(phone, url)
            width = page.evaluate(
                "document.querySelector('#board svg').getBoundingClientRect().width")
            assert width >= 350, f"{label}: the board is {width:.0f} px wide on a phone"
            problems += [f"{label}, phone: {p}" for p in page.evaluate(TEXT_PROBLEMS, 12)]
            problems += [f"{label}, phone: {p}" for p in page.evaluate(TAP_PROBLEMS, 44)]
            page.close()
            if label == "start":  # the same picture, larger: the mid-game is enough
                continue
            page = open_board(laptop, url)
            width, height = page.evaluate(DRAWN)
            if height < 600:
                problems.append(f"{label}, laptop: the board is {height:.0f} px tall")
            if width < 0.7 * height:
                problems.append(f"{label}, laptop: the board is a strip {width:.0f} px wide"
                                f" and {height:.0f} px tall")
            problems += [f"{label}, laptop: {p}" for p in page.evaluate(TEXT_PROBLEMS, 0)]
            page.close()
    finally:
        phone.close()
        laptop.close()
    assert problems == [], "\n".join(problems)


def test_the_replay_shows_the_wide_layout_on_a_laptop(server: AppServer, browser: Any) -> None:
    """The replay page lays its picture out as the table does: on a laptop Folio's tray
    stands beside the board (the wide layout), and the board is no tall strip; on a
    phone the narrow layout stays."""
    made = server.create("folio", ["human", "human"], variant="standard", seed=11)
    play_randomly(server, made, MID_PLIES, seed=5)
    url = f"{server.url}/replay/{made['id']}#seat={made['seats'][0]['token']}"
    for viewport, wide in ((LAPTOP, True), (PHONE, False)):
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector("#replay-moves li", timeout=TIMEOUT)
            page.click("#r-last")
            page.wait_for_function(
                "(wide) => { const svg = document.querySelector('#replay-board svg');"
                " return svg && svg.classList.contains('wide') === wide"
                " && document.querySelector('#replay-slider').value !== '0'; }",
                arg=wide, timeout=TIMEOUT)
            width, height = page.evaluate(DRAWN.replace("#board svg", "#replay-board svg"))
            if wide:
                assert height >= 600 and width >= 0.7 * height, f"drawn {width:.0f}x{height:.0f} px"
        finally:
            context.close()
