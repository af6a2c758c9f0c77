"""A deal is a secret, whatever else is seeded (issue 29).

A server table's randomness comes in independent streams: the deal (``secrets``), the
bots' choices and the bots' visible pauses (their own seeds, ``Minter``), table ids and
tokens. These tests build tables the way the server does (``api._new_row`` ->
``LiveTable`` -> ``specs.seated_table``) on hubs started alike (the same test seed, as
two servers would be), then replay each table on a ``ManualClock`` and record what a
recipient observes, with the time it observes it:

- for a fixed sequence of human actions, the whole schedule (the bots' delays and what
  the bots do, as wire JSON) is byte-identical across twin deals: deals that neither
  the recipient nor the bot can tell apart (the harness's ``knowable_deals``);
- the bots' delays are identical across every deal;
- a threaded bot's move lands at its scheduled time, however long or short it thought.
"""

from __future__ import annotations

import itertools
import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest

import fourfold
from fourfold.ai.base import Bot
from fourfold.core.game import View
from fourfold.core.match import Match
from fourfold.server.api import _new_row
from fourfold.server.hub import Hub
from fourfold.server.live import LiveTable
from fourfold.server.settings import Settings
from fourfold.server.specs import SeatSpec, seated_table
from fourfold.server.storage import TableRow
from fourfold.server.tokens import Minter
from fourfold.table import Event, ManualClock, Seat, Table
from fourfold.wire import event_to_json
from support.leak_harness import _mask, deal_index, knowable_deals, twin_state
from support.wait import wait_until

GAME = fourfold.load("quatrefoil")
TEST_SEED = 29
PACE = 0.6
#: each human seat's actions, in the order of its turns (never a stack)
HUMAN_ACTIONS = {0: ["cw", "N>NW", "ccw", "E>SE", "cw"],
                 2: ["E>SE", "cw", "S>SW", "ccw", "W>NW"],
                 3: ["ccw", "W>SW", "cw", "N>NE", "cw"]}


def live_table(start: Any, bots: tuple[int, ...]) -> LiveTable:
    """A table as a freshly started server (test seed ``TEST_SEED``) makes its first
    one: its row from the API's ``_new_row``, its streams from the hub's minter."""
    hub = Hub(Settings(database="sqlite://", id_seed=TEST_SEED, bot_pace=PACE),
              None)  # type: ignore[arg-type]  # nothing here touches the database
    try:
        specs = [SeatSpec("bot", f"Bot {p + 1}", "quatrefoil") if p in bots
                 else SeatSpec("human", f"P{p + 1}") for p in range(4)]
        match: Match[Any, Any] = Match(GAME, start, [s.name for s in specs])
        row = _new_row(hub, match, specs, private=False, seed=None, known_deal=False,
                       clock=None)
        live = LiveTable(hub, TableRow.of_new(row), {}, True, match)
        live.close()
        return live
    finally:
        hub.bots.shutdown(wait=False)
        hub.workers.shutdown(wait=False)


def observe(live: LiveTable, start: Any, recipient: int | None, rounds: int = 5
            ) -> tuple[list[tuple[float, str]], list[Any]]:
    """Replay ``live``'s table (its seeds, its seats) on a manual clock: the humans play
    ``HUMAN_ACTIONS`` at once when it is their turn; the clock jumps to each bot's
    release time. Returns what ``recipient`` is sent, with the time, and its views."""
    clock = ManualClock()
    match: Match[Any, Any] = Match(GAME, start, [s.name for s in live.seats])
    table = seated_table(GAME, live.seats, match, bot_seed=live.seed,
                         pause_seed=live.pause_seed, pace=PACE, playing=True, clock=clock,
                         inline_bots=True)
    seen: list[tuple[float, str]] = []
    views = [table.view(recipient).observation]

    def heard(event: Event) -> None:
        seen.append((round(clock(), 9), json.dumps(event_to_json(GAME, event),
                                                   sort_keys=True)))
        if event.view.observation.outcome is None:
            views.append(event.view.observation)

    table.subscribe(recipient, heard)
    turns = {seat: iter(actions[:rounds]) for seat, actions in HUMAN_ACTIONS.items()}
    for _ in range(200):
        if table.outcome is not None:
            break
        actor = table.actors()[0]
        if actor in turns and actor not in {s for s, x in enumerate(table.seats) if x.is_bot}:
            action = next(turns[actor], None)
            if action is None:
                break
            table.play(actor, action, table.version)
            continue
        due = table.next_deadline()
        assert due is not None, "a bot's turn with nothing scheduled"
        clock.advance(max(0.0, due - clock()))
        table.advance()
    table.close()
    return seen, views


