"""How soon a table page is interactive on loopback (issue 31: within 1 s), in a real
Chromium.

    python benchmarks/bench_page_load.py [--rounds 5] [--seconds 240] [--json]
                                         [--compare OTHER/src]

It starts a fresh ``fourfold serve`` on 127.0.0.1 (a temporary SQLite data directory,
bots at once) and opens Debian's Chromium (``/usr/bin/chromium``, headless, through
Playwright) at 1280x860. For every ruleset it makes a table between a person and a
level-1 bot (the person moves first where the rules let them) and opens the person's
seat link, ``--rounds`` times:

- **first visit**: a new browser context (an empty cache), as a person who follows a
  link for the first time;
- **again**: the same context opens a second table of the same game (the fingerprinted
  files come from the cache, as they would for anyone coming back).

Interactive means the board holds a button the person can press (``#board.acting
[role=button]``) or, at a table where the bot moves first, the page shows whose turn it
is; it is timed in the page from the navigation's start (``performance.now()``, a
``MutationObserver`` installed by an init script), so the network and the server's work
are included and the benchmark's own overhead is not. Bounded by ``--rounds`` and
``--seconds``; the server and the browser are closed at the end. ``--json`` prints the
figures as one JSON object. ``--compare OTHER/src`` runs a second server from another
checkout (``git worktree add --detach /tmp/old COMMIT``, then ``--compare /tmp/old/src``)
and alternates first visits between the two, so a before/after figure on a shared
machine compares pages that met the same load.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from page_browser import TIMEOUT_MS, bench_server, chromium, laptop_page, need_chromium

RULESETS = [("folio", "standard", 2), ("folio", "freeform", 2), ("quarto", "standard", 2),
            ("dao", "standard", 2), ("icedao", "standard", 2), ("quatrefoil", "base", 4)]

#: when the page first could be used: a button on the board, or the turn said
INSTRUMENT = """
(() => {
  window.__ready = null;
  const check = () => {
    if (window.__ready !== null) return;
    const acting = document.querySelector('#board.acting [role="button"]');
    const turn = document.querySelector('#turn');
    const said = turn && /to move|Your turn|at once/.test(turn.textContent);
    if (acting || said) window.__ready = performance.now();
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true,
    attributes: true, characterData: true});
})();
"""


@contextlib.contextmanager
def python_path(source: Path | None) -> Iterator[None]:
    """``PYTHONPATH`` set to ``source`` meanwhile (nothing when it is None)."""
    saved = os.environ.get("PYTHONPATH")
    if source is not None:
        os.environ["PYTHONPATH"] = str(source)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


@contextlib.contextmanager
def server(source: Path | None = None) -> Iterator[str]:
    """A ``fourfold serve`` on a free loopback port, its limits out of the way, bots
    at once; run from ``source`` (another checkout's ``src`` folder) when given."""
    with contextlib.ExitStack() as stack:
        with python_path(source):  # for the server's process only
            url = stack.enter_context(bench_server([
                "--bot-pace", "0", "--max-bot-tables-per-address", "100000",
                "--tables-per-minute", "100000", "--max-lobby-tables-per-address",
                "100000"]))
        yield url


def compare(urls: dict[str, str], rounds: int, seconds: float) -> dict[str, Any]:
    """First visits to two servers at once, alternated page by page (the order swapped
    every round), so that both meet the same load: a before/after figure a shared
    machine's changing load does not decide."""
    deadline = time.monotonic() + seconds
    times: dict[str, list[float]] = {label: [] for label in urls}
    with chromium() as browser:
        for n in range(rounds):
            for game, variant, players in RULESETS:
                if time.monotonic() > deadline:
                    break
                for label, url in (list(urls.items())[::-1] if n % 2 else urls.items()):
                    with httpx.Client(base_url=url, timeout=30) as http, \
                            laptop_page(browser, INSTRUMENT) as page:
                        times[label].append(open_table(page, http, url, game, variant,
                                                       players))
    return {label: {"first_visit_p50_ms": round(statistics.median(v), 1),
                    "first_visit_max_ms": round(max(v), 1), "n": len(v)}
            for label, v in times.items() if v}


def open_table(page: Any, http: httpx.Client, url: str, game: str, variant: str,
               players: int) -> float:
    """Milliseconds from the navigation's start to the page being interactive."""
    made = http.post("/api/tables", json={"game": game, "variant": variant,
                                          "seats": ["human"] + ["bot:level1"] * (players - 1)})
    made.raise_for_status()
    page.goto(url + made.json()["seats"][0]["url"])
    page.wait_for_function("() => window.__ready !== null", timeout=TIMEOUT_MS)
    ready: float = page.evaluate("window.__ready")
    return ready


def run(url: str, rounds: int, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    http = httpx.Client(base_url=url, timeout=30)
    first: dict[str, list[float]] = {}
    again: dict[str, list[float]] = {}
    with chromium() as browser:
        try:
            for _ in range(rounds):
                for game, variant, players in RULESETS:
                    if time.monotonic() > deadline:
                        break
                    name = f"{game}/{variant}"
                    with laptop_page(browser, INSTRUMENT) as page:
                        first.setdefault(name, []).append(
                            open_table(page, http, url, game, variant, players))
                        again.setdefault(name, []).append(
                            open_table(page, http, url, game, variant, players))
        finally:
            http.close()

    def figures(times: dict[str, list[float]]) -> dict[str, dict[str, float]]:
        return {name: {"p50_ms": round(statistics.median(values), 1),
                       "max_ms": round(max(values), 1), "n": len(values)}
                for name, values in times.items()}

    every_first = [v for values in first.values() for v in values]
    every_again = [v for values in again.values() for v in values]
    return {"first_visit": figures(first), "again": figures(again),
            "first_visit_p50_ms": round(statistics.median(every_first), 1)
            if every_first else None,
            "first_visit_max_ms": round(max(every_first), 1) if every_first else None,
            "again_p50_ms": round(statistics.median(every_again), 1) if every_again else None,
            "again_max_ms": round(max(every_again), 1) if every_again else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=240.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--compare", type=Path, default=None, metavar="SRC",
                        help="also serve from SRC (another checkout's src folder, e.g. a git"
                        " worktree of an older commit) and alternate first visits between"
                        " the two")
    args = parser.parse_args()
    need_chromium()
    if args.compare is not None:
        with server(args.compare.resolve()) as other, server() as this:
            figures = compare({str(args.compare): other, "this checkout": this},
                              max(1, args.rounds), max(1.0, args.seconds))
        print(json.dumps(figures) if args.json else "\n".join(
            f"{label}: first visit p50 {row['first_visit_p50_ms']} ms, max"
            f" {row['first_visit_max_ms']} ms ({row['n']} pages)"
            for label, row in figures.items()))
        return
    with server() as url:
        result = run(url, max(1, args.rounds), max(1.0, args.seconds))
    if args.json:
        print(json.dumps(result))
        return
    for label, key in (("first visit", "first_visit"), ("again", "again")):
        print(f"{label}: p50 {result[f'{key}_p50_ms']} ms, max {result[f'{key}_max_ms']} ms")
        for name, row in result[key].items():
            print(f"  {name:<20} p50 {row['p50_ms']:>7} ms  max {row['max_ms']:>7} ms"
                  f"  ({row['n']} pages)")


if __name__ == "__main__":
    main()
