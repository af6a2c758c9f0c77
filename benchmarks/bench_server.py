"""Load benchmark for ``fourfold serve``: N live tables of random players over WebSockets.

    python benchmarks/bench_server.py [--tables 100,250,500,1000,2000] [--seconds 20]
        [--think 5] [--clients 1] [--game quarto] [--json] [--profile DIR]
        [--url http://127.0.0.1:PORT | --database URL | --instances N]

For each N of ``--tables`` it starts a fresh ``fourfold serve`` on 127.0.0.1 (a temporary
data directory, SQLite unless ``--database``; ``--rate`` and the caps on tables per
address raised so the limits never throttle the generator), or targets ``--url`` (which
must be started with them raised too). Then ``--clients`` generator processes
(asyncio + the ``websockets`` client) create N tables over REST (two ``human`` seats
each) and open one WebSocket per seat (2N sockets). Each seat plays a random legal move
from its own view when its view says it may act, after a think time drawn uniformly
from ``[0.5, 1.5] * --think`` seconds (``--think 0``: at once, which saturates the
server). A finished game is replaced by a new table (REST + two new sockets).

Measured over ``--seconds`` (after ``--warmup``):

- move-to-broadcast latency: from sending a move on seat A's socket to receiving the
  resulting ``move`` event on seat B's socket (both sockets are in one process, one
  monotonic clock); p50/p90/p99/max;
- the mover's own ``ack`` latency, and a ping probe (one socket sends ``ping`` every
  50 ms and times the ``pong``: answered on the server's event loop without a thread
  hop, so it shows the loop's lag);
- moves per second (broadcasts received by the other seat);
- memory: server RSS (``/proc/PID/status`` VmRSS) after every table is connected minus
  RSS before any table existed, divided by N;
- CPU: the server's CPU time (``/proc/PID/stat`` utime + stime, every thread) over the
  window divided by the window (100 % = one core); the generator's (its processes'
  ``time.process_time()``) likewise. On a 2-core machine the generator competes with
  the server for the cores: its CPU is printed next to the server's.

``--profile DIR`` runs ``py-spy record`` on the server (``pip install py-spy``) over
the window and writes DIR/profile-N.txt (collapsed stacks) and a summary of the
hottest frames (wall-clock samples: on a busy machine, time waiting for a core shows
up in whatever frame held the GIL). ``--cprofile DIR`` profiles the server's event-loop
thread with cProfile over the window, timed by that thread's CPU clock, into
DIR/cprofile-N-0.pstats. Both print the server's CPU per move: its CPU time over the
window (every thread) divided by the moves broadcast, new tables and their sockets
included. Everything is on loopback, bounded in tables, time (``--timeout``) and
retries, and the servers are stopped at the end. ``--json`` prints
``{"rows": [{"game", "engine", "metric", "value", "tables"}...], "runs": [...]}``.
See docs/benchmarks-server.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing as mp
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

#: ``--server-patch NAME``: experiments run inside the server process before it starts,
#: to measure a proposed fix without editing the server (see docs/benchmarks-server.md;
#: the two fixes measured first, one SQLite writer and GC tuning, are now in the server)
PATCHES = {
    # time every write transaction (Engine.begin ... commit) and print a summary line
    # ("BENCH-WRITES {json}") when the server stops; the benchmark reads it from the log
    "time-writes": """
import atexit, contextlib, json as _json, threading, time as _time
import sqlalchemy.engine.base as _base
_tbegin = _base.Engine.begin
_times = []
@contextlib.contextmanager
def _timed_begin(self):
    start = _time.perf_counter()
    with _tbegin(self) as c:
        yield c
    _times.append(_time.perf_counter() - start)
_base.Engine.begin = _timed_begin
def _report():
    t = sorted(_times[50:]) or [0.0]
    q = lambda f: round(1000 * t[min(len(t) - 1, int(f * len(t)))], 2)
    print("BENCH-WRITES " + _json.dumps({"count": len(t), "p50_ms": q(0.5), "p90_ms": q(0.9),
          "p99_ms": q(0.99), "max_ms": q(1.0), "mean_ms": round(1000 * sum(t) / len(t), 3)}),
          flush=True)
atexit.register(_report)
""",
    # time the cyclic garbage collector's pauses (stop-the-world, GIL held) per
    # generation; "BENCH-GC {json}" at exit
    "time-gc": """