def masked(seen: list[tuple[float, str]]) -> list[tuple[float, str]]:
    out = []
    for t, text in seen:
        event = json.loads(text)
        if event["view"]["outcome"] is not None:
            text = json.dumps(_mask(event), sort_keys=True)
        out.append((t, text))
    return out


def delays(seen: list[tuple[float, str]]) -> list[float]:
    """Seconds between each event and the bot move that follows it."""
    out = []
    for (t0, _), (t1, text) in itertools.pairwise(seen):
        event = json.loads(text)
        if event["kind"] == "move" and event["seat"] not in HUMAN_ACTIONS:
            out.append(round(t1 - t0, 9))
    return out


def test_tables_made_alike_share_their_streams_but_never_their_deal() -> None:
    first, second = Minter(TEST_SEED), Minter(TEST_SEED)
    assert [first.table_id(), first.bot_seed(), first.pause_seed(), first.token()] == [
        second.table_id(), second.bot_seed(), second.pause_seed(), second.token()]
    other = Minter(TEST_SEED)
    # each use has its own stream: drawing a token does not move the pause stream
    other.token()
    other.token()
    assert other.pause_seed() == Minter(TEST_SEED).pause_seed()
    assert other.bot_seed() != other.pause_seed()


@pytest.mark.parametrize("recipient", [None, 0])
def test_the_schedule_is_the_same_for_twin_deals(recipient: int | None) -> None:
    """One informed bot (seat 2) among scripted humans: for deals that neither the
    recipient nor the bot can tell apart, the recipient's timed transcript (delays,
    the bot's actions, every event's JSON) is byte-identical."""
    bots = (1,)
    compared = 0
    for seed in range(80):
        start = GAME.initial_state(seed)
        live = live_table(start, bots)
        seen, views = observe(live, start, recipient, rounds=2)
        truth = deal_index(start.deal)
        bot_cards = (start.deal.positions[1], start.deal.colour(1))
        twins = [d for d in knowable_deals(GAME, start.deal, recipient, views)
                 if d != truth and (twin_state(start, d).deal.positions[1],
                                    twin_state(start, d).deal.colour(1)) == bot_cards]
        for d in twins[:2]:
            twin = twin_state(start, d)
            twin_live = live_table(twin, bots)
            assert (twin_live.seed, twin_live.pause_seed) == (live.seed, live.pause_seed)
            twin_seen, _ = observe(twin_live, twin, recipient, rounds=2)
            assert len(seen) > 3
            # every card turns face up when the game ends: from then on the cards (and
            # only they) may differ
            assert masked(twin_seen) == masked(seen)
            compared += 1
        if compared >= 4:
            break
    assert compared >= 4, "too few twin deals to compare"


def test_the_bots_delays_are_the_same_for_every_deal() -> None:
    """Three bots and one scripted person: the k-th bot pause is the same whatever the
    deal (only the game's length may differ)."""
    rng = random.Random(7)
    reference: list[float] | None = None
    for _ in range(25):
        start = GAME.initial_state(rng.randrange(1 << 30))
        live = live_table(start, (1, 2, 3))
        got = delays(observe(live, start, None)[0])
        assert got, "no bot moved"
        assert all(0.6 * PACE <= d <= 1.4 * PACE for d in got)
        if reference is None:
            reference = got
            continue
        n = min(len(got), len(reference))
        assert got[:n] == reference[:n]


class GatedBot(Bot):
    """A bot that thinks until the test lets it answer."""

    name = "gated"

    def __init__(self, game: Any, player: int) -> None:
        self.game, self.player = game, player
        self.started = threading.Event()
        self.release = threading.Event()

    def choose(self, view: View) -> Any:
        self.started.set()
        assert self.release.wait(10), "the test never let the bot answer"
        return self.game.view_legal_moves(view)[0]


def gated_table() -> tuple[Table, ManualClock, GatedBot]:
    game = fourfold.load("icedao")
    clock = ManualClock()
    bot = GatedBot(game, 1)
    table = Table(game, [Seat.human("Ann"), Seat.of_bot(bot, pace=2.0)], clock=clock,
                  seed=3)
    table.play(0, table.legal_moves(0)[0])
    return table, clock, bot


def test_a_quick_bot_is_held_until_its_scheduled_time() -> None:
    table, clock, bot = gated_table()
    try:
        # the bot starts thinking at once, not when its pause is over
        assert bot.started.wait(10)
        bot.release.set()
        wait_until(lambda: table._jobs[1].done, 10, "the bot's answer", every=0.002)  # held
        due = table.next_deadline()
        assert due is not None and 0.6 * 2.0 <= due - clock() <= 1.4 * 2.0
        assert table.version == 1
        clock.advance(due - clock() - 0.001)
        table.advance()
        assert table.version == 1  # not a moment early
        clock.advance(0.001)
        table.advance()
        assert table.version == 2 and table.plies
    finally:
        bot.release.set()
        table.close()


