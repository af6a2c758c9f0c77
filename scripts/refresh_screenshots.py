"""Refresh the pictures in docs/screenshots/ on purpose (tests never write there).

    .venv/bin/python scripts/refresh_screenshots.py [--app] [--svg]

``--app`` (docs/screenshots/app/): runs the browser-app tests (tests/test_browser_app.py,
a real ``fourfold serve`` and Debian's Chromium on loopback) with
``FOURFOLD_SCREENSHOTS`` naming the docs folder, so the screenshots they take land
there instead of in a temporary folder. ``--svg`` (docs/screenshots/svg/): runs
scripts/screenshot_svgs.py. Without either flag, both. Look at ``git diff --stat
docs/screenshots`` afterwards and commit the pictures that changed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "docs" / "screenshots" / "app"
SVG = ROOT / "docs" / "screenshots" / "svg"


def refresh_app() -> int:
    env = {**os.environ, "FOURFOLD_SCREENSHOTS": str(APP)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               str(ROOT / "tests" / "test_browser_app.py")]
    print("refreshing", APP.relative_to(ROOT), "(the browser-app tests, a few minutes)")
    return subprocess.run(command, cwd=ROOT, env=env, check=False).returncode


def refresh_svg() -> int:
    print("refreshing", SVG.relative_to(ROOT))
    command = [sys.executable, str(ROOT / "scripts" / "screenshot_svgs.py"), str(SVG)]
    return subprocess.run(command, cwd=ROOT, check=False).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", action="store_true", help="the browser app's screenshots")
    parser.add_argument("--svg", action="store_true", help="the SVG drawings' screenshots")
    args = parser.parse_args(argv)
    both = not (args.app or args.svg)
    status = 0
    if args.app or both:
        status = refresh_app() or status
    if args.svg or both:
        status = refresh_svg() or status
    return status


if __name__ == "__main__":
    sys.exit(main())
