"""The shared replay's positions (``POST /api/tables/{id}/replay``) are kept for a
bounded number of tables and a bounded time: a client finishing and replaying tables
without end does not grow the server's memory without end."""

from __future__ import annotations

from fourfold.server.web import extra_api
from fourfold.server.web.replay_positions import MAX_AGE, MAX_TABLES, ReplayPositions


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_least_recently_set_go_first_past_the_count() -> None:
    positions = ReplayPositions(max_tables=3, max_age=60, clock=Clock())
    for n in range(5):
        positions.set(f"t{n}", n)
    assert len(positions) == 3
    assert [positions.get(f"t{n}") for n in range(5)] == [None, None, 2, 3, 4]
    positions.set("t2", 7)  # set again: the newest now
    positions.set("t5", 5)
    assert [positions.get(t) for t in ("t2", "t3", "t4", "t5")] == [7, None, 4, 5]


def test_a_position_is_forgotten_once_old() -> None:
    clock = Clock()
    positions = ReplayPositions(max_tables=100, max_age=60, clock=clock)
    positions.set("old", 3)
    clock.now += 30
    positions.set("newer", 4)
    clock.now += 31  # "old" was set 61 s ago, "newer" 31 s ago
    assert positions.get("old") is None and positions.get("newer") == 4
    clock.now += 30
    assert positions.get("newer") is None and len(positions) == 0


def test_a_flood_of_tables_stays_within_the_bound() -> None:
    positions = ReplayPositions(max_tables=1000, max_age=3600, clock=Clock())
    for n in range(20_000):
        positions.set(f"table-{n}", n % 50)
    assert len(positions) == 1000
    assert positions.get("table-19999") == 19999 % 50


def test_the_server_keeps_its_positions_bounded() -> None:
    shared = extra_api._shared
    assert isinstance(shared, ReplayPositions)
    assert shared.max_tables == MAX_TABLES <= 100_000
    assert shared.max_age == MAX_AGE <= 24 * 3600