def test_a_slow_bot_lands_when_it_is_done() -> None:
    table, clock, bot = gated_table()
    try:
        assert bot.started.wait(10)
        clock.advance(5.0)  # past any pause
        table.advance()
        assert table.version == 1 and table.thinking() == (1,)
        bot.release.set()
        wait_until(lambda: table.version == 2, 10, "version 2", every=0.002)
    finally:
        bot.release.set()
        table.close()


def test_no_deal_is_drawn_from_a_seeded_stream(tmp_path: Path) -> None:
    """The server's deal source is ``secrets``: in test-seed mode too, deals differ."""
    from fourfold.server.tokens import deal_seed

    starts = {GAME.format_position(GAME.initial_state(deal_seed())) for _ in range(8)}
    assert len(starts) > 1


def test_the_streams_and_the_flag_survive_a_restart(tmp_path: Path) -> None:
    """The row keeps the bots' and the pauses' seeds and the known-deal flag; the deal
    itself lives in the stored record. A table stored before the streams existed gets
    fresh secret ones."""
    import dataclasses

    from fourfold.server.storage import Repository
    from fourfold.server.storage.migrate import open_database
    from fourfold.server.tokens import deal_seed

    url = f"sqlite:///{tmp_path / 'fair.db'}"
    repo = Repository(open_database(url))
    hub = Hub(Settings(database=url, bot_pace=PACE), repo)
    tables: list[LiveTable] = []
    try:
        start = GAME.initial_state(deal_seed())
        specs = [SeatSpec("human", "P1")] + [SeatSpec("bot", f"Bot {p}", "quatrefoil")
                                             for p in (2, 3, 4)]
        match: Match[Any, Any] = Match(GAME, start, [s.name for s in specs])
        row = _new_row(hub, match, specs, private=False, seed=None, known_deal=True,
                       clock=None)
        live = hub.add(row, {0: "a-token"}, match)
        tables.append(live)
        stored = repo.load(live.id)
        assert stored is not None and stored.known_deal and stored.seed is None
        assert (stored.bot_seed, stored.pause_seed) == (live.seed, live.pause_seed)
        again = LiveTable(hub, stored, {}, True)  # as a restarted server loads it
        tables.append(again)
        assert (again.seed, again.pause_seed, again.known_deal) == (
            live.seed, live.pause_seed, True)
        assert Match.from_record(again.table.referee_record()).start == start
        older = LiveTable(hub, dataclasses.replace(stored, bot_seed=None, pause_seed=None),
                          {}, True)
        tables.append(older)
        assert Match.from_record(older.table.referee_record()).start == start
        assert older.known_deal is True
    finally:
        for table in tables:
            table.close()
        hub.bots.shutdown(wait=False)
        hub.workers.shutdown(wait=False)
        repo.close()


def test_tables_stored_before_the_flag_are_upgraded(tmp_path: Path) -> None:
    """Migration 0003 on a database holding a table from before it: the table is not a
    known-deal table (nothing says its creator chose the deal) and has no stream seeds
    (it gets fresh secret ones when loaded)."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from fourfold.server.storage import Repository
    from fourfold.server.storage.migrate import MIGRATIONS, open_database

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    with engine.begin() as connection:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
        record = "[Game \"icedao\"]\n\n*\n"
        connection.execute(text(
            "INSERT INTO tables (id, game, variant, options, status, private, version,"
            " record, seats, seed, clock_left, shared_elapsed, clock_saved_at, created_at,"
            " updated_at) VALUES ('old1', 'icedao', 'standard', '{}', 'live', 0, 0, :r,"
            " '[]', 7, NULL, 0, 0, 0, 0)"), {"r": record})
    engine.dispose()
    repo = Repository(open_database(url))
    try:
        row = repo.load("old1")
        assert row is not None
        assert (row.known_deal, row.bot_seed, row.pause_seed, row.seed) == (
            False, None, None, 7)
    finally:
        repo.close()


def test_held_bots_start_when_told_and_a_finished_bot_wakes_the_owner() -> None:
    game = fourfold.load("icedao")
    clock = ManualClock()
    bot = GatedBot(game, 0)
    woke = threading.Event()
    table = Table(game, [Seat.of_bot(bot, pace=1.0), Seat.human("Ann")], clock=clock,
                  hold_bots=True, on_wake=woke.set)
    try:
        assert table.thinking() == () and not bot.started.is_set()
        table.start_bots()
        assert table.thinking() == (0,)
        assert bot.started.wait(10)
        bot.release.set()
        assert woke.wait(10)  # the server re-arms its timer for the held move
        due = table.next_deadline()
        assert due is not None and table.version == 0
        clock.advance(due - clock())
        table.advance()
        assert table.version == 1
    finally:
        bot.release.set()
        table.close()
