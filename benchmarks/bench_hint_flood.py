"""Hint flood: a normal player's move latency while one token asks for hints as fast as
it can (issue 29: p95 under 100 ms).

    python benchmarks/bench_hint_flood.py [--moves 200] [--seconds 90] [--flooders 8]
        [--pause 0.05] [--server-arg ARG ...] [--json]

It starts a fresh ``fourfold serve`` on 127.0.0.1 (a temporary SQLite data directory,
default job pool: one worker, eight waiting). The flooder, from 127.0.0.2, holds one
seat of a Quarto table against a bot (where hints are allowed and heaviest: from the
start no solver answers within the hint's 3 s, so each hint also runs the level-3 bot
for 3 s) and asks ``GET /hint`` from ``--flooders`` threads at once, each asking again
as soon as it is answered. The player, from 127.0.0.3, plays a Folio game between two
people (both seats; a new table when one ends) over REST, one move every ``--pause``
seconds, and times each ``POST /moves`` on one keep-alive connection.

The rate limits are raised (``--rate``, ``--address-rate``) so that the flooder is held
by the job pool, not by its request budget: the pool is what is measured. The player's
moves are timed first with no flood (the baseline), then under the flood. Bounded: at
most ``--moves`` moves per phase and ``--seconds`` in all; the server is stopped at the
end. ``--json`` prints ``{"baseline": {...}, "flood": {...}, "hint_codes": {...}}``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import threading
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx

from local_server import local_server


@contextlib.contextmanager
def server(extra: list[str]) -> Iterator[tuple[str, int]]:
    """The measured server: rate limits raised (the job pool is what is measured)."""
    with local_server(["--bot-pace", "0.05", "--rate", "100000", "--address-rate",
                       "1000000", *extra]) as running:
        yield running


def client(url: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=60,
                        transport=httpx.HTTPTransport(local_address=address))


class Player:
    """Both seats of Folio games, one move per call; times each ``POST /moves``."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        self.table = ""
        self.tokens: dict[int, str] = {}
        self.refused: Counter[int] = Counter()
        self._new_table()

    def _new_table(self) -> None:
        r = self.http.post("/api/tables", json={"game": "folio",
                                                "seats": ["human", "human"]})
        r.raise_for_status()
        made = r.json()
        self.table = made["id"]
        self.tokens = {s["seat"]: s["token"] for s in made["seats"]}

    def move(self) -> float | None:
        """One move: its latency in seconds (``None``: refused)."""
        state = self.http.get(f"/api/tables/{self.table}").json()
        if state["outcome"] is not None:
            self._new_table()
            state = self.http.get(f"/api/tables/{self.table}").json()
        seat = state["to_act"][0]
        auth = {"Authorization": f"Bearer {self.tokens[seat]}"}
        mine = self.http.get(f"/api/tables/{self.table}", headers=auth).json()
        body = {"move": mine["legal"][len(mine["legal"]) // 2], "version": mine["version"]}
        started = time.perf_counter()
        r = self.http.post(f"/api/tables/{self.table}/moves", json=body, headers=auth)
        took = time.perf_counter() - started
        if r.status_code != 200:
            self.refused[r.status_code] += 1
            return None
        return took


def summary(latencies: list[float]) -> dict[str, Any]:
    if not latencies:
        return {"moves": 0}
    ms = sorted(x * 1000 for x in latencies)
    q = statistics.quantiles(ms, n=100) if len(ms) > 1 else [ms[0]] * 99
    return {"moves": len(ms), "p50_ms": round(q[49], 1), "p95_ms": round(q[94], 1),
            "p99_ms": round(q[98], 1), "max_ms": round(ms[-1], 1)}


def play(player: Player, moves: int, pause: float, until: float) -> list[float]:
    latencies = []
    for _ in range(moves):
        if time.monotonic() > until:
            break
        took = player.move()
        if took is not None:
            latencies.append(took)
        time.sleep(pause)  # the player's own pace between moves
    return latencies


def flood(url: str, threads: int, stop: threading.Event, until: float
          ) -> tuple[Counter[int], list[threading.Thread]]:
    http = client(url, "127.0.0.2")
    r = http.post("/api/tables", json={"game": "quarto", "seats": ["human", "bot:level1"]})
    r.raise_for_status()
    made = r.json()
    table, token = made["id"], made["seats"][0]["token"]
    codes: Counter[int] = Counter()
    lock = threading.Lock()

    def ask() -> None:
        with client(url, "127.0.0.2") as mine:
            while not stop.is_set() and time.monotonic() < until:
                answer = mine.get(f"/api/tables/{table}/hint",
                                  headers={"Authorization": f"Bearer {token}"})
                with lock:
                    codes[answer.status_code] += 1

    workers = [threading.Thread(target=ask, daemon=True) for _ in range(threads)]
    for worker in workers:
        worker.start()
    http.close()
    return codes, workers


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--moves", type=int, default=200, help="moves timed per phase")
    p.add_argument("--seconds", type=float, default=90.0, help="bound on the whole run")
    p.add_argument("--flooders", type=int, default=8, help="flooding threads (one token)")
    p.add_argument("--pause", type=float, default=0.05, help="seconds between moves")
    p.add_argument("--server-arg", action="append", default=[], metavar="ARG")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    until = time.monotonic() + args.seconds
    with server(args.server_arg) as (url, _pid), client(url, "127.0.0.3") as http:
        player = Player(http)
        play(player, 10, args.pause, until)  # warm up
        baseline = play(player, args.moves, args.pause, until)
        stop = threading.Event()
        codes, workers = flood(url, args.flooders, stop, until)
        try:
            deadline = time.monotonic() + 30
            while sum(codes.values()) < args.flooders and time.monotonic() < deadline:
                time.sleep(0.05)  # the flood is on once every thread has an answer
            flooded = play(player, args.moves, args.pause, until)
        finally:
            stop.set()
            for worker in workers:
                worker.join(30)
        result = {"baseline": summary(baseline), "flood": summary(flooded),
                  "hint_codes": {str(k): v for k, v in sorted(codes.items())},
                  "move_refusals": {str(k): v for k, v in player.refused.items()},
                  "flooders": args.flooders, "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps(result))
    else:
        for phase in ("baseline", "flood"):
            row = result[phase]
            print(f"{phase:9} moves {row.get('moves', 0):4}  p50 {row.get('p50_ms')} ms  "
                  f"p95 {row.get('p95_ms')} ms  p99 {row.get('p99_ms')} ms  "
                  f"max {row.get('max_ms')} ms")
        print(f"hint answers during the flood: {result['hint_codes']}")
        print(f"refused moves: {result['move_refusals'] or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
