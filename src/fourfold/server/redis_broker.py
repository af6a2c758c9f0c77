"""``RedisBroker``: several ``fourfold serve`` instances on one database (docs/deploy.md).

Each table is *owned* by one instance, which holds its lease in the database and alone
runs its timer, its bots and its clock checkpoints; other instances hold *mirrors*
(their bots parked, no timer). Any instance applies actions: the database's version
check serialises them (a stale copy is refreshed and the action tried again, at most
three times). Every event of a change made here is published, one message per event
with every recipient's JSON (``fourfold.server.cluster``); other instances hand each
local connection the JSON of its own recipient (deduplicated by version) and refresh
their copy from the database. Should the broker drop messages, ``sync`` compares
versions with the database every few seconds and ``catch_up`` runs after every
(re)subscription.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fourfold.server.broker import Broker
from fourfold.server.cluster import Cluster, instance_name
from fourfold.server.fanout import Connection, dumps, muted, recipient_key
from fourfold.table import Event, Table
from fourfold.table.events import EventKind
from fourfold.wire import event_to_json

if TYPE_CHECKING:
    from fourfold.server.hub import Hub
    from fourfold.server.live import LiveTable
    from fourfold.server.settings import Settings

log = logging.getLogger("fourfold.server")
#: tables whose expired (or missing) lease is looked for at each lease round
CLAIM_BATCH = 50


class RedisBroker(Broker):
    """Several instances, events through Redis (see the module's docstring)."""

    attempts = 3

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.hub: Hub | None = None
        self.cluster = Cluster(settings.broker or "", settings.instance or instance_name(),
                               self.heard, self._subscribed, self._holds)
        self.instance = self.cluster.instance

    def describe(self) -> str | None:
        return f"instance {self.instance}, broker {self.settings.broker}"

    def _hub(self) -> Hub:
        assert self.hub is not None, "the broker is not started"
        return self.hub

    def _holds(self, table_id: str) -> bool:
        return self.hub is not None and self.hub.find(table_id) is not None

    async def _subscribed(self) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.catch_up)

    # -- tables ------------------------------------------------------------------------
    def owns_loaded(self) -> bool:
        return False  # a lease makes it ours (``leases``)

    def claim_new(self, hub: Hub, table_id: str) -> bool:
        now = time.time()
        return hub.repo.claim(table_id, self.instance, now, now + self.settings.lease_seconds)

    def restore(self, hub: Hub) -> int:
        self.hub = hub
        return 0  # tables are taken up through their leases

    def before_read(self, live: LiveTable) -> None:
        """Another instance may have saved a change a moment ago, its event still on the
        way through the broker. Read the stored version (one query by primary key) and
        reload when it is ahead, so whoever was told a change was accepted, on any
        instance, reads it here at once (docs/deploy.md)."""
        try:
            stored = live.hub.repo.stored_version(live.id)
            if live.stale or max(stored or -1, live.wanted) > live.saved_version:
                live.refresh(announce=False)
        except Exception as error:  # the database is not answering: serve this copy
            log.warning("table %s: cannot check for newer changes: %s", live.id, error)

    def seat_for(self, live: LiveTable, digest: str) -> int | None:
        """Ask the database again on a miss: another instance may have seated someone."""
        seat = live.tokens.get(digest)
        if seat is None:
            live.tokens = live.hub.repo.token_hashes(live.id)
            seat = live.tokens.get(digest)
        return seat

    def charges_restored_clocks(self) -> bool:
        return True

    def stale_write(self, live: LiveTable, expected: int) -> None:
        pass  # another instance saved first: the action is retried on a fresh copy

    # -- events ------------------------------------------------------------------------
    def relay(self, live: LiveTable, table: Table) -> None:
        """Publish every event of a change made here, with each recipient's JSON."""
        cluster = self.cluster
        group: dict[str, str] = {}
        recipients: list[int | None] = [*range(live.game.num_players), None]
        game, table_id = live.game, live.id

        def listener_for(recipient: int | None) -> Callable[[Event], None]:
            def listener(event: Event) -> None:
                if event.kind is EventKind.START or muted():
                    return
                group[recipient_key(recipient)] = dumps(event_to_json(game, event))
                if recipient is None:  # subscribed last: every recipient's JSON is in
                    cluster.publish(table_id, {
                        "k": event.kind.value, "v": event.version, "seat": event.seat,
                        "offer": event.offer, "e": dict(group)})
                    group.clear()
            return listener

        for recipient in recipients:
            table.subscribe(recipient, listener_for(recipient))

    def deliver(self, connection: Connection, version: int, kind: str, text: str) -> None:
        """Events reach a connection from here and from the broker: once each."""
        connection.offer(version, kind, text)

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        self.cluster.publish(table_id, message)

    def heard(self, message: dict[str, Any]) -> None:
        """On the loop: an event of a change made on another instance."""
        hub = self._hub()
        live = hub.find(str(message.get("t")))
        if live is None:
            return
        kind = message.get("k")
        if kind == "broadcast":
            live.rematch_id = message.get("rematch") or live.rematch_id
            live.broadcast(str(message.get("text")), relay=False)
            live.stale = True
            return
        version = int(message.get("v", -1))
        events = message.get("e") or {}
        for connection in list(live.connections):
            text = events.get(recipient_key(connection.recipient))
            if isinstance(text, str):
                connection.offer(version, str(kind), text)
        if kind in ("offer", "decline"):
            hub.workers.submit(live.mirror_offer, str(kind), message.get("seat"),
                               message.get("offer"))
        elif version > live.saved_version or kind == "seats":
            # whoever reads it next refreshes it first
            live.wanted = max(live.wanted, version)
            live.stale = live.stale or kind == "seats"
            if live.connections or live.owner:
                hub.workers.submit(_refresh_quietly, live)

    # -- keeping up --------------------------------------------------------------------
    def leases(self) -> None:
        """Renew this instance's leases, let go of lost and finished tables, and take
        tables whose lease expired (their instance died) or that have none."""
        hub = self._hub()
        now = time.time()
        until = now + self.settings.lease_seconds
        held = hub.repo.renew(self.instance, until, now)
        tables = hub.held()
        for live in tables:
            if live.owner and live.id not in held:
                log.warning("table %s: lease lost", live.id)
                live.set_owner(False)
        done = [live.id for live in tables
                if live.owner and live.status in ("finished", "abandoned")]
        if done:
            hub.repo.release(self.instance, done)
            for live in tables:
                if live.id in done:
                    live.owner = False
        for table_id in hub.repo.claimable(now, CLAIM_BATCH):
            if table_id in held or not hub.repo.claim(table_id, self.instance, now, until):
                continue
            taken = hub.get(table_id)
            if taken is not None:
                log.info("table %s: lease taken", table_id)
                taken.set_owner(True)

    def sync(self) -> None:
        """Compare the versions of the tables in play here with the database: catch up
        tables the broker did not tell us about (it may be down, or restarting)."""
        hub = self._hub()
        tables = [t for t in hub.held() if t.connections or t.owner]
        stored = hub.repo.versions([t.id for t in tables])
        for live in tables:
            version = stored.get(live.id)
            if version is None or version <= live.saved_version:
                live.behind = None
                live.catch_up_laggards()
            elif not self.cluster.connected or (live.behind is not None
                                                and live.behind <= version):
                live.refresh(announce=True)
            else:
                live.behind = version  # maybe an event in flight: look again next time

    def catch_up(self) -> None:
        """After (re)subscribing to the broker: events may have been missed. Refresh
        every watched table from the database; send its connections their view."""
        if self.hub is None:
            return
        for live in self.hub.held():
            if live.connections or live.owner:
                try:
                    live.refresh(announce=True)
                except Exception as error:
                    log.warning("table %s: cannot catch up: %s", live.id, error)
            else:
                live.stale = True

    # -- running -----------------------------------------------------------------------
    def tasks(self, hub: Hub, loop: asyncio.AbstractEventLoop,
              every: Callable[[float, Callable[[], object]], asyncio.Task[None]]
              ) -> list[asyncio.Task[None]]:
        return [*self.cluster.tasks(loop), every(self.settings.lease_seconds / 3, self.leases),
                every(self.settings.sync_seconds, self.sync)]

    async def start(self, hub: Hub) -> None:
        self.hub = hub
        await asyncio.get_running_loop().run_in_executor(None, self.leases)

    def shutdown(self, hub: Hub) -> None:
        try:  # let the other instances take over at once
            hub.repo.release(self.instance)
        except Exception as error:
            log.warning("leases not released: %s", error)


def _refresh_quietly(live: LiveTable) -> None:
    try:
        live.refresh(announce=False)
    except Exception as error:
        live.stale = True
        log.warning("table %s: cannot refresh: %s", live.id, error)
