"""Moving about the browser app's board with the keyboard alone, as a player would: Tab
into the board (its buttons are one Tab stop), then the arrow keys to the square, piece
or point wanted (the page moves the focus to the nearest button that way). Every loop is
bounded."""

from __future__ import annotations

import math
from typing import Any

#: at most this many key presses to reach one square, piece or point
MOST_KEYS = 60

FOCUS = """() => { const a = document.activeElement;
  if (!a || !a.closest('#board')) return null;
  const r = a.getBoundingClientRect();
  return {x: r.left + r.width / 2, y: r.top + r.height / 2,
          cell: a.getAttribute('data-cell'), piece: a.getAttribute('data-piece'),
          action: a.getAttribute('data-action'), keys: a.getAttribute('data-keys'),
          cls: a.getAttribute('class') || ''}; }"""


def focused(page: Any) -> dict[str, Any] | None:
    """Where the focus is on the board (None: not on the board)."""
    found: dict[str, Any] | None = page.evaluate(FOCUS)
    return found


def tab_to(page: Any, selector: str, presses: int = 120) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(presses):
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def into_board(page: Any) -> None:
    """Tab until the focus is on one of the board's buttons (unless it is already)."""
    for _ in range(80):
        now = focused(page)
        if now is not None and now["keys"] is None:
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the board")


#: the keys a player presses to get from the focused button of the board to one that
#: matches a selector: the shortest way, worked out with the page's own arrow rule
#: (kit.js's arrowTarget, the function the arrow keys call), or null
ROUTE = """async (selector) => {
  const app = document.querySelector('script[src$="/app.js"]').getAttribute('src');
  const kit = await import(app.replace(/app\\.js$/, 'kit.js'));
  const svg = document.querySelector('#board svg');
  const start = document.activeElement;
  const keys = ['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp', 'Home', 'End'];
  const came = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const at = queue.shift();
    if (at.matches(selector)) {
      const path = [];
      for (let step = came.get(at), here = at; step; here = step[0], step = came.get(here)) {
        path.unshift(step[1]);
      }
      return path;
    }
    for (const key of keys) {
      const to = kit.arrowTarget(svg, at, key);
      if (to && !came.has(to)) { came.set(to, [at, key]); queue.push(to); }
    }
  }
  return null;
}"""


def arrows_to(page: Any, selector: str) -> None:
    """Move the focus with the arrow keys (Home, End) to the board's button at
    ``selector``, by the fewest presses: the way is worked out with the page's own rule
    for where each key goes, and every press is a real key press."""
    into_board(page)
    page.locator(selector).first.wait_for()
    keys = page.evaluate(ROUTE, selector)
    assert keys is not None, f"no way by the arrow keys from {focused(page)} to {selector}"
    assert len(keys) <= MOST_KEYS, keys
    for key in keys:
        page.keyboard.press(key)
    assert page.evaluate("(s) => document.activeElement.matches(s)", selector), (
        f"the arrow keys {keys} led to {focused(page)}, not {selector}")


def cursor_point(page: Any) -> tuple[float, float]:
    """Where Folio freeform's table cursor is, in table units."""
    text = page.get_attribute("#board g.cursor", "data-point")
    assert text, "the cursor names no point"
    x, y = (float(v) for v in text.split(","))
    return x, y


def cursor_to(page: Any, point: str) -> None:
    """Tab to the freeform table's cursor and walk it to ``point`` with the arrows (0.5 a
    press; 0.1 with Shift for the last bit off the half-unit lattice)."""
    tab_to(page, "#board g.cursor")
    tx, ty = (float(v) for v in point.split(","))
    for _ in range(MOST_KEYS):
        x, y = cursor_point(page)
        same_x, same_y = math.isclose(x, tx, abs_tol=1e-6), math.isclose(y, ty, abs_tol=1e-6)
        if same_x and same_y:
            return
        if not same_x:
            key, gap = ("ArrowRight" if tx > x else "ArrowLeft"), abs(tx - x)
        else:
            key, gap = ("ArrowUp" if ty > y else "ArrowDown"), abs(ty - y)
        page.keyboard.press(("Shift+" if gap < 0.5 - 1e-6 else "") + key)
    raise AssertionError(f"the cursor never reached {point} (at {cursor_point(page)})")
