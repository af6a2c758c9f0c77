"""Several ``fourfold serve`` instances on one PostgreSQL and one Redis, all real
processes on loopback: a game across instances, ``kill -9`` of the instance that runs a
table's bot and clock, races of Dual pushes on two instances, and Redis restarted
mid-game. Every wait is bounded.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.server import Api, Live, Postgres, Redis, Server, instances, tokens_of
from support.wait import wait_until

LEASE = "1.5"
EXTRA = ("--lease-seconds", LEASE, "--sync-seconds", "0.5", "--checkpoint-seconds", "0.5")


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory, postgres: Postgres, redis: Redis
            ) -> Iterator[list[Server]]:
    with instances(tmp_path_factory.mktemp("scale"), postgres.new_database(),
                   redis.url, 3, EXTRA) as running:
        yield running


@pytest.fixture
def alive(servers: list[Server], redis: Redis) -> list[Server]:
    """The instances, each running (a test before may have killed one)."""
    if redis.process is None:
        redis.start()
    for server in servers:
        if server.process is None:
            server.start()
    return servers



def stored_version(api: Api, table_id: str) -> int:
    version: int = api.state(table_id)["version"]
    return version


class Stream:
    """A seat's (or a spectator's) socket, with every event it was sent."""

    def __init__(self, server: Server, table_id: str, token: str | None) -> None:
        self.live = Live(server, table_id, token)
        welcome = self.live.next()
        assert welcome["type"] == "welcome", welcome
        self.events: list[dict[str, Any]] = [self.live.next()]
        assert self.events[0]["kind"] == "start"
        self.replies: list[dict[str, Any]] = []

    @property
    def version(self) -> int:
        return int(max(e["version"] for e in self.events))

    def pump(self, until: Any, seconds: float = 15.0) -> dict[str, Any]:
        """Read until a message passes ``until`` (events and replies are kept)."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"nothing matched in {seconds}s; last "
                                     f"{[(e['kind'], e['version']) for e in self.events[-5:]]}")
            message = self.live.next(left)
            if message.get("type") == "event":
                self.events.append(message)
            else:
                self.replies.append(message)
            if until(message):
                return message

    def reach(self, version: int, seconds: float = 15.0) -> None:
        if self.version >= version:
            return
        self.pump(lambda m: m.get("type") == "event" and m["version"] >= version, seconds)

    def send(self, value: dict[str, Any]) -> None:
        self.live.send(value)

    def reply(self, seconds: float = 15.0) -> dict[str, Any]:
        return self.pump(lambda m: m.get("type") in ("ack", "refused"), seconds)

    def close(self) -> None:
        self.live.close()


def check_stream(events: list[dict[str, Any]], final: int) -> None:
    """Nothing lost, nothing twice: after the first ``start``, each event is the next
    version (a move or an undo), the end of the change just made (``end``, same
    version), an offer at the same version, or a ``start`` at a later version (a
    catch-up that holds every change up to it). It ends at ``final``."""
    assert events and events[0]["kind"] == "start"
    current = events[0]["version"]
    seen: set[tuple[int, str, Any, Any]] = set()
    for event in events[1:]:
        kind, version = event["kind"], event["version"]
        key = (version, kind, event["seat"], event["move"])
        assert key not in seen, f"duplicate event {key}"
        seen.add(key)
        if kind == "start":
            assert version > current, f"a start at {version} after {current}"
        elif kind in ("move", "undo"):
            assert version == current + 1, f"{kind} at {version} after {current}: lost"
        elif kind == "end":
            assert version in (current, current + 1), f"end at {version} after {current}"
        else:
            assert version == current, f"{kind} at {version} after {current}"
        current = version
    assert current == final, f"the stream ends at {current}, the table at {final}"