import atexit, gc as _gc, json as _json, time as _time
_gcs = {0: [], 1: [], 2: []}
_gc_start = [0.0]
_gc_long = []  # [start (perf_counter, comparable with the generator's), generation, ms]
def _gc_cb(phase, info):
    if phase == "start":
        _gc_start[0] = _time.perf_counter()
    else:
        took = _time.perf_counter() - _gc_start[0]
        _gcs[info["generation"]].append(took)
        if took >= 0.02:
            _gc_long.append([round(_gc_start[0], 3), info["generation"], round(1000 * took, 1)])
_gc.callbacks.append(_gc_cb)
def _gc_report():
    out = {}
    for g, t in _gcs.items():
        t = sorted(t) or [0.0]
        out[f"gen{g}"] = {"count": len(_gcs[g]), "max_ms": round(1000 * t[-1], 1),
                          "p50_ms": round(1000 * t[len(t) // 2], 2),
                          "total_ms": round(1000 * sum(t), 1)}
    out["long"] = _gc_long
    print("BENCH-GC " + _json.dumps(out), flush=True)
atexit.register(_gc_report)
""",
    # hand the GIL over every 0.5 ms instead of 5 ms: if latency drops, threads that
    # release the GIL often (database I/O, the event loop) were waiting for it
    "switch-interval": """
import sys as _sys
_sys.setswitchinterval(0.0005)
""",
}

#: ``--cprofile``: SIGUSR1 (the window opens) starts cProfile on the event loop's thread
#: (the main thread: signal handlers run there; on SQLite every action runs on it too),
#: timed by that thread's CPU clock, so time the process spends waiting for a core on a
#: busy machine is not counted; SIGUSR2 (the window closes) stops it and writes PATH
CPROFILE = """
import cProfile as _cp, signal as _sig, time as _t
_prof = _cp.Profile(_t.thread_time)
_sig.signal(_sig.SIGUSR1, lambda *_: _prof.enable())
def _cp_stop(*_):
    _prof.disable()
    _prof.dump_stats(PATH)
_sig.signal(_sig.SIGUSR2, _cp_stop)
"""


# -- the server ------------------------------------------------------------------------------

def free_ports(count: int) -> list[int]:
    """``count`` consecutive free loopback ports."""
    for _ in range(200):
        with socket.socket() as s:
            s.bind((HOST, 0))
            base = int(s.getsockname()[1])
        if base + count > 65535:
            continue
        ok = True
        for port in range(base, base + count):
            with socket.socket() as s:
                try:
                    s.bind((HOST, port))
                except OSError:
                    ok = False
                    break
        if ok:
            return list(range(base, base + count))
    raise RuntimeError(f"no {count} consecutive free ports")


@dataclass
class Server:
    port: int
    data: Path
    database: str | None
    extra: list[str]
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self, env: dict[str, str], cprofile: Path | None = None,
              patches: tuple[str, ...] = ()) -> None:
        prelude = "".join(PATCHES[name] for name in patches)
        code = prelude + "from fourfold.cli.main import main; raise SystemExit(main())"
        if cprofile is not None:  # over the window, on the event loop's thread
            code = prelude + CPROFILE.replace("PATH", repr(str(cprofile))) + code
        args = [sys.executable, "-c", code,
                "serve", "--host", HOST, "--port", str(self.port), "--data", str(self.data),
                "--rate", "100000", "--address-rate", "100000",
                "--max-sockets-per-address", "100000", "--max-tables-per-address",
                "100000", "--max-lobby-tables-per-address", "100000",
                "--tables-per-minute", "1000000", "--max-connections-per-address",
                "1000000", *self.extra]
        if self.database:
            args += ["--database", self.database]
        self.log = self.data / f"server-{self.port}.log"
        with self.log.open("wb") as handle:
            self.process = subprocess.Popen(args, stdout=handle, stderr=subprocess.STDOUT,
                                            env=env)

    def wait(self, seconds: float = 60.0) -> None:
        import httpx

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.output()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/api/health", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start: {self.output()[-2000:]}")

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log and self.log.exists() else ""

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        self.process = None


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def cpu_seconds(pid: int) -> float:
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return 0


def raise_nofile(needed: int) -> tuple[int, int]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    if soft < needed:
        print(f"warning: ulimit -n is {soft}, the run needs about {needed} descriptors",
              file=sys.stderr)
    return soft, hard


# -- the generator (one process) -------------------------------------------------------------

@dataclass
class Stats:
    broadcast_ms: list[float] = field(default_factory=list)
    #: when each broadcast sample arrived (seconds into the window)
    broadcast_at: list[float] = field(default_factory=list)
    #: when the window opened (perf_counter)
    started: float = 0.0
    #: the generator's own collector pauses of 20 ms or more: [start, generation, ms]
    gc_long: list[list[float]] = field(default_factory=list)
    ack_ms: list[float] = field(default_factory=list)
    ping_ms: list[float] = field(default_factory=list)
    moves: int = 0
    games_ended: int = 0
    tables_created: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    measuring: bool = False


class Generator:
    """Tables of two random seats, all in one asyncio loop."""

    def __init__(self, urls: list[str], game: str, variant: str | None, think: float,
                 seed: int, create_concurrency: int) -> None:
        self.urls = urls
        self.game = game
        self.variant = variant
        self.think = think
        self.ramp = 0.0
        self.rng = random.Random(seed)
        self.stats = Stats()
        self.stopping = False
        self.sem = asyncio.Semaphore(create_concurrency)
        self.http: dict[str, Any] = {}
        self.go = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.sockets: set[Any] = set()

    async def client(self, url: str) -> Any:
        import httpx

        if url not in self.http:
            self.http[url] = httpx.AsyncClient(
                base_url=url, timeout=60,
                limits=httpx.Limits(max_connections=64, max_keepalive_connections=64))
        return self.http[url]

    async def create(self, index: int) -> tuple[str, str, list[str]]:
        """A new table on one of the instances (round robin); its id, base URL, tokens."""
        url = self.urls[index % len(self.urls)]
        body: dict[str, Any] = {"game": self.game, "seats": ["human", "human"]}
        if self.variant:
            body["variant"] = self.variant
        http = await self.client(url)
        for attempt in range(5):
            async with self.sem:
                try:
                    r = await http.post("/api/tables", json=body)
                except Exception as error:  # counted, retried
                    self.stats.errors[f"create: {type(error).__name__}"] += 1
                    await asyncio.sleep(0.2 * (attempt + 1))
                    continue
            if r.status_code == 201:
                data = r.json()
                self.stats.tables_created += 1
                return data["id"], url, [s["token"] for s in data["seats"]]
            self.stats.errors[f"create: {r.status_code}"] += 1
            await asyncio.sleep(0.2 * (attempt + 1))
        raise RuntimeError("cannot create a table")

    async def connect(self, url: str, table_id: str, token: str | None) -> Any:
        import websockets

        ws_url = url.replace("http://", "ws://") + f"/api/tables/{table_id}/live"
        for attempt in range(5):
            try:
                async with self.sem:
                    ws = await websockets.connect(ws_url, open_timeout=60,
                                                  ping_interval=None, max_size=2**22,
                                                  compression=None)
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                self.sockets.add(ws)
                return ws
            except Exception as error:  # counted, retried
                self.stats.errors[f"connect: {type(error).__name__}"] += 1
                await asyncio.sleep(0.2 * (attempt + 1))
        raise RuntimeError("cannot open a WebSocket")

    async def open_table(self, index: int) -> Any:
        table_id, url, tokens = await self.create(index)
        sockets = await asyncio.gather(*(self.connect(url, table_id, t) for t in tokens))
        return TablePlay(self, index, table_id, url, list(sockets))

    async def ping_probe(self, url: str, table_id: str) -> None:
        ws = await self.connect(url, table_id, None)
        try:
            await ws.recv()  # welcome
            await self.go.wait()
            while not self.stopping:
                start = time.perf_counter()
                await ws.send('{"type":"ping"}')
                while True:
                    text = await ws.recv()
                    if '"pong"' in text:
                        break
                if self.stats.measuring:
                    self.stats.ping_ms.append((time.perf_counter() - start) * 1000)
                await asyncio.sleep(0.05)
        except Exception:  # the probe ends with the run
            pass


class TablePlay:
    """One table: two seat sockets; a seat moves when its own view lets it."""

    def __init__(self, gen: Generator, index: int, table_id: str, url: str,
                 sockets: list[Any]) -> None:
        self.gen = gen
        self.index = index
        self.table_id = table_id
        self.url = url
        self.sockets = sockets
        self.sent_at: float | None = None
        self.ack_at: float | None = None
        self.mover: int | None = None
        self.over = asyncio.Event()

    async def run(self) -> None:
        """Play games until the run stops; a finished game is replaced by a new table."""
        gen = self.gen
        first = True
        while not gen.stopping:
            readers = [asyncio.create_task(self.seat(s, first)) for s in range(2)]
            done, pending = await asyncio.wait(readers, return_when=asyncio.FIRST_EXCEPTION)
            for task in pending:
                task.cancel()
            for task in done:
                if task.exception() is not None and not gen.stopping:
                    gen.stats.errors[f"seat: {type(task.exception()).__name__}"] += 1
            await self.close()
            if gen.stopping:
                return
            first = False
            try:
                fresh = await gen.open_table(self.index)
            except RuntimeError:
                gen.stats.errors["replace failed"] += 1
                return
            self.table_id, self.url, self.sockets = fresh.table_id, fresh.url, fresh.sockets
            self.sent_at = None
            self.mover = None
            self.over = asyncio.Event()

    async def close(self) -> None:
        for ws in self.sockets:
            self.gen.sockets.discard(ws)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2)

    async def seat(self, me: int, wait_for_go: bool) -> None:
        try:
            await self._seat(me, wait_for_go)
        except Exception:
            if not self.gen.stopping:
                raise

    async def _seat(self, me: int, wait_for_go: bool) -> None:
        gen = self.gen
        ws = self.sockets[me]
        stats = gen.stats
        other = 1 - me
        think = gen.think
        rng = gen.rng
        if wait_for_go:
            # read the welcome and the start event, then wait for everybody
            pending_texts = [await ws.recv(), await ws.recv()]
            await gen.go.wait()
            if think or gen.ramp:  # tables begin play at random moments over the ramp
                await asyncio.sleep(rng.uniform(0, gen.ramp or think))
        else:
            pending_texts = []
        while not gen.stopping and not self.over.is_set():
            text = pending_texts.pop(0) if pending_texts else await ws.recv()
            now = time.perf_counter()
            message = json.loads(text)
            kind = message.get("type")
            if kind == "ack":
                if self.ack_at is not None and stats.measuring and self.mover == me:
                    stats.ack_ms.append((now - self.ack_at) * 1000)
                self.ack_at = None
                continue
            if kind == "refused":
                stats.refused[str(message.get("status"))] += 1
                continue
            if kind != "event":
                continue
            if message.get("kind") == "move" and message.get("seat") == other and \
                    self.sent_at is not None and self.mover == other:
                if stats.measuring:
                    stats.broadcast_ms.append((now - self.sent_at) * 1000)
                    stats.broadcast_at.append(now - stats.started)
                    stats.moves += 1
                self.sent_at = None
            view = message.get("view") or {}
            if message.get("outcome") is not None or view.get("outcome") is not None:
                if me == 0 and stats.measuring:
                    stats.games_ended += 1
                self.over.set()
                return
            legal = view.get("legal_moves") or []
            if me in (view.get("actors") or []) and legal:
                if think:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                if gen.stopping:
                    return
                self.mover = me
                text = json.dumps({"type": "move", "move": rng.choice(legal),
                                   "version": message["version"]})
                self.sent_at = self.ack_at = time.perf_counter()
                await ws.send(text)


def generator_main(conn: Any, urls: list[str], first_index: int, count: int,
                   options: dict[str, Any]) -> None:
    """One generator process: set up ``count`` tables, report, play on 'go', report."""
    with contextlib.suppress(Exception):
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        import uvloop  # the server runs on uvloop too (uvicorn[standard])

        uvloop.install()
    except ImportError:
        pass
    try:
        asyncio.run(_generate(conn, urls, first_index, count, options))
    except Exception as error:  # reported to the parent
        with contextlib.suppress(Exception):
            conn.send({"error": f"{type(error).__name__}: {error}"})


async def _generate(conn: Any, urls: list[str], first_index: int, count: int,
                    options: dict[str, Any]) -> None:
    gen = Generator(urls, options["game"], options["variant"], options["think"],
                    options["seed"] + first_index, options["create_concurrency"])
    gen.ramp = options["ramp"]
    started = time.perf_counter()
    tables = await asyncio.gather(*(gen.open_table(first_index + i) for i in range(count)),
                                  return_exceptions=True)
    playing = [t for t in tables if isinstance(t, TablePlay)]
    setup_seconds = time.perf_counter() - started
    probe = None
    if options["probe"] and playing:
        probe = asyncio.create_task(gen.ping_probe(playing[0].url, playing[0].table_id))
    await asyncio.sleep(0.2)
    conn.send({"ready": len(playing), "failed": count - len(playing),
               "setup_seconds": setup_seconds, "errors": dict(gen.stats.errors)})
    loop = asyncio.get_running_loop()
    go = await loop.run_in_executor(None, conn.recv)
    if go != "go":
        return
    # The generator's own collector must not pause the measurement: its 4,000 sockets
    # made full collections of ~100 ms that read as server latency. Freeze what set-up
    # made, and time every pause that is left (reported as generator_gc_long).
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    gc_started = [0.0]

    def gc_timer(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            gc_started[0] = time.perf_counter()
        elif time.perf_counter() - gc_started[0] >= 0.02 and gen.stats.measuring:
            gen.stats.gc_long.append([round(gc_started[0], 3), info["generation"],
                                      round(1000 * (time.perf_counter() - gc_started[0]), 1)])

    gc.callbacks.append(gc_timer)
    gen.tasks = [asyncio.create_task(t.run()) for t in playing]
    gen.go.set()
    await asyncio.sleep(options["ramp"] + options["warmup"])
    gen.stats.measuring = True
    cpu0, wall0 = time.process_time(), time.perf_counter()
    gen.stats.started = wall0
    await asyncio.sleep(options["seconds"])
    gen.stats.measuring = False
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    gen.stopping = True
    s = gen.stats
    conn.send({"broadcast_ms": s.broadcast_ms, "broadcast_at": s.broadcast_at,
               "ack_ms": s.ack_ms, "ping_ms": s.ping_ms,
               "moves": s.moves, "games_ended": s.games_ended,
               "tables_created": s.tables_created, "refused": dict(s.refused),
               "errors": dict(s.errors), "cpu_seconds": cpu, "wall_seconds": wall,
               "window_started": s.started, "gc_long": s.gc_long})
    # wind down: close every socket, briefly
    for task in [*gen.tasks, *([probe] if probe else [])]:
        task.cancel()
    await asyncio.gather(*gen.tasks, return_exceptions=True)
    with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(ws.close() for ws in list(gen.sockets)),
                                              return_exceptions=True), 20)
    for http in gen.http.values():
        await http.aclose()


# -- one step of the ramp --------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return round(ordered[index], 2)


def summary(values: list[float]) -> dict[str, Any]:
    return {"count": len(values), "p50": percentile(values, 50), "p90": percentile(values, 90),
            "p99": percentile(values, 99), "max": round(max(values), 2) if values else None}


def slow_seconds(samples: list[tuple[float, float]], over_ms: float = 50.0
                 ) -> list[dict[str, Any]]:
    """Each whole second of the window with broadcasts over ``over_ms``: how many, of
    how many, and the worst (are the slow ones spread out, or bunched in stalls?)."""
    seconds: dict[int, list[float]] = {}
    for at, ms in samples:
        seconds.setdefault(int(at), []).append(ms)
    return [{"second": t, "slow": sum(ms > over_ms for ms in values), "of": len(values),
             "max_ms": round(max(values), 1)}
            for t, values in sorted(seconds.items()) if max(values) > over_ms]


def run_step(args: argparse.Namespace, n: int, deadline: float) -> dict[str, Any]:
    servers: list[Server] = []
    data = Path(tempfile.mkdtemp(prefix="fourfold-bench-server-"))
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if args.source:  # another checkout of the server, e.g. `git archive HEAD src | tar x`
        env["PYTHONPATH"] = os.pathsep.join(
            [str(Path(args.source).resolve()), *filter(None, [env.get("PYTHONPATH")])])
    procs: list[Any] = []
    conns: list[Any] = []
    result: dict[str, Any] | None = None
    profiler: subprocess.Popen[bytes] | None = None
    try:
        if args.url:
            urls = [u.rstrip("/") for u in args.url]
            pids = list(args.pid or [])
        else:
            ports = free_ports(args.instances)
            database = args.database
            if args.instances > 1 and database is None:
                database = f"sqlite:///{data / 'shared.sqlite3'}"
            for port in ports:
                d = data / str(port)
                d.mkdir()
                extra = list(args.server_arg or [])
                servers.append(Server(port, d, database, extra))
            for i, server in enumerate(servers):
                profile_to = None
                if args.cprofile and i == 0:
                    Path(args.cprofile).mkdir(parents=True, exist_ok=True)
                    profile_to = Path(args.cprofile).resolve() / f"cprofile-{n}-{i}.pstats"
                server.start(env, profile_to, tuple(args.server_patch or ()))
                server.wait()  # one after another: migrations on a shared database
            urls = [s.url for s in servers]
            pids = [s.process.pid for s in servers if s.process is not None]
        rss0 = sum(rss_bytes(p) for p in pids)
        # split the tables between the generator processes
        k = max(1, min(args.clients, n))
        shares = [n // k + (1 if i < n % k else 0) for i in range(k)]
        ctx = mp.get_context("spawn")
        options = {"game": args.game, "variant": args.variant, "think": args.think,
                   "ramp": args.ramp,
                   "seed": args.seed, "warmup": args.warmup, "seconds": args.seconds,
                   "create_concurrency": args.create_concurrency, "probe": False}
        first = 0
        for i, share in enumerate(shares):
            parent, child = ctx.Pipe()
            opts = {**options, "probe": i == 0}
            p = ctx.Process(target=generator_main, args=(child, urls, first, share, opts),
                            daemon=True)
            p.start()
            procs.append(p)
            conns.append(parent)
            first += share
        ready = []
        for c in conns:
            if not c.poll(max(1.0, deadline - time.monotonic())):
                raise RuntimeError("the generator did not get ready in time")
            message = c.recv()
            if "error" in message:
                raise RuntimeError(f"generator: {message['error']}")
            ready.append(message)
        time.sleep(1.0)  # let the server settle
        rss1 = sum(rss_bytes(p) for p in pids)
        live = sum(m["ready"] for m in ready)
        for c in conns:
            c.send("go")
        time.sleep(args.ramp + args.warmup)
        if args.profile and pids:
            Path(args.profile).mkdir(parents=True, exist_ok=True)
            spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
            out = Path(args.profile) / f"profile-{n}.txt"
            profiler = subprocess.Popen(
                [spy, "record", "--pid", str(pids[0]), "--duration", str(int(args.seconds)),
                 "--rate", "200", "--format", "raw", "--threads", "--gil", "--nonblocking",
                 "--output", str(out)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if args.cprofile and pids:
            os.kill(pids[0], signal.SIGUSR1)
        cpu0 = {p: cpu_seconds(p) for p in pids}
        wall0 = time.monotonic()
        results = []
        for c in conns:
            left = max(1.0, deadline - time.monotonic())
            if not c.poll(min(left, args.seconds + 120)):
                raise RuntimeError("the generator did not report in time")
            message = c.recv()
            if "error" in message:
                raise RuntimeError(f"generator: {message['error']}")
            results.append(message)
        wall = time.monotonic() - wall0
        cpu = sum(cpu_seconds(p) - cpu0[p] for p in pids)
        if args.cprofile and pids:
            os.kill(pids[0], signal.SIGUSR2)
        rss2 = sum(rss_bytes(p) for p in pids)
        nthreads = sum(threads(p) for p in pids)
        if profiler is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                profiler.wait(30)
        broadcast = [x for r in results for x in r["broadcast_ms"]]
        seconds = max(r["wall_seconds"] for r in results)
        moves = sum(r["moves"] for r in results)
        gen_cpu = sum(r["cpu_seconds"] for r in results)
        row = {
            "tables": n, "live_tables": live, "sockets": 2 * live, "instances": len(urls),
            "game": args.game, "think_s": args.think,
            "moves_per_s": round(moves / seconds, 1),
            "broadcast_ms": summary(broadcast),
            "window_started": min(r["window_started"] for r in results),
            "generator_gc_long": [x for r in results for x in r["gc_long"]],
            "slow_seconds": slow_seconds(
                [(t, x) for r in results for t, x in zip(r["broadcast_at"], r["broadcast_ms"],
                                                        strict=True)]),
            "ack_ms": summary([x for r in results for x in r["ack_ms"]]),
            "ping_ms": summary([x for r in results for x in r["ping_ms"]]),
            "server_rss_mb": {"before": round(rss0 / 2**20, 1),
                              "connected": round(rss1 / 2**20, 1),
                              "end": round(rss2 / 2**20, 1)},
            "server_rss_kb_per_table": round((rss1 - rss0) / 1024 / max(1, live), 1),
            "server_cpu_pct": round(100 * cpu / wall, 1) if pids else None,
            # server CPU (every thread, the kernel's share too) per move broadcast in the
            # window, the replacement tables' creation and sockets included: what a
            # busy machine disturbs least (it does not count time spent waiting)
            "server_cpu_ms_per_move": (round(1000 * cpu * seconds / wall / moves, 3)
                                       if pids and moves else None),
            "server_threads": nthreads,
            "generator_cpu_pct": round(100 * gen_cpu / seconds, 1),
            "generator_processes": len(results),
            "setup_seconds": round(max(m["setup_seconds"] for m in ready), 1),
            "games_ended": sum(r["games_ended"] for r in results),
            "tables_created": sum(r["tables_created"] for r in results),
            "refused": dict(sum((Counter(r["refused"]) for r in results), Counter())),
            "errors": dict(sum((Counter(r["errors"]) for r in results), Counter()) +
                           sum((Counter(m["errors"]) for m in ready), Counter())),
        }
        if profiler is not None:
            row["profile"] = str(Path(args.profile) / f"profile-{n}.txt")
        if args.server_patch:
            row["server_patches"] = list(args.server_patch)
        result = row
        return row
    finally:
        for c in conns:
            with contextlib.suppress(Exception):
                c.send("stop")
        for p in procs:
            p.join(30)
            if p.is_alive():
                p.kill()
                p.join(5)
        if profiler is not None and profiler.poll() is None:
            profiler.kill()
        for server in servers:
            server.stop()
            for line in server.output().splitlines():
                if line.startswith("BENCH-WRITES ") and result is not None:
                    result.setdefault("server_writes", []).append(json.loads(line[13:]))
                if line.startswith("BENCH-GC ") and result is not None:
                    result.setdefault("server_gc", []).append(json.loads(line[9:]))
        if not args.keep_data:
            shutil.rmtree(data, ignore_errors=True)
        else:
            print(f"data kept in {data}", file=sys.stderr)


# -- profiles --------------------------------------------------------------------------------

def hot_frames(path: Path, top: int = 40) -> list[tuple[str, float, float]]:
    """From py-spy's collapsed stacks (``--gil``: only the thread holding the GIL is
    sampled, so 100 % is the time the interpreter was busy): (frame, % of samples as
    self, % as anywhere in the stack); thread names are kept, their ids dropped."""
    self_count: Counter[str] = Counter()
    total_count: Counter[str] = Counter()
    samples = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        frames = [f.split(")", 1)[1].strip(": ") if f.startswith("thread (") else f
                  for f in stack.split(";")]
        frames = [f.rstrip("0123456789") if f.startswith("AnyIO") else f for f in frames]
        samples += count
        self_count[frames[-1]] += count
        for frame in set(frames):
            total_count[frame] += count
    if not samples:
        return []
    return [(f, 100 * self_count[f] / samples, 100 * total_count[f] / samples)
            for f, _ in total_count.most_common(top)]


# -- main ------------------------------------------------------------------------------------

def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", default="100,250,500,1000,2000",
                   help="concurrent tables, a comma-separated ramp (default"
                        " 100,250,500,1000,2000)")
    p.add_argument("--seconds", type=float, default=20.0, help="measured seconds per step")
    p.add_argument("--warmup", type=float, default=3.0,
                   help="unmeasured seconds after the ramp")
    p.add_argument("--ramp", type=float, default=0.0,
                   help="tables begin play at random moments over this many seconds (so"
                        " games do not all end, and get replaced, at once); default 0: each"
                        " table's first move within one think time")
    p.add_argument("--think", type=float, default=5.0,
                   help="mean seconds a seat waits before its move (uniform 0.5x..1.5x);"
                        " 0 saturates (default 5)")
    p.add_argument("--clients", type=int, default=1,
                   help="generator processes (default 1; the tables are split between them)")
    p.add_argument("--game", default="quarto", help="game (default quarto; icedao, dao...)")
    p.add_argument("--variant", default=None)
    p.add_argument("--url", action="append", default=None,
                   help="target running server(s) instead of starting one (repeatable)")
    p.add_argument("--pid", action="append", type=int, default=None,
                   help="with --url: the server's pid, for its memory and CPU")
    p.add_argument("--database", default=None,
                   help="pass a database URL to the server (default: SQLite in a temp dir)")
    p.add_argument("--instances", type=int, default=1,
                   help="start N servers on consecutive ports sharing one database")
    p.add_argument("--server-arg", action="append", default=None, metavar="ARG",
                   help="extra argument for fourfold serve (repeatable, e.g. --server-arg="
                        "--bot-pace=0)")
    p.add_argument("--server-patch", action="append", choices=sorted(PATCHES), default=None,
                   help="run the server with an experimental fix applied in-process")
    p.add_argument("--source", default=None, metavar="DIR",
                   help="import the server from DIR (put first on its PYTHONPATH), e.g. a"
                        " `git archive HEAD src` export, to compare versions")
    p.add_argument("--create-concurrency", type=int, default=32,
                   help="tables created / sockets opened at once per generator")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=900.0,
                   help="hard limit in seconds for the whole run (default 900)")
    p.add_argument("--profile", default=None, metavar="DIR",
                   help="py-spy record the server over each window into DIR")
    p.add_argument("--cprofile", default=None, metavar="DIR",
                   help="cProfile the first server's event-loop thread over the window"
                        " (its CPU time) into DIR/cprofile-N-0.pstats")
    p.add_argument("--keep-data", action="store_true")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = p.parse_args(argv)
    if args.url and (args.database or args.instances != 1):
        p.error("--url targets running servers: no --database or --instances")
    if not 1 <= args.instances <= 16:
        p.error("--instances is 1 to 16")
    return args


def fmt(value: Any) -> str:
    return "-" if value is None else f"{value}"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    ramp = [int(x) for x in args.tables.split(",") if x.strip()]
    if not ramp or min(ramp) < 1 or max(ramp) > 20_000:
        print("--tables: 1 to 20000 each", file=sys.stderr)
        return 2
    # every socket is a descriptor in the generator and one in the server
    soft, hard = raise_nofile(2 * max(ramp) + 512)
    started = time.monotonic()
    deadline = started + args.timeout

    def expire(*_: Any) -> None:
        raise TimeoutError(f"the benchmark ran past --timeout {args.timeout:g}s")

    signal.signal(signal.SIGALRM, expire)
    signal.alarm(int(args.timeout) + 1)
    runs = []
    try:
        for n in ramp:
            if time.monotonic() > deadline - 5:
                print(f"skipping N={n}: out of time", file=sys.stderr)
                break
            print(f"N={n}: starting ...", file=sys.stderr, flush=True)
            row = run_step(args, n, deadline)
            runs.append(row)
            b = row["broadcast_ms"]
            print(f"N={n}: {row['moves_per_s']} moves/s, broadcast p50 {fmt(b['p50'])} ms"
                  f" p99 {fmt(b['p99'])} ms, ping p99 {fmt(row['ping_ms']['p99'])} ms,"
                  f" server CPU {fmt(row['server_cpu_pct'])} %"
                  f" ({fmt(row['server_cpu_ms_per_move'])} ms per move), generator CPU"
                  f" {row['generator_cpu_pct']} %, {row['server_rss_kb_per_table']} KiB/table,"
                  f" errors {row['errors'] or 0}", file=sys.stderr, flush=True)
    except TimeoutError as error:
        print(str(error), file=sys.stderr)
    finally:
        signal.alarm(0)
    if args.profile:
        for row in runs:
            if "profile" in row and Path(row["profile"]).exists():
                print(f"\nhottest frames, N={row['tables']} ({row['profile']}):",
                      file=sys.stderr)
                for frame, own, anywhere in hot_frames(Path(row["profile"])):
                    print(f"  {own:5.1f}% self {anywhere:5.1f}% total  {frame[:110]}",
                          file=sys.stderr)
    if args.cprofile:
        for row in runs:
            dump = Path(args.cprofile).resolve() / f"cprofile-{row['tables']}-0.pstats"
            if dump.exists():
                import pstats

                print(f"\ncProfile, N={row['tables']} (the loop thread's CPU time over the"
                      f" window; {dump}):", file=sys.stderr)
                pstats.Stats(str(dump), stream=sys.stderr).sort_stats(
                    "cumulative").print_stats(40)
    engine = f"server-{'url' if args.url else (args.database or 'sqlite').split(':')[0]}"
    rows = []
    for r in runs:
        for metric, value in (("moves_per_s", r["moves_per_s"]),
                              ("broadcast_p50_ms", r["broadcast_ms"]["p50"]),
                              ("broadcast_p99_ms", r["broadcast_ms"]["p99"]),
                              ("ping_p99_ms", r["ping_ms"]["p99"]),
                              ("rss_kb_per_table", r["server_rss_kb_per_table"]),
                              ("server_cpu_pct", r["server_cpu_pct"]),
                              ("server_cpu_ms_per_move", r["server_cpu_ms_per_move"]),
                              ("generator_cpu_pct", r["generator_cpu_pct"])):
            rows.append({"game": args.game, "engine": engine, "metric": metric,
                         "value": value, "tables": r["tables"]})
    if args.json:
        print(json.dumps({"rows": rows, "runs": runs,
                          "settings": {"think_s": args.think, "seconds": args.seconds,
                                       "clients": args.clients, "instances": args.instances,
                                       "nofile": [soft, hard], "cpus": os.cpu_count()}},
                         indent=2))
    else:
        print(f"{'N':>6} {'sockets':>7} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7}"
              f" {'KiB/table':>9} {'srv CPU%':>8} {'ms/move':>7} {'gen CPU%':>8}")
        for r in runs:
            b = r["broadcast_ms"]
            print(f"{r['tables']:>6} {r['sockets']:>7} {r['moves_per_s']:>8} {fmt(b['p50']):>7}"
                  f" {fmt(b['p99']):>7} {r['server_rss_kb_per_table']:>9}"
                  f" {fmt(r['server_cpu_pct']):>8} {fmt(r['server_cpu_ms_per_move']):>7}"
                  f" {r['generator_cpu_pct']:>8}")
    return 0 if runs else 1


if __name__ == "__main__":
    sys.exit(main())
