"""Every ruleset's SVG, rendered by a real Chromium: it loads, has size and is not blank."""

from __future__ import annotations

from typing import Any

import pytest

from fourfold.render.svg import draw_svg
from support.svg_cases import all_cases

CASES = all_cases()

#: Draws the SVG into a canvas and counts pixels far from white and from the page's
#: background colour, so a picture that failed to draw (or drew nothing) scores ~0.
COUNT_INK = """async (svg) => {
  const img = new Image();
  const url = URL.createObjectURL(new Blob([svg], {type: 'image/svg+xml'}));
  await new Promise((ok, fail) => { img.onload = ok; img.onerror = fail; img.src = url; });
  const c = document.createElement('canvas');
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const g = c.getContext('2d');
  g.fillStyle = '#ffffff'; g.fillRect(0, 0, c.width, c.height);
  g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  let ink = 0;
  for (let i = 0; i < d.length; i += 4) {
    const r = d[i], gg = d[i + 1], b = d[i + 2];
    const nearWhite = r > 235 && gg > 235 && b > 225;
    if (!nearWhite) ink++;
  }
  return {ink: ink, total: c.width * c.height, w: c.width, h: c.height};
}"""


@pytest.fixture(scope="module")
def page(browser: Any) -> Any:
    page = browser.new_page()
    yield page
    page.close()


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_svg_draws_in_chromium(page: Any, case: Any) -> None:
    _label, game, view, last = case
    svg = draw_svg(game, view, last_move=last)
    page.set_content(f"<!doctype html><html><body style='margin:0'>{svg}</body></html>")
    box = page.locator("svg").first.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 200
    shot = page.locator("svg").first.screenshot()
    assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 5000
    result = page.evaluate(COUNT_INK, svg)
    assert result["w"] > 200 and result["h"] > 200
    assert result["ink"] > 0.05 * result["total"], result
