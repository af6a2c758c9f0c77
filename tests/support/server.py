"""Fixtures for the server tests: a real ``fourfold serve`` (uvicorn) in a subprocess on
a free loopback port, a throwaway PostgreSQL, and small HTTP/WebSocket clients.

Everything talks to 127.0.0.1 only, and every wait is bounded.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

#: how long a server may take to answer its first request: generous, as up to four test
#: workers (pytest-xdist) share CI's two cores while one starts
START_SECONDS = 60.0


#: the ports ``free_port`` picks from: below Linux's ephemeral range (32768-60999), so no
#: outgoing connection takes one between the pick and the server's bind
PORTS = range(20_000, 32_000)


def xdist_worker() -> tuple[int, int]:
    """This pytest-xdist worker's index and the number of workers; (0, 1) without xdist."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")
    index = int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else 0
    return index, max(int(count) if count.isdigit() else 1, index + 1)


def free_port() -> int:
    """A loopback port nothing listens on, from this worker's own slice of ``PORTS``:
    parallel workers (pytest-xdist) never pick the same port and start two servers on it."""
    index, count = xdist_worker()
    size = len(PORTS) // count
    mine = range(PORTS.start + index * size, PORTS.start + (index + 1) * size)
    pick = random.SystemRandom()  # tests that seed ``random`` must not make ports repeat
    for _ in range(200):
        port = pick.choice(mine)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free loopback port in {mine.start}-{mine.stop - 1}")


#: held while a test installs Debian packages: parallel workers would otherwise run two
#: apt-gets at once, and the second fails on dpkg's lock
APT_LOCK = Path(tempfile.gettempdir()) / "fourfold-tests-apt.lock"


_APT_HELD: list[int] = []  # how deep this process holds it (flock would block on itself)


@contextlib.contextmanager
def apt_lock() -> Iterator[None]:
    """Hold the machine-wide lock of the tests' apt-get installs (across processes;
    re-entrant within one)."""
    if _APT_HELD:
        _APT_HELD.append(1)
        try:
            yield
        finally:
            _APT_HELD.pop()
        return
    with APT_LOCK.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        _APT_HELD.append(1)
        try:
            yield
        finally:
            _APT_HELD.pop()
            fcntl.flock(handle, fcntl.LOCK_UN)


