"""The first hint after a server starts, against the next one (issue 31: the first took
9-11 s, a cold compile of the kernels).

    python benchmarks/bench_first_hint.py [--warm-up | --no-warm-up] [--json]

Starts a fresh ``fourfold serve`` (default job pool: one worker process). With the
warm-up (the default) it waits until ``GET /api/warm-up`` says ``done`` (at most 600 s),
then, for each of Dao (the solver answers) and Quarto (no solver answers from the start:
the level-3 bot thinks for the hint's 3 s), makes a table where the person moves first
and times ``GET /hint`` twice in a row on the same position. Without the warm-up the
first hint pays the compile. Prints one line per game, or ``--json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import httpx

from local_server import local_server

#: (game, seats): the person's seat acts first
TABLES = (("dao", ["human", "bot:level1"]), ("quarto", ["bot:level1", "human"]))
WARM_UP_LIMIT = 600.0


def timed_hint(http: httpx.Client, table: str, token: str) -> tuple[float, str]:
    began = time.perf_counter()
    r = http.get(f"/api/tables/{table}/hint", headers={"Authorization": f"Bearer {token}"})
    r.raise_for_status()
    return time.perf_counter() - began, str(r.json().get("kind"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm-up", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    flag = "--warm-up" if args.warm_up else "--no-warm-up"
    results: dict[str, Any] = {"warm_up": args.warm_up}
    with local_server([flag]) as (url, _pid), httpx.Client(base_url=url, timeout=120) as http:
        if args.warm_up:
            deadline = time.monotonic() + WARM_UP_LIMIT
            while (status := http.get("/api/warm-up").json())["state"] == "running":
                if time.monotonic() > deadline:
                    print(f"the warm-up did not end in {WARM_UP_LIMIT:g} s", file=sys.stderr)
                    return 1
                time.sleep(0.5)
            results["warm_up_status"] = status
        for game, seats in TABLES:
            created = http.post("/api/tables", json={"game": game, "seats": seats, "seed": 5})
            created.raise_for_status()
            body = created.json()
            token = body["seats"][seats.index("human")]["token"]
            first = timed_hint(http, body["id"], token)
            second = timed_hint(http, body["id"], token)
            results[game] = {"first_s": round(first[0], 3), "second_s": round(second[0], 3),
                             "kind": first[1]}
    if args.json:
        print(json.dumps(results))
    else:
        if args.warm_up:
            s = results["warm_up_status"]
            print(f"warm-up: {s['state']} in {s['seconds']} s, {len(s['rulesets'])} rulesets")
        for game, _ in TABLES:
            r = results[game]
            print(f"{game}: first hint {r['first_s']:.2f} s, second {r['second_s']:.2f} s"
                  f" ({r['kind']}; warm-up {'on' if args.warm_up else 'off'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