def test_a_game_across_three_instances(alive: list[Server]) -> None:
    a, b, c = alive
    api_a, api_c = a.client(), c.client()
    created = api_a.create(game="folio", seats=["human", "human"], seed=5)
    tid, tokens = created["id"], tokens_of(created)
    seats = {0: Stream(a, tid, tokens[0]), 1: Stream(b, tid, tokens[1])}
    watcher = Stream(c, tid, None)
    try:
        for _ in range(10):
            state = api_c.state(tid)
            if state["outcome"] is not None:
                break
            mover = state["to_act"][0]
            mine = api_c.state(tid, tokens[mover])
            before = time.monotonic()
            seats[mover].send({"type": "move", "move": mine["legal"][0],
                               "version": mine["version"]})
            reply = seats[mover].reply()
            assert reply["type"] == "ack", reply
            # the other seat, on another instance, hears it at once, as a move
            other = seats[1 - mover]
            other.reach(mine["version"] + 1, 5.0)
            assert time.monotonic() - before < 3.0
            assert other.events[-1]["kind"] in ("move", "end")
            assert other.events[-1]["recipient"] == 1 - mover
            watcher.reach(mine["version"] + 1, 5.0)
        final = stored_version(api_c, tid)
        assert final >= 6
        for stream in (*seats.values(), watcher):
            stream.reach(final)
            check_stream(stream.events, final)
            # state events carry the recipient's own view only
            assert {e["recipient"] for e in stream.events} == {stream.events[0]["recipient"]}
        # the record read through any instance is the same
        records = {s.client().http.get(f"/api/tables/{tid}/record").text for s in alive}
        assert len(records) == 1
    finally:
        for stream in (*seats.values(), watcher):
            stream.close()
        api_a.http.close()
        api_c.http.close()


def test_kill_9_the_owner_and_play_goes_on(alive: list[Server]) -> None:
    a, b, _ = alive
    api_a, api_b = a.client(), b.client()
    # created through A: A holds both leases (runs the bot and the clock)
    bot = api_a.create(game="quarto", seats=["human", "bot:level1"], seed=2)
    timed = api_a.create(game="dao", seats=["human", "human"], seed=1,
                         clock={"base": 4.0, "increment": 0.0})
    me = tokens_of(bot)[0]
    stream = Stream(b, bot["id"], me)
    clock_watch = Stream(b, timed["id"], None)
    try:
        def my_move() -> int:
            state = api_b.wait(bot["id"], me, lambda s: 0 in s["to_act"]
                               or s["outcome"] is not None)
            if state["outcome"] is not None:
                return -1
            stream.send({"type": "move", "move": state["legal"][0],
                         "version": state["version"]})
            reply = stream.reply()
            assert reply["type"] == "ack", reply
            return int(state["version"]) + 1

        def bot_answered(version: int, seconds: float = 15.0) -> bool:
            """Wait for the bot's move at ``version``; ``False`` if the game ended first
            (the bots play from a secret seed of their own, so a game may end on the
            person's move)."""
            if any(e["kind"] == "end" for e in stream.events):
                return False
            message = stream.pump(lambda m: m.get("type") == "event" and (
                m["version"] >= version or m["kind"] == "end"), seconds)
            return bool(message["kind"] != "end" or message["version"] >= version)

        for _ in range(2):
            version = my_move()
            assert bot_answered(version + 1)  # the bot (on A) answered
        # a move in the timed game, then A dies with the bot and the clock running
        timed_tokens = tokens_of(timed)
        first = api_b.state(timed["id"])["to_act"][0]
        mine = api_b.state(timed["id"], timed_tokens[first])
        assert api_b.move(timed["id"], timed_tokens[first], mine["legal"][0],
                          0).status_code == 200
        version = my_move()
        a.kill9()
        # B (or C) takes the leases over: the bot answers, the clock runs out
        if version > 0 and bot_answered(version + 1, 20.0):
            for _ in range(3):
                version = my_move()
                if version < 0 or not bot_answered(version + 1, 20.0):
                    break
        end = clock_watch.pump(lambda m: m.get("kind") == "end", 20.0)
        assert end["outcome"] is not None and "time" in json.dumps(end["outcome"]).lower()
        final = stored_version(api_b, bot["id"])
        stream.reach(final)
        check_stream(stream.events, final)
        check_stream(clock_watch.events, stored_version(api_b, timed["id"]))
        # no double bot move: the record alternates, one move per version
        record = api_b.http.get(f"/api/tables/{bot['id']}/record", params={
            "format": "json"}).json()
        assert len(record["moves"]) == final
    finally:
        stream.close()
        clock_watch.close()
        api_a.http.close()
        api_b.http.close()


