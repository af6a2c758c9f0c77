"""Every ruleset's picture, laid out by a real Chromium: no label leaves the picture,
covers another label, or covers a piece, token, card or signal.

Catches what a reader sees as clipping or clutter (issue 31: Quatrefoil's "you, to
move" ran under the seat's colour card; Folio's ``×2`` counts sat on the large
pyramids). Text drawn on a piece on purpose (its letter, a card's face, a banner) is
not a label and is not checked. Seat views are drawn too, since only they show a
seat's own cards and its "you" note.
"""

from __future__ import annotations

from typing import Any

import pytest

import fourfold
from fourfold.render.svg import draw_svg
from support.svg_cases import Case, all_cases, random_play


def seat_cases() -> list[Case]:
    """Each seat's view of two seeded mid-games of every playable ruleset."""
    cases: list[Case] = []
    for name in fourfold.game_names():
        for variant in fourfold.get_spec(name).variants:
            if variant.unavailable is not None:
                continue
            game = fourfold.load(name, variant.name)
            for seed in (1, 7):
                state, last = random_play(game, seed, 6)
                for seat in range(game.num_players):
                    label = f"{name}-{variant.name}-mid{seed}-seat{seat + 1}"
                    cases.append((label, game, game.view(state, seat), last))
            start = game.initial_state(1)
            for seat in range(game.num_players):  # the seat to move is also "you"
                label = f"{name}-{variant.name}-start-seat{seat + 1}"
                cases.append((label, game, game.view(start, seat), None))
    return cases


CASES = all_cases() + seat_cases()

#: Labels (by class) that must stand clear, and the solid shapes they must not cover.
FIND_COLLISIONS = """(svgText) => {
  document.body.innerHTML = svgText;
  const svg = document.querySelector('svg');
  const box = svg.getBoundingClientRect();
  const LABELS = ['status', 'note', 'coord', 'label', 'count', 'signal-text', 'tick'];
  const SOLID = ['body', 'token', 'card', 'signal', 'pip'];
  const has = (el, list) => list.some((c) => el.classList.contains(c));
  const name = (el) => `${el.tagName}.${el.getAttribute('class')}` +
    (el.tagName === 'text' ? ` "${el.textContent}"` : '');
  const meet = (a, b) => a.left + 1 < b.right && b.left + 1 < a.right &&
    a.top + 1 < b.bottom && b.top + 1 < a.bottom;
  const labels = [...svg.querySelectorAll('text')].filter((t) => has(t, LABELS) && t.textContent);
  const solids = [...svg.querySelectorAll('rect,circle,polygon,path,ellipse')]
    .filter((s) => has(s, SOLID)).map((s) => [s, s.getBoundingClientRect()]);
  const rects = labels.map((t) => t.getBoundingClientRect());
  const problems = [];
  labels.forEach((t, i) => {
    const r = rects[i];
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 ||
        r.bottom > box.bottom + 0.5) problems.push(`${name(t)} leaves the picture`);
    for (let j = i + 1; j < labels.length; j++) {
      if (meet(r, rects[j])) problems.push(`${name(t)} covers ${name(labels[j])}`);
    }
    for (const [s, sr] of solids) {
      if (meet(r, sr)) problems.push(`${name(t)} covers ${name(s)}`);
    }
  });
  return problems;
}"""


@pytest.fixture(scope="module")
def page(browser: Any) -> Any:
    page = browser.new_page()
    page.set_content("<!doctype html><html><body style='margin:0'></body></html>")
    yield page
    page.close()


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_labels_stand_clear(page: Any, case: Case) -> None:
    _label, game, view, last = case
    problems = page.evaluate(FIND_COLLISIONS, draw_svg(game, view, last_move=last))
    assert problems == []


def test_the_checker_sees_a_label_on_a_card(page: Any) -> None:
    """The check itself can fail: a label drawn over a card is reported."""
    svg = ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 200 100' width='200' "
           "height='100'><rect class='card' x='20' y='10' width='40' height='50'/>"
           "<text class='label' x='10' y='30' font-size='12'>you, to move</text>"
           "<text class='label' x='150' y='120' font-size='12'>below</text></svg>")
    problems = page.evaluate(FIND_COLLISIONS, svg)
    assert any("covers rect.card" in p for p in problems)
    assert any('"below" leaves the picture' in p for p in problems)


# -- Quatrefoil on a phone ----------------------------------------------------------------------

#: the board's width on a 390 px phone, as measured in the page (its padding and the
#: board's frame take 24 px)
PHONE_BOARD = 366
#: names as long as a table allows (40 characters), the page's bot names, and capitals
LONG_NAMES = ("Maximiliano Hernández Oyarzún de la Vega", "Bot level 1 (seat 2)",
              "Bot level 1 (seat 3)", "MARÍA JOSÉ WOŹNIAK")

#: every text of the picture drawn PHONE_BOARD px wide: [text, rendered CSS px] of those
#: under 12 px
SMALL_TEXT = """([svgText, width]) => {
  document.body.innerHTML = `<div style="width:${width}px">${svgText}</div>`;
  const svg = document.querySelector('svg');
  svg.removeAttribute('width'); svg.removeAttribute('height');
  svg.style.width = '100%'; svg.style.height = 'auto'; svg.style.display = 'block';
  return [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim())
    .map((t) => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a])
    .filter(([, px]) => px < 12);
}"""


def named_cases() -> list[Case]:
    """Each Quatrefoil ruleset mid-game and at its end, its seats given long names."""
    cases: list[Case] = []
    for variant in fourfold.get_spec("quatrefoil").variants:
        game = fourfold.load("quatrefoil", variant.name)
        for seed, plies in ((3, 5), (4, None)):
            state, last = random_play(game, seed, plies)
            cases.append((f"quatrefoil-{variant.name}-{seed}-named", game, game.view(state, 0),
                          last))
    return cases


QUATREFOIL = [c for c in CASES if c[1].name == "quatrefoil"]
NAMED = named_cases()


@pytest.mark.parametrize("case", QUATREFOIL + NAMED, ids=[c[0] for c in QUATREFOIL + NAMED])
def test_quatrefoil_text_is_at_least_12_px_on_a_phone(page: Any, case: Case) -> None:
    """At 390x844 the picture is drawn PHONE_BOARD px wide: every text is 12 CSS px or
    more there (it was 6.1 px when the picture was 720 units wide)."""
    label, game, view, last = case
    names = LONG_NAMES if label.endswith("-named") else None
    small = page.evaluate(SMALL_TEXT, [draw_svg(game, view, last_move=last, names=names),
                                       PHONE_BOARD])
    assert small == []


@pytest.mark.parametrize("case", NAMED, ids=[c[0] for c in NAMED])
def test_long_seat_names_stand_clear(page: Any, case: Case) -> None:
    """The table's names (up to 40 characters) wrap, shorten or narrow inside their
    seat's column: no label leaves the picture or covers another or a card."""
    _label, game, view, last = case
    problems = page.evaluate(FIND_COLLISIONS, draw_svg(game, view, last_move=last,
                                                       names=LONG_NAMES))
    assert problems == []
