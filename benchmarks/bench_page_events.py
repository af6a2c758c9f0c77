"""The page's update after a move: from the acknowledgement to the board redrawn, in a
real Chromium on loopback (issue 30: p50 within 50 ms).

    python benchmarks/bench_page_events.py [--moves 40] [--seconds 120] [--json]

It starts a fresh ``fourfold serve`` on 127.0.0.1 (a temporary SQLite data directory)
and opens Debian's Chromium (``/usr/bin/chromium``, headless, through Playwright) on
seat 1 of a Dao table between two people; this script plays seat 2 over REST at once
after each of the page's moves (a new table when a game ends). The page moves as a
person would: it clicks a piece's button, then a direction's.

An init script times, with ``performance.now()`` in the page, when each ``ack`` reaches
the page's socket (a listener added before the page's own) and when ``#board`` shows
each version (a ``MutationObserver`` on ``data-version``, called once the page's
synchronous redraw is done; paint is not included). The delay of a move is the time
from its ``ack`` to the board showing the ``ack``'s version; an event that arrived
before its ``ack`` counts as 0 ms (the page was updated already). Every HTTP request
the page makes after it has loaded is counted too (a move should make none). The
delay is split in two: the event's arrival after the ack's, and the redraw after it.
A page's socket is sent the ``ack`` after the events of the change (so the delay is 0
when the page has drawn the event by then); the whole round, from the move sent on
the socket to the board showing it, is timed too.

Bounded: at most ``--moves`` moves by the page and ``--seconds`` in all; the server and
the browser are closed at the end. ``--json`` prints the figures as one JSON object.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import time
from collections.abc import Iterator
from typing import Any

import httpx

from page_browser import TIMEOUT_MS, bench_server, chromium, laptop_page, need_chromium

#: records ack arrivals and board versions, in the page's own clock
INSTRUMENT = """
(() => {
  window.__acks = [];
  window.__events = {};
  window.__shown = {};
  window.__sent = [];
  const Native = window.WebSocket;
  const send = Native.prototype.send;
  Native.prototype.send = function (data) {
    let m = null;
    try { m = JSON.parse(data); } catch (err) { m = null; }
    if (m && m.type === 'move') window.__sent.push([m.version, performance.now()]);
    return send.call(this, data);
  };
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        let m = null;
        try { m = JSON.parse(e.data); } catch (err) { return; }
        if (m && m.type === 'ack') window.__acks.push([m.version, performance.now()]);
        if (m && m.type === 'event' && !(m.version in window.__events)) {
          window.__events[m.version] = performance.now();
        }
      });
    }
  };
  new MutationObserver((records) => {
    const now = performance.now();
    for (const r of records) {
      const v = r.target.getAttribute && r.target.getAttribute('data-version');
      if (r.target.id === 'board' && v !== null && !(v in window.__shown)) window.__shown[v] = now;
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-version']});
})();
"""


@contextlib.contextmanager
def server() -> Iterator[str]:
    """A ``fourfold serve`` on a free loopback port."""
    with bench_server() as url:
        yield url


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(url: str, moves: int, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    http = httpx.Client(base_url=url, timeout=30)
    delays: list[float] = []
    early = 0
    requests: list[str] = []
    made_moves = 0
    arrivals: list[float] = []  # the event's arrival after the ack's (may be negative)
    redraws: list[float] = []  # the board redrawn after the event's arrival
    rounds: list[float] = []  # the move sent -> the board showing it
    with chromium() as browser:
        try:
            while made_moves < moves and time.monotonic() < deadline:
                table = http.post("/api/tables", json={"game": "dao",
                                                       "seats": ["human", "human"]}).json()
                tokens = [s["token"] for s in table["seats"]]
                with laptop_page(browser, INSTRUMENT) as page:
                    page.goto(f"{url}/t/{table['id']}#seat={tokens[0]}")
                    page.wait_for_selector("#turn.mine")
                    page.on("request", lambda r: requests.append(r.url))
                    while made_moves < moves and time.monotonic() < deadline:
                        version = int(page.get_attribute("#board", "data-version") or 0)
                        page.click("#controls button[data-origin]")
                        page.click("#controls button[data-move]")
                        page.wait_for_function(
                            "v => window.__acks.some(([w]) => w > v) && "
                            "Object.keys(window.__shown).some((w) => Number(w) > v)",
                            arg=version, timeout=TIMEOUT_MS)
                        made_moves += 1
                        state = http.get(f"/api/tables/{table['id']}", headers={
                            "Authorization": f"Bearer {tokens[1]}"}).json()
                        if state["outcome"] is not None or not state["legal"]:
                            break
                        http.post(f"/api/tables/{table['id']}/moves",
                                  headers={"Authorization": f"Bearer {tokens[1]}"},
                                  json={"move": state["legal"][0], "version": state["version"]})
                        try:
                            page.wait_for_selector("#turn.mine", timeout=TIMEOUT_MS)
                        except Exception:  # the opponent's move ended the game
                            break
                    acks, events, shown, sent = page.evaluate(
                        "[window.__acks, window.__events, window.__shown, window.__sent]")
                for version, at in sent:
                    seen = shown.get(str(version + 1))
                    if seen is not None:
                        rounds.append(seen - at)
                for version, at in acks:
                    seen = shown.get(str(version))
                    if seen is None:
                        continue
                    heard = events.get(str(version))
                    if heard is not None:
                        arrivals.append(heard - at)
                        redraws.append(seen - heard)
                    delay = seen - at
                    if delay <= 0:
                        early += 1
                    delays.append(max(0.0, delay))
        finally:
            http.close()
    return {"moves": made_moves, "timed": len(delays), "updated_before_ack": early,
            "p50_ms": round(statistics.median(delays), 2) if delays else None,
            "p95_ms": round(percentile(delays, 0.95), 2) if delays else None,
            "max_ms": round(max(delays), 2) if delays else None,
            "event_after_ack_p50_ms": round(statistics.median(arrivals), 2)
            if arrivals else None,
            "redraw_p50_ms": round(statistics.median(redraws), 2) if redraws else None,
            "send_to_redraw_p50_ms": round(statistics.median(rounds), 2) if rounds else None,
            "send_to_redraw_p95_ms": round(percentile(rounds, 0.95), 2) if rounds else None,
            "http_requests_during_play": len(requests),
            "requests": sorted(set(requests))[:10]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    need_chromium()
    with server() as url:
        result = run(url, max(1, args.moves), max(1.0, args.seconds))
    if args.json:
        print(json.dumps(result))
        return
    print(f"page moves: {result['moves']} ({result['timed']} timed;"
          f" {result['updated_before_ack']} updated before their ack)")
    print(f"ack -> board redrawn: p50 {result['p50_ms']} ms, p95 {result['p95_ms']} ms,"
          f" max {result['max_ms']} ms")
    print(f"  of which: the event after the ack p50 {result['event_after_ack_p50_ms']} ms,"
          f" the redraw after the event p50 {result['redraw_p50_ms']} ms")
    print(f"move sent -> board redrawn: p50 {result['send_to_redraw_p50_ms']} ms,"
          f" p95 {result['send_to_redraw_p95_ms']} ms")
    print(f"HTTP requests while playing: {result['http_requests_during_play']}")


if __name__ == "__main__":
    main()
