"""The job pool's lane for long jobs (reviews, analyses of whole games): however many
are running or waiting, a hint still gets a thread at once, and one client address has
one long job at a time, apart from its hints."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from fourfold.server.jobs import LONG_QUEUE, JobPool, JobRefused, long_owner
from support.wait import wait_until

WAIT = 30.0


@pytest.fixture
def pool() -> Iterator[JobPool]:
    made = JobPool(workers=1, queue=1, job_seconds=1.0, processes=False)
    yield made
    made.shutdown()


def test_hints_run_while_the_long_lane_is_full(pool: JobPool) -> None:
    release = threading.Event()
    started = threading.Event()

    def review() -> None:
        started.set()
        release.wait(WAIT)

    try:
        for n in range(1 + LONG_QUEUE):  # one running, the rest waiting
            pool.submit([long_owner(f"127.0.0.{n + 1}")], review, long=True)
        assert started.wait(WAIT)
        with pytest.raises(JobRefused) as refused:
            pool.submit([long_owner("127.0.0.99")], review, long=True)
        assert refused.value.status == 503 and "reviewing" in refused.value.reason
        assert refused.value.retry_after >= 10
        # a hint from anyone, the addresses with reviews included, runs now
        hint = pool.submit(["a:127.0.0.1"], lambda: "the hint")
        assert hint.result(WAIT) == "the hint"
    finally:
        release.set()


def test_one_long_job_per_address_and_its_hints_still_run(pool: JobPool) -> None:
    release = threading.Event()
    try:
        first = pool.submit([long_owner("127.0.0.5")], lambda: release.wait(WAIT), long=True)
        with pytest.raises(JobRefused) as refused:
            pool.check([long_owner("127.0.0.5")], long=True)
        assert refused.value.status == 429
        assert pool.submit(["a:127.0.0.5"], lambda: 7).result(WAIT) == 7
        assert pool.jobs >= 1
    finally:
        release.set()
    # once it ends, the address may ask again
    assert first.result(WAIT)
    wait_until(lambda: pool.jobs == 0, WAIT, "the review's end")
    done = pool.submit([long_owner("127.0.0.5")], lambda: "again", long=True)
    assert done.result(WAIT) == "again"


def test_a_full_hint_lane_does_not_refuse_reviews(pool: JobPool) -> None:
    release = threading.Event()
    try:
        for n in range(pool.capacity):
            pool.submit([f"a:127.0.1.{n}"], lambda: release.wait(WAIT))
        with pytest.raises(JobRefused) as refused:
            pool.check(["a:127.0.1.200"])
        assert refused.value.status == 503
        pool.check([long_owner("127.0.1.200")], long=True)
    finally:
        release.set()


def test_a_running_review_ends_at_its_next_position_when_the_server_stops(pool: JobPool) -> None:
    """``fourfold serve`` took 25 s to exit on Ctrl-C while a review ran: the review's
    thread went on computing position after position (in new worker processes) and
    Python waits for it at exit. After ``shutdown`` its next position is refused."""
    started, release = threading.Event(), threading.Event()
    done: list[int] = []

    def position(n: int) -> int:
        started.set()
        release.wait(WAIT)
        done.append(n)
        return n

    def review() -> None:
        for n in range(100):
            pool.compute(position, n)

    job = pool.submit([long_owner("127.0.0.1")], review, long=True)
    assert started.wait(WAIT)
    pool.shutdown()
    release.set()
    with pytest.raises(JobRefused) as refused:
        job.result(WAIT)
    assert refused.value.status == 503 and "stopping" in refused.value.reason
    assert done == [0]  # the position under way finished; no other began
