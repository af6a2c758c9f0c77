"""Moving about the browser app's board with the keyboard alone, as a player would: Tab
into the board (its buttons are one Tab stop), then the arrow keys towards the square,
piece or point wanted (the page moves the focus to the nearest button that way). Every
loop is bounded."""

from __future__ import annotations

import math
from collections import Counter
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


def arrows_to(page: Any, selector: str) -> None:
    """Move the focus with the arrow keys to the board's button at ``selector``: the
    arrow towards it along the longer way, or along the other way when the focus comes
    back to a button it has been on (the way a player gets round a corner)."""
    into_board(page)
    target = page.locator(selector).first
    target.wait_for()
    seen: Counter[tuple[Any, ...]] = Counter()
    for _ in range(MOST_KEYS):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
        now = focused(page)
        assert now is not None, "the focus left the board"
        box = target.bounding_box()
        assert box is not None
        dx = box["x"] + box["width"] / 2 - now["x"]
        dy = box["y"] + box["height"] / 2 - now["y"]
        across = "ArrowRight" if dx > 0 else "ArrowLeft"
        down = "ArrowDown" if dy > 0 else "ArrowUp"
        first, second = (across, down) if abs(dx) >= abs(dy) else (down, across)
        if min(abs(dx), abs(dy)) < 4:
            second = first
        here = (now["cell"], now["piece"], now["action"], round(now["x"]), round(now["y"]))
        seen[here] += 1
        page.keyboard.press(first if seen[here] % 2 == 1 else second)
    raise AssertionError(f"the arrow keys never reached {selector} (at {focused(page)}, "
                         f"target at {target.bounding_box()})")


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
