"""Screenshots of the SVG pictures of every ruleset, for docs/screenshots/svg/.

    .venv/bin/python scripts/screenshot_svgs.py [OUT_DIR]

Renders the positions of ``tests/support/svg_cases.py`` (starts, mid-games, won games) in
headless Chromium (Debian's ``/usr/bin/chromium``, via Playwright) and writes one
small PNG each, so that people can look at what the drawers produce.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402

from fourfold.render.svg import draw_svg  # noqa: E402
from support.svg_cases import all_cases  # noqa: E402

ARGS = ["--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
#: Wider pictures are scaled down to this width, to keep each PNG under ~60 KB.
MAX_WIDTH = 470
#: Which cases to keep (at most ~25 files): the start of one variant per game is enough.
SKIP = ("folio-fixed-grid-start", "folio-no-grid-start", "quatrefoil-base-start",
        "quatrefoil-nothing-to-hide-start", "quatrefoil-half-and-half-start",
        "quatrefoil-race-the-clock-start", "quatrefoil-race-the-clock-end",
        "quatrefoil-dual-start", "quatrefoil-half-and-half-end", "folio-freeform-start",
        "quarto-standard-start", "dao-standard-mid")


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "svg"
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page()
        for label, game, view, last in all_cases():
            if label in SKIP:
                continue
            natural = draw_svg(game, view, last_move=last)
            width = float(natural.split('width="', 1)[1].split('"', 1)[0])
            svg = draw_svg(game, view, last_move=last, size=min(int(width), MAX_WIDTH))
            page.set_content(f"<html><body style='margin:0'>{svg}</body></html>")
            path = out / f"{label}.png"
            page.locator("svg").first.screenshot(path=str(path))
            print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}"
                  f" {path.stat().st_size // 1024} KB")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