def test_dual_races_on_two_instances_accept_one_per_version(alive: list[Server]) -> None:
    a, b, _ = alive
    api = a.client()
    created = api.create(game="quatrefoil", variant="dual", seats=["human"] * 4, seed=4)
    tid, tokens = created["id"], tokens_of(created)
    streams = {0: Stream(a, tid, tokens[0]), 1: Stream(b, tid, tokens[1])}
    accepted = 0
    try:
        for _ in range(8):
            state = api.state(tid)
            if state["outcome"] is not None:
                break
            version = state["version"]
            moves = {p: api.state(tid, tokens[p])["legal"] for p in (0, 1)}
            if not all(moves.values()):
                break
            for stream in streams.values():
                stream.reach(version)
            barrier = threading.Barrier(2)
            replies: dict[int, dict[str, Any]] = {}

            def push(p: int, move: str, at: int = version,
                     gate: threading.Barrier = barrier) -> None:
                gate.wait(5)
                streams[p].send({"type": "move", "move": move, "version": at})

            threads = [threading.Thread(target=push, args=(p, moves[p][0])) for p in (0, 1)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(10)
            for p in (0, 1):
                replies[p] = streams[p].reply()
            kinds = sorted(r["type"] for r in replies.values())
            assert kinds == ["ack", "refused"], replies
            refused = next(r for r in replies.values() if r["type"] == "refused")
            assert refused["status"] == 409, refused
            accepted += 1
            assert stored_version(api, tid) == version + 1
            for stream in streams.values():
                stream.reach(version + 1)
        assert accepted >= 3
        final = stored_version(api, tid)
        for stream in streams.values():
            stream.reach(final)
            check_stream(stream.events, final)
    finally:
        for stream in streams.values():
            stream.close()
        api.http.close()


def test_redis_restarted_mid_game(alive: list[Server], redis: Redis) -> None:
    a, b, _ = alive
    api = a.client()
    created = api.create(game="dao", seats=["human", "human"], seed=8)
    tid, tokens = created["id"], tokens_of(created)
    seats = {0: Stream(a, tid, tokens[0]), 1: Stream(b, tid, tokens[1])}
    try:
        def move() -> int:
            state = api.state(tid)
            mover = state["to_act"][0]
            mine = api.state(tid, tokens[mover])
            legal = mine["legal"]  # the middle move: no early end in dao
            seats[mover].send({"type": "move", "move": legal[len(legal) // 2],
                               "version": mine["version"]})
            reply = seats[mover].reply()
            assert reply["type"] == "ack", reply
            return int(mine["version"]) + 1

        for _ in range(2):
            v = move()
            for stream in seats.values():
                stream.reach(v, 5.0)
        def back(server: Server) -> int:  # how often it said it was back on the broker
            return server.output().count("broker: back; caught up from the database")

        was_back = [back(server) for server in alive]
        redis.stop()
        for _ in range(2):  # the broker is down: the database still tells everyone
            v = move()
            for stream in seats.values():
                stream.reach(v, 15.0)
        redis.start()
        wait_until(lambda: all(back(s) > n for s, n in zip(alive, was_back, strict=True)),
                   30, "every instance subscribed to the broker again and caught up")
        for _ in range(3):
            v = move()
            for stream in seats.values():
                stream.reach(v, 5.0)
        final = stored_version(api, tid)
        for stream in seats.values():
            check_stream(stream.events, final)
        # once Redis is back, moves travel as moves again (not as catch-ups)
        assert seats[0].events[-1]["kind"] == "move" and seats[1].events[-1]["kind"] == "move"
    finally:
        for stream in seats.values():
            stream.close()
        api.http.close()


def test_start_up_errors_name_the_broker(tmp_path: Path, postgres: Postgres) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", "from fourfold.cli.main import main;"
                           " raise SystemExit(main())", "serve", "--port", "0",
                           "--database", postgres.new_database(),
                           "--broker", "redis://127.0.0.1:1/0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "broker" in done.stderr, done
    assert "Traceback" not in done.stderr
