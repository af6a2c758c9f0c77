"""Read your own writes across instances: a GET on one instance right after another
instance acknowledged a move shows that move.

An API bot behind a round-robin balancer makes its move through one instance and reads
the table through the next. Before, the second instance's copy lagged until the
broker's event arrived (tens of milliseconds), so the bot read the old position and its
next move was refused as stale (409). Two real instances on a throwaway PostgreSQL and
Redis; bounded in moves and seconds.
"""

from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest

from support.server import (
    Api,
    Postgres,
    Redis,
    Server,
    _as_postgres,
    instances,
    postgres_cluster,
    redis_server,
)
from support.wait import wait_until

#: moves made (each followed at once by a read on the other instance), and the time allowed
MOVES = 120
SECONDS = 120.0


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    postgres: Postgres
    redis: Redis
    with postgres_cluster() as postgres, redis_server() as redis, \
            instances(tmp_path_factory.mktemp("ryw"), postgres.new_database(),
                      redis.url, 2) as running:
        yield running


def new_game(api: Api) -> tuple[str, dict[int, str]]:
    made = api.create(game="quarto", seats=["human", "human"])
    return made["id"], {s["seat"]: s["token"] for s in made["seats"]}


def test_a_read_on_one_instance_shows_a_move_acknowledged_by_the_other(
        pair: list[Server]) -> None:
    apis = [server.client() for server in pair]
    rng = random.Random(29)
    table_id, tokens = new_game(apis[0])
    state: dict[str, Any] = apis[1].state(table_id, tokens[0])
    deadline = time.monotonic() + SECONDS
    for n in range(MOVES):
        assert time.monotonic() < deadline, f"only {n} moves in {SECONDS:g} s"
        writer, reader = apis[n % 2], apis[(n + 1) % 2]
        if state["outcome"] is not None:  # a new game on the writer, read on the reader
            table_id, tokens = new_game(writer)
            state = reader.state(table_id, tokens[0])
        seat = state["to_act"][0]
        mine = state if state["you"] == seat else reader.state(table_id, tokens[seat])
        move = rng.choice(mine["legal"])
        # the version the bot read on the other instance: stale, it would be a 409
        r = writer.move(table_id, tokens[seat], move, mine["version"])
        assert r.status_code == 200, (n, r.status_code, r.text)
        acked = r.json()["state"]
        # at once, through the other instance
        state = reader.state(table_id, tokens[1 - seat])
        assert state["version"] == acked["version"], (n, state["version"], acked["version"])
        assert state["view"]["position"] == acked["view"]["position"], n


def sql(database: str, query: str) -> str:
    return subprocess.run(_as_postgres(["psql", database, "-At", "-c", query]),
                          capture_output=True, text=True, timeout=30, check=True).stdout


def drop_connections(database: str) -> None:
    """End every connection to ``database`` and wait until they are gone (bounded)."""
    pids = sql(database, "SELECT pid FROM pg_stat_activity WHERE datname ="
                         " current_database() AND pid <> pg_backend_pid()").split()
    assert pids, "no connections to drop"
    listed = ",".join(pids)
    sql(database, f"SELECT pg_terminate_backend(pid) FROM unnest(ARRAY[{listed}]) pid")
    wait_until(lambda: sql(database, "SELECT count(*) FROM pg_stat_activity WHERE pid IN"
                                     f" ({listed})").strip() == "0",
               10, "the dropped connections to end")


def test_reads_stay_fresh_after_the_database_drops_every_connection(pair: list[Server]
                                                                    ) -> None:
    """The connections kept for the version check are not pinged before use: after the
    database ended every connection, the check still answers, and reads stay fresh."""
    apis = [server.client() for server in pair]
    rng = random.Random(4)
    table_id, tokens = new_game(apis[0])
    for api in apis * 2:  # both instances hold the table and have checked its version
        api.state(table_id)
    database = pair[0].database
    assert database is not None
    for n in range(4):
        drop_connections(database)
        writer, reader = apis[n % 2], apis[(n + 1) % 2]
        seat = reader.state(table_id)["to_act"][0]
        mine = reader.state(table_id, tokens[seat])
        r = writer.move(table_id, tokens[seat], rng.choice(mine["legal"]), mine["version"])
        assert r.status_code == 200, (n, r.text)
        # the first use of the reader's dropped connection, right after the ack
        seen = reader.state(table_id)
        assert seen["version"] == r.json()["state"]["version"], n
