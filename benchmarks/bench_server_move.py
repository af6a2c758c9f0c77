"""The server's own work per move, in-process: CPU time, not latency.

    python benchmarks/bench_server_move.py [--tables 200] [--moves 2000] [--game quarto]

Makes ``--tables`` two-person tables on a fresh SQLite hub (server/hub.py; a tree from
before the split, ``server/live.py``'s ``Hub``, works too: run it with that tree first
on ``PYTHONPATH``), attaches two connections per table (one per seat, as
``fourfold serve``'s sockets do) whose outboxes are drained, and plays ``--moves``
random legal moves through ``LiveTable.act`` round robin over the tables (a finished
game is replaced). It prints the thread CPU time per move (``time.thread_time``:
the save, the events and their JSON, with no sockets and no event loop), which a
machine shared with other work disturbs far less than wall-clock latency.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any


def _hub_class() -> Any:
    try:
        from fourfold.server.hub import Hub
    except ModuleNotFoundError:  # the tree before the split
        from fourfold.server.live import Hub  # type: ignore[attr-defined]
    return Hub


class MoveLoop:
    """``tables`` two-seat tables of ``game`` on a fresh SQLite hub, two connections
    each (outboxes drained), and random legal moves through ``LiveTable.act`` round
    robin; a finished game is replaced by a new table."""

    def __init__(self, game_name: str, tables: int, seed: int) -> None:
        import fourfold
        from fourfold.server.settings import Settings
        from fourfold.server.storage import Repository
        from fourfold.server.storage.migrate import open_database

        self.rng = random.Random(seed)
        self.folder = Path(tempfile.mkdtemp(prefix="fourfold-bench-move-"))
        url = f"sqlite:///{self.folder / 'tables.db'}"
        self.engine = open_database(url)
        self.repo = Repository(self.engine)
        self.hub = _hub_class()(Settings(database=url, bot_pace=0.0), self.repo)
        self.loop = asyncio.new_event_loop()
        self.hub.loop = self.loop
        self.game = fourfold.load(game_name)
        self.queues: list[asyncio.Queue[str | None]] = []
        self.tables = [self.new_table() for _ in range(tables)]
        self.loop.run_until_complete(asyncio.sleep(0))
        self.played = 0

    def new_table(self) -> Any:
        from fourfold.core.match import Match
        from fourfold.server.api import _new_row
        from fourfold.server.live import Connection
        from fourfold.server.specs import SeatSpec

        game, rng = self.game, self.rng
        specs = [SeatSpec("human", "A"), SeatSpec("human", "B")]
        match: Match[Any, Any] = Match(game, game.initial_state(rng.randrange(1 << 30)),
                                       ["A", "B"])
        row = _new_row(self.hub, match, specs, private=False, seed=None, known_deal=False,
                       clock=None)
        live = self.hub.add(row, {0: f"a{rng.random()}", 1: f"b{rng.random()}"}, match)
        for seat in (0, 1):
            connection = Connection(seat, queue=asyncio.Queue())
            live.attach(connection)
            self.queues.append(connection.queue)
        return live

    def play(self, count: int) -> float:
        """Play ``count`` moves; returns the thread CPU time of their ``act`` calls."""
        spent = 0.0
        tables = self.tables
        for _ in range(count):
            i = self.played
            self.played += 1
            k = i % len(tables)
            live = tables[k]
            if live.table.outcome is not None:
                live = tables[k] = self.new_table()
            seat = live.table.actors()[0]
            move = self.rng.choice(live.table.legal_moves(seat))
            start = time.thread_time()
            live.act(lambda table, s=seat, m=move: table.play(s, m))
            spent += time.thread_time() - start
            if i % 200 == 199:  # hand the events to the outboxes, then drop them
                self.loop.run_until_complete(asyncio.sleep(0))
                self.repo.checkpoint_wal()  # as the server does every 2 s (untimed)
                for queue in self.queues:
                    while not queue.empty():
                        queue.get_nowait()
        return spent

    def close(self) -> None:
        self.hub.shutdown()
        self.repo.close()
        self.engine.dispose()
        self.loop.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--moves", type=int, default=2000)
    p.add_argument("--game", default="quarto")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if not 1 <= args.tables <= 10_000 or not 1 <= args.moves <= 1_000_000:
        p.error("--tables is 1 to 10000 and --moves 1 to 1000000")
    bench = MoveLoop(args.game, args.tables, args.seed)
    try:
        per_move = [bench.play(args.moves) / args.moves * 1000 for _ in range(args.rounds)]
        print(f"{args.game}: {args.tables} tables, {args.moves} moves x {args.rounds}:"
              f" CPU per move {statistics.median(per_move):.3f} ms (median;"
              f" rounds {', '.join(f'{v:.3f}' for v in per_move)})")
    finally:
        bench.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