class OnLoopback:
    """The addresses of a server listening on 127.0.0.1 at ``port``."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


@dataclass
class Server(OnLoopback):
    """One ``fourfold serve`` process; ``restart`` keeps its data (and port)."""

    data: Path
    database: str | None = None
    extra: tuple[str, ...] = ()
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[str] | None = None
    log: Path | None = None
    #: start in a process group of its own, so that ``ctrl_c`` can reach its workers too
    own_group: bool = False

    def start(self) -> Server:
        args = [sys.executable, "-c",
                "from fourfold.cli.main import main; raise SystemExit(main())",
                "serve", "--port", str(self.port), "--data", str(self.data),
                "--bot-pace", "0.05", "--real-time-bot-pace", "0.05",
                "--rate", "5000", "--address-rate", "50000",
                "--max-bot-tables-per-address", "100000", "--no-warm-up",
                # the caps on tables per address are lifted: tests make many from
                # 127.0.0.1 (test_server_limits.py and test_attack_*.py set their own)
                "--max-tables-per-address", "100000",
                "--max-lobby-tables-per-address", "100000",
                "--tables-per-minute", "1000000", "--max-connections-per-address", "100000",
                *self.extra]
        if self.database:
            args += ["--database", self.database]
        self.log = self.data / f"server-{time.time_ns()}.log"
        handle = self.log.open("w")
        self.process = subprocess.Popen(args, stdout=handle, stderr=subprocess.STDOUT,
                                        text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                                        start_new_session=self.own_group)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start: {self.log.read_text()}")

    def output(self) -> str:
        return self.log.read_text() if self.log else ""

    def kill9(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        stop_all([self])

    def ctrl_c(self, grace: float = 30.0) -> int:
        """Stop it as Ctrl-C in its terminal does: SIGINT to its whole process group
        (``own_group``), worker processes included. Returns its exit status."""
        assert self.process is not None and self.own_group
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            return self.process.wait(grace)
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
            self.process = None

    def children(self) -> list[int]:
        """The process ids of its child processes (its job pool's workers among them)."""
        assert self.process is not None
        found: list[int] = []
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            with contextlib.suppress(OSError):
                found += [int(p) for p in (task / "children").read_text().split()]
        return found

    def restart(self) -> Server:
        self.stop()
        return self.start()

    def client(self) -> Api:
        return Api(httpx.Client(base_url=self.url, timeout=30))


def stop_all(servers: list[Server], grace: float = 10.0) -> None:
    """Stop servers together: each is asked to stop (SIGINT) at once, then awaited, and
    killed if it has not exited ``grace`` seconds after the asking. One after another,
    a server's graceful exit (up to ``grace``) would wait for the previous one's."""
    asked = [s for s in servers if s.process is not None]
    for server in asked:
        assert server.process is not None
        server.process.send_signal(signal.SIGINT)
    deadline = time.monotonic() + grace
    for server in asked:
        assert server.process is not None
        try:
            server.process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(10)
        server.process = None


def tokens_of(created: dict[str, Any]) -> dict[int, str]:
    """The seat tokens of a table just made (``POST /api/tables``), by seat."""
    return {s["seat"]: s["token"] for s in created["seats"] if s["token"]}


class Api:
    """httpx with the seat token as a Bearer header."""

    def __init__(self, client: httpx.Client) -> None:
        self.http = client

    def create(self, **body: Any) -> dict[str, Any]:
        r = self.http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data

    def get(self, table_id: str, token: str | None = None) -> httpx.Response:
        return self.http.get(f"/api/tables/{table_id}", headers=auth(token))

    def state(self, table_id: str, token: str | None = None) -> dict[str, Any]:
        r = self.get(table_id, token)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def post(self, table_id: str, what: str, token: str | None, **body: Any
             ) -> httpx.Response:
        return self.http.post(f"/api/tables/{table_id}/{what}", json=body, headers=auth(token))

    def move(self, table_id: str, token: str | None, move: str, version: int
             ) -> httpx.Response:
        return self.post(table_id, "moves", token, move=move, version=version)

    def wait(self, table_id: str, token: str | None, until: Callable[[dict[str, Any]], bool],
             seconds: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while True:
            state = self.state(table_id, token)
            if until(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {seconds}s in vain; last state {state}")
            time.sleep(0.05)


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def resign(http: httpx.Client, table_id: str, token: str, seconds: float = 30) -> httpx.Response:
    """Resign at the table's current version, again if a bot's move lands in between."""
    deadline = time.monotonic() + seconds
    while True:
        state = http.get(f"/api/tables/{table_id}", headers=auth(token)).json()
        done = http.post(f"/api/tables/{table_id}/resign", headers=auth(token),
                         json={"version": state["version"]})
        if done.status_code != 409 or "stale" not in done.text or time.monotonic() > deadline:
            return done


class Live:
    """A sync WebSocket to ``/api/tables/{id}/live`` that has said hello."""

    def __init__(self, server: Server, table_id: str, token: str | None,
                 origin: str | None = None, screen: bool = False) -> None:
        headers = {"Origin": origin} if origin else None
        self.ws: ClientConnection = connect(
            f"{server.ws_url}/api/tables/{table_id}/live", open_timeout=10,
            additional_headers=headers).__enter__()
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if screen:  # a page's socket: every event also carries what the page draws
            hello["screen"] = True
        self.ws.send(json.dumps(hello))
        self.seen: list[str] = []

    def next(self, seconds: float = 10.0) -> dict[str, Any]:
        text = self.ws.recv(timeout=seconds)
        assert isinstance(text, str)
        self.seen.append(text)
        value: dict[str, Any] = json.loads(text)
        return value

    def until(self, test: Callable[[dict[str, Any]], bool], seconds: float = 20.0
              ) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such message in {seconds}s: {self.seen[-5:]}")
            message = self.next(left)
            if test(message):
                return message

    def send(self, value: dict[str, Any]) -> None:
        self.ws.send(json.dumps(value))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


@contextlib.contextmanager
def running(tmp: Path, database: str | None = None, extra: tuple[str, ...] = ()
            ) -> Iterator[Server]:
    server = Server(tmp, database, extra).start()
    try:
        yield server
    finally:
        server.stop()


# -- PostgreSQL ------------------------------------------------------------------------------

def _unavailable(reason: str, what: str = "PostgreSQL is not available for the server tests"
                 ) -> NoReturn:
    """Skip the test for want of a program (on CI, where every program must be there: fail)."""
    message = f"{what}: {reason}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def _ensure_program(program: str, debian_path: Path, package: str, what: str) -> Path:
    """``program`` from the PATH or Debian's ``debian_path``, installed with apt where
    missing (as root); else the test is skipped (failed on CI) saying ``what``."""
    found = shutil.which(program) or (str(debian_path) if debian_path.exists() else None)
    if found:
        return Path(found)
    with apt_lock():  # another worker may have installed it while this one waited
        if not debian_path.exists():
            apt_install(package)
    if not debian_path.exists():
        _unavailable(f"{debian_path} is missing (apt-get install {package})", what)
    return debian_path


def _version_key(folder: Path) -> tuple[int, ...]:
    """``/usr/lib/postgresql/16/bin`` -> (16,): the newest major version sorts last."""
    digits = folder.parent.name.split(".")
    return tuple(int(d) for d in digits) if all(d.isdigit() for d in digits) else (-1,)


#: the folder ``pg_bin`` found (looked up once it exists)
_PG_FOUND: list[Path] = []


def pg_bin() -> Path | None:
    """The folder holding PostgreSQL's server programs (``initdb``, ``pg_ctl``), found
    rather than assumed: ``pg_config --bindir`` first (Debian's libpq-dev may install a
    pg_config whose folder has no server, hence the check), then ``initdb`` on the PATH,
    then the newest Debian/Ubuntu ``/usr/lib/postgresql/<version>/bin``."""
    if _PG_FOUND:
        return _PG_FOUND[0]
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            bindir = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                                    timeout=30, check=True).stdout.strip()
            if bindir:
                candidates.append(Path(bindir))
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_version_key,
                         reverse=True)
    found = next((c for c in candidates if (c / "initdb").is_file()), None)
    if found is not None:
        _PG_FOUND.append(found)
    return found


def end_process(process: subprocess.Popen[Any], seconds: float = 10) -> None:
    """Ask ``process`` to stop (SIGTERM), and kill it if it has not within ``seconds``."""
    process.terminate()
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(seconds)


def apt_install(*packages: str) -> None:
    """Install Debian packages where this runs as root on Debian (as on CI); elsewhere do
    nothing (the caller then skips loudly, or fails under ``CI=true``)."""
    debian = Path("/etc/debian_version").exists()
    if os.geteuid() == 0 and debian and shutil.which("apt-get"):
        with apt_lock():
            subprocess.run(["apt-get", "install", "-y", "-o", "DPkg::Lock::Timeout=300",
                            *packages], check=False, capture_output=True, timeout=600,
                           env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def _ensure_postgres() -> Path:
    found = pg_bin()
    if found is not None:
        return found
    with apt_lock():  # another worker may have installed it while this one waited
        found = pg_bin()
        if found is None:
            apt_install("postgresql")
            found = pg_bin()
    if found is None:
        _unavailable("no initdb: not in `pg_config --bindir`, on the PATH or in"
                     " /usr/lib/postgresql/*/bin (apt-get install postgresql)")
    return found


@dataclass
class Postgres:
    port: int
    directory: Path
    bin: Path
    counter: int = 0

    def new_database(self) -> str:
        """A fresh empty database; returns its URL."""
        self.counter += 1
        name = f"fourfold_{os.getpid()}_{self.counter}"
        subprocess.run(_as_postgres(["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U",
                                     "postgres", "-c", f"CREATE DATABASE {name}"], self.bin),
                       check=True, capture_output=True, timeout=30)
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"


def _as_postgres(command: list[str], folder: Path | None = None) -> list[str]:
    """``command`` (psql, initdb, pg_ctl...) from PostgreSQL's folder (``folder``, else the
    one ``pg_bin`` finds), as the postgres user when we are root."""
    tool = (folder or pg_bin() or Path(".")) / command[0]
    full = [str(tool if tool.exists() else command[0]), *command[1:]]
    return ["runuser", "-u", "postgres", "--", *full] if os.geteuid() == 0 else full


@contextlib.contextmanager
def postgres_cluster() -> Iterator[Postgres]:
    folder = _ensure_postgres()
    directory = Path(tempfile.mkdtemp(prefix="fourfold-pg-"))
    data = directory / "data"
    port = free_port()
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres", "postgres")
    try:
        subprocess.run(_as_postgres(["initdb", "-D", str(data), "-A", "trust", "-U",
                                     "postgres", "--no-sync"], folder),
                       check=True, capture_output=True, timeout=120)
        subprocess.run(_as_postgres([
            "pg_ctl", "-D", str(data), "-w", "-t", "30", "-l", str(directory / "log"), "-o",
            f"-k {directory} -p {port} -c listen_addresses=127.0.0.1 -c fsync=off", "start"],
            folder),
            check=True, capture_output=True, timeout=60)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
        shutil.rmtree(directory, ignore_errors=True)
        _unavailable(f"cannot start a cluster: {error}")
    try:
        yield Postgres(port, directory, folder)
    finally:
        subprocess.run(_as_postgres(["pg_ctl", "-D", str(data), "-m", "immediate", "-w",
                                     "stop"], folder), check=False, capture_output=True, timeout=60)
        shutil.rmtree(directory, ignore_errors=True)


# -- playing ---------------------------------------------------------------------------------

def play_out(api: Api, table_id: str, tokens: dict[int, str], pick: Callable[[list[str]], str],
             max_moves: int = 400, seconds: float = 120.0) -> dict[str, Any]:
    """Play the human seats' moves (``pick`` chooses among the legal ones) to the end: at
    most ``max_moves`` of them, within ``seconds`` (the polls while a bot thinks count
    against the time, not the moves: a bot's first move may wait for a cold compile)."""
    deadline = time.monotonic() + seconds
    moves = 0
    while moves < max_moves:
        state = api.state(table_id)
        if state["outcome"] is not None:
            return state
        movers = [p for p in state["to_act"] if p in tokens]
        if not movers:
            assert time.monotonic() < deadline, "the bot never moved"
            time.sleep(0.02)
            continue
        assert time.monotonic() < deadline, f"the game did not end within {seconds:.0f} s"
        seat = movers[0]
        mine = api.state(table_id, tokens[seat])
        if not mine["legal"] or mine["outcome"] is not None:
            continue
        r = api.move(table_id, tokens[seat], pick(mine["legal"]), mine["version"])
        assert r.status_code in (200, 409), r.text  # 409: a bot moved first
        moves += 1
    raise AssertionError(f"the game did not end within {max_moves} moves")


# -- Redis (the broker between server instances) ---------------------------------------------

REDIS_SERVER = Path("/usr/bin/redis-server")


NO_REDIS = "Redis is not available for the multi-instance tests"


def _ensure_redis() -> Path:
    return _ensure_program("redis-server", REDIS_SERVER, "redis-server", NO_REDIS)


@dataclass
class Redis:
    """A throwaway ``redis-server`` on loopback; ``restart`` keeps its port."""

    binary: Path
    directory: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        self.process = subprocess.Popen(
            [str(self.binary), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return self
            if self.process.poll() is not None:
                break
            time.sleep(0.03)
        self.stop()
        _unavailable("redis-server did not start", NO_REDIS)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.kill()
        self.process.wait(10)
        self.process = None

    def restart(self) -> Redis:
        self.stop()
        return self.start()


@contextlib.contextmanager
def redis_server() -> Iterator[Redis]:
    binary = _ensure_redis()
    directory = Path(tempfile.mkdtemp(prefix="fourfold-redis-"))
    redis = Redis(binary, directory).start()
    try:
        yield redis
    finally:
        redis.stop()
        shutil.rmtree(directory, ignore_errors=True)


@contextlib.contextmanager
def instances(tmp: Path, database: str, broker: str, count: int,
              extra: tuple[str, ...] = ()) -> Iterator[list[Server]]:
    """``count`` ``fourfold serve`` processes sharing ``database`` and ``broker``
    (started one after another; each has its own port and log), stopped on the way out."""
    servers: list[Server] = []
    try:
        for n in range(count):
            folder = tmp / f"instance-{n}"
            folder.mkdir(exist_ok=True)
            servers.append(Server(folder, database, (
                "--broker", broker, "--instance", f"i{n}", *extra)).start())
        yield servers
    finally:
        stop_all(servers)


# -- nginx (deploy/nginx.conf as shipped, in front of instances) -----------------------------

NGINX = Path("/usr/sbin/nginx")
DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def _ensure_nginx() -> Path:
    return _ensure_program("nginx", NGINX, "nginx",
                           "NGINX IS NOT AVAILABLE FOR THE DEPLOYMENT TEST")


@dataclass
class Nginx(OnLoopback):
    """Debian's ``nginx`` running ``deploy/nginx.conf`` byte for byte (copied into a
    throwaway prefix folder), with the two files it includes written for loopback: the
    ``upstream fourfold`` block (``ports``, plus this folder's temporary paths and logs)
    and the ``listen`` line."""

    binary: Path
    directory: Path
    ports: list[int]
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    def configure(self) -> None:
        shutil.copyfile(DEPLOY / "nginx.conf", self.directory / "nginx.conf")
        d = self.directory
        servers = "".join(f"    server 127.0.0.1:{p} max_fails=2 fail_timeout=5s;\n"
                          for p in self.ports)
        paths = "".join(f"{kind}_temp_path {d / kind};\n"
                        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (d / "fourfold-upstream.conf").write_text(
            f"upstream fourfold {{\n    least_conn;\n{servers}    keepalive 64;\n}}\n"
            f"{paths}access_log {d / 'access.log'};\n")
        (d / "fourfold-listen.conf").write_text(f"listen 127.0.0.1:{self.port};\n")

    def start(self) -> Nginx:
        self.configure()
        d = self.directory
        options = f"daemon off; pid {d / 'nginx.pid'}; error_log {d / 'error.log'} warn;"
        if os.geteuid() == 0:  # the workers' user (Debian has no group "nobody")
            options += " user nobody nogroup;"
        command = [str(self.binary), "-c", str(d / "nginx.conf"), "-p", f"{d}/",
                   "-g", options]
        check = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
        assert check.returncode == 0, f"nginx -t refused deploy/nginx.conf: {check.stderr}"
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                        stderr=(d / "stderr.log").open("wb"))
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            with contextlib.suppress(httpx.HTTPError):  # any answer: nginx is up
                httpx.get(self.url + "/api/health", timeout=2)
                return self
            time.sleep(0.1)
        log = self.errors()[-3000:]
        self.stop()
        raise RuntimeError(f"nginx did not start: {log}")

    def errors(self) -> str:
        parts = [(self.directory / name) for name in ("stderr.log", "error.log")]
        return "\n".join(p.read_text(errors="replace") for p in parts if p.exists())

    def stop(self) -> None:
        if self.process is not None:
            end_process(self.process)
        self.process = None


@contextlib.contextmanager
def nginx_proxy(ports: list[int]) -> Iterator[Nginx]:
    """nginx with the shipped ``deploy/nginx.conf`` in front of ``ports`` on loopback."""
    binary = _ensure_nginx()
    directory = Path(tempfile.mkdtemp(prefix="fourfold-nginx-"))
    directory.chmod(0o755)  # the workers (another user when we are root) use its folders
    try:
        proxy = Nginx(binary, directory, ports).start()
        try:
            yield proxy
        finally:
            proxy.stop()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def client_from(address: str, base_url: str, **options: Any) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (127.0.0.2, ...)."""
    return httpx.Client(base_url=base_url, timeout=30,
                        transport=httpx.HTTPTransport(local_address=address), **options)
