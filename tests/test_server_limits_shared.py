"""The shared counts (server/shared_limits.py) against a real ``redis-server`` on
loopback, two "instances" being two ``SharedCounters`` with different names: one
allowance between them, races included; the counts of an instance that died stop
counting; and with Redis unreachable, each counts by itself (never "no limits")."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator

import pytest

from fourfold.server.limits import Counters
from fourfold.server.shared_limits import PREFIX, SharedCounters
from support.run_async import run_async
from support.server import Redis, free_port


@pytest.fixture()
def pair(redis: Redis) -> Iterator[tuple[SharedCounters, SharedCounters]]:
    one, two = SharedCounters(redis.url, "one"), SharedCounters(redis.url, "two")
    one.link.sync.flushdb()
    try:
        yield one, two
    finally:
        one.close()
        two.close()


def test_a_bucket_is_one_allowance_for_every_instance(
        pair: tuple[SharedCounters, SharedCounters]) -> None:
    one, two = (c.limiter("new", 1 / 3600, 6) for c in pair)  # no refill to speak of
    taken = [(one if n % 2 else two).allow("a:10.0.0.1") for n in range(12)]
    assert taken == [True] * 6 + [False] * 6
    assert not one.ready("a:10.0.0.1") and two.ready("a:10.0.0.2")
    assert one.allow("a:10.0.0.2")  # another address: its own bucket


def test_racing_threads_take_no_more_than_the_burst(
        pair: tuple[SharedCounters, SharedCounters]) -> None:
    limiters = [c.limiter("new", 1 / 3600, 25) for c in pair]
    results: list[bool] = []
    lock = threading.Lock()

    def take(n: int) -> None:
        for _ in range(20):
            answer = limiters[n % 2].allow("a:10.0.0.3")
            with lock:
                results.append(answer)

    threads = [threading.Thread(target=take, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(results) == 160 and results.count(True) == 25


def test_sockets_held_are_counted_across_instances(
        pair: tuple[SharedCounters, SharedCounters]) -> None:
    one, two = (c.slots("ws", 3) for c in pair)

    async def run() -> None:
        assert await one.acquire("a:x") and await one.acquire("a:x")
        assert await two.acquire("a:x")
        assert not await two.acquire("a:x") and not await one.acquire("a:x")
        await two.release("a:x")
        assert await one.acquire("a:x")
        assert not await two.acquire("a:x")
        # instance "one" dies: once its alive key is gone, its three stop counting
        pair[0].link.sync.delete(PREFIX + "alive:one")
        assert await two.acquire("a:x") and await two.acquire("a:x")
        assert await two.acquire("a:x") and not await two.acquire("a:x")

    run_async(run())


def test_tables_held_are_counted_across_instances(
        pair: tuple[SharedCounters, SharedCounters]) -> None:
    one, two = (c.table_caps("people", 2) for c in pair)
    ended: set[str] = set()

    def alive(table_id: str) -> bool:
        return table_id not in ended

    first = one.reserve("a:y", alive)
    assert first is not None
    first.bind("t1")
    second = two.reserve("a:y", alive)
    assert second is not None
    assert one.reserve("a:y", alive) is None  # t1 and a reservation being made
    second.release()  # the table was not made after all
    third = one.reserve("a:y", alive)
    assert third is not None
    third.bind("t2")
    assert two.reserve("a:y", alive) is None
    ended.add("t1")  # ended, wherever: its slot is free on every instance
    fourth = two.reserve("a:y", alive)
    assert fourth is not None
    fourth.bind("t3")
    assert one.reserve("a:y", alive) is None


def test_an_unreachable_redis_means_each_instance_counts_alone(
        caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()
    counters = SharedCounters(f"redis://:hunter2@127.0.0.1:{port}/0", "lonely")
    caplog.set_level(logging.WARNING, logger="fourfold.server")
    try:
        bucket = counters.limiter("addr", 1 / 3600, 4)
        assert [bucket.allow("a:z") for _ in range(6)] == [True] * 4 + [False] * 2
        assert run_async(bucket.allow_async("a:z")) is False
        slots = counters.slots("ws", 1)

        async def sockets() -> list[bool]:
            held = [await slots.acquire("a:z"), await slots.acquire("a:z")]
            await slots.release("a:z")
            return [*held, await slots.acquire("a:z")]

        assert run_async(sockets()) == [True, False, True]
        caps = counters.table_caps("bots", 1)
        slot = caps.reserve("a:z", lambda _: True)
        assert slot is not None
        slot.bind("t9")
        assert caps.reserve("a:z", lambda _: True) is None
    finally:
        counters.close()
    warnings = [r.getMessage() for r in caplog.records if "limits: Redis" in r.getMessage()]
    assert len(warnings) == 1 and "not answering" in warnings[0], warnings
    assert f"127.0.0.1:{port}" in warnings[0] and "hunter2" not in warnings[0], warnings


def test_one_instance_alone_counts_in_memory() -> None:
    counters = Counters()
    bucket = counters.limiter("addr", 1 / 3600, 2)
    assert [bucket.allow("a:w") for _ in range(3)] == [True, True, False]
    loop = asyncio.new_event_loop()
    try:
        assert counters.tasks(loop) == []
    finally:
        loop.close()
