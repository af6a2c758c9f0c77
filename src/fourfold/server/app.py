"""``create_app(settings)``: the web app, its storage and its live tables."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from fourfold import __version__
from fourfold.server import api, warmup
from fourfold.server.access import ApiError
from fourfold.server.chat import Chat
from fourfold.server.chat import routes as chat_routes
from fourfold.server.daily import routes as daily_routes
from fourfold.server.explorer import routes as explorer_routes
from fourfold.server.hints import HINT_SECONDS
from fourfold.server.hub import Hub
from fourfold.server.jobs import JobPool, JobRefused
from fourfold.server.limits import (
    NEW_SOLVERS_PER_HOUR,
    Limits,
    Tarpit,
    address_key,
    counters_for,
)
from fourfold.server.middleware import (
    AddressCharge,
    AnswerHeaders,
    BodyLimit,
    LoopbackHosts,
    is_loopback,
    too_large,
)
from fourfold.server.protocol import error_json
from fourfold.server.puzzles import routes as puzzle_routes
from fourfold.server.puzzles.mining import Miner
from fourfold.server.puzzles.store import PuzzleStore
from fourfold.server.review import Reviews
from fourfold.server.review import routes as review_routes
from fourfold.server.review.store import ReviewStore
from fourfold.server.settings import Settings
from fourfold.server.storage import Repository
from fourfold.server.storage.migrate import open_database
from fourfold.server.warmup import WarmUp
from fourfold.server.web import install as install_browser_app
from fourfold.server.websocket import live_socket

log = logging.getLogger("fourfold.server")
STATIC = Path(__file__).resolve().parent / "static"
#: SQLite: how often the write-ahead log is copied into the database, off the write path
WAL_SECONDS = 2.0
#: Retry-After of a 503 for a change the database could not save (nothing was changed)
SAVE_RETRY_SECONDS = 5
#: the garbage collector's thresholds once the server has started (see ``lifespan``)
GC_THRESHOLDS = (1_000, 5, 1_000)


async def _every(seconds: float, work: Callable[[], object]) -> None:
    while True:
        await asyncio.sleep(seconds)
        try:
            await run_in_threadpool(work)
        except OperationalError as error:  # the database is full or away: one line
            log.error("periodic work failed: %s", first_line(error))
        except Exception:
            log.exception("periodic work failed")


def first_line(error: BaseException) -> str:
    """An error's first line (a database's message runs on with its SQL)."""
    text = str(getattr(error, "orig", None) or error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def unreadable_body(cause: BaseException | None) -> str | None:
    """Why a body FastAPI could not parse was unreadable, where its own answer (400 "There
    was an error parsing the body") says neither: text that is not UTF-8, or JSON nested
    past what the parser follows. None for any other cause."""
    if isinstance(cause, UnicodeDecodeError):
        return (f"the request body is not valid JSON: it is not UTF-8 text (byte"
                f" {cause.start + 1} cannot be read)")
    if isinstance(cause, RecursionError):
        return ("the request body is not valid JSON that can be read: its arrays or objects"
                " are nested too deeply")
    return None


def _address(request: Request) -> str:
    return address_key(request.client.host if request.client else None)


def _listens_on_loopback(settings: Settings) -> bool:
    """The Host guard applies: loopback, and no proxy in front (a proxy answers to
    its own public names and forwards them)."""
    return is_loopback(settings.host) and not settings.trusted_proxies


def create_app(settings: Settings, engine: Engine | None = None) -> FastAPI:
    engine = engine or open_database(settings.database)
    broker = None
    if settings.broker:
        from fourfold.server.redis_broker import RedisBroker

        broker = RedisBroker(settings)
    hub = Hub(settings, Repository(engine), broker)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        restored = await run_in_threadpool(hub.start, loop)
        app.state.jobs.start()  # spawn the hint workers now, not on the first hint
        # and load their kernels, in the background (the lobby's bot lists first, here)
        app.state.warmup.start(app.state.jobs, api.warm_lobby)
        # The cyclic garbage collector holds the GIL, so every table waits while it runs.
        # Keep start-up's objects out of it for good, and collect the young often and
        # briefly: at 2,000 tables the default made 1 s full collections, (10000, 20,
        # 50) 30 ms and 340 ms pauses; these made 20-42 ms (docs/benchmarks-server.md).
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        if restored:
            log.warning("resumed %d table(s)", restored)
        tasks = [asyncio.create_task(_every(settings.checkpoint_seconds, hub.checkpoint)),
                 asyncio.create_task(_every(settings.sweep_seconds, hub.sweep))]
        if hub.repo.local:
            tasks.append(asyncio.create_task(_every(WAL_SECONDS, hub.repo.checkpoint_wal)))
        await hub.broker.start(hub)
        tasks += counters.tasks(loop)
        tasks += hub.broker.tasks(
            hub, loop, lambda seconds, work: asyncio.create_task(_every(seconds, work)))
        try:
            yield
        finally:
            app.state.jobs.shutdown()
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await run_in_threadpool(hub.shutdown)
            counters.close()
            hub.repo.close()
            engine.dispose()

    app = FastAPI(title="Fourfold", version=__version__, lifespan=lifespan,
                  description="Online tables for Folio, Ice Dao, Quatrefoil, Quarto and Dao."
                  " See docs/api.md.")
    app.state.hub = hub
    app.state.daily = hub.daily
    # every per-address count: in this process, or shared in Redis (--broker)
    counters = counters_for(settings, hub.instance)
    app.state.limits = Limits(
        counters.limiter("tok", settings.rate_per_second, settings.rate_burst),
        counters.limiter("addr", settings.address_rate_per_second, settings.address_rate_burst))
    app.state.jobs = JobPool(settings.job_workers, settings.job_queue, HINT_SECONDS)
    app.state.warmup = WarmUp(settings.warm_up)
    app.state.reviews = Reviews(app.state.jobs, ReviewStore(hub.repo), settings.analysis_seconds)
    hub.on_finished = app.state.reviews.finished
    app.state.puzzles = PuzzleStore(hub.repo)
    app.state.reviews.miner = Miner(app.state.jobs, app.state.puzzles,
                                    settings.analysis_seconds).mine
    app.state.chat = Chat(hub.repo)
    app.state.sockets = counters.slots("ws", settings.max_sockets_per_address)
    app.state.bot_tables = counters.table_caps("bots", settings.max_bot_tables_per_address)
    app.state.people_tables = counters.table_caps("people", settings.max_tables_per_address)
    app.state.lobby_tables = counters.table_caps("lobby",
                                                 settings.max_lobby_tables_per_address)
    app.state.creations = counters.limiter("new", settings.tables_per_minute / 60,
                                           settings.tables_per_minute)
    app.state.new_solvers = counters.limiter("solvers", NEW_SOLVERS_PER_HOUR / 3600,
                                             NEW_SOLVERS_PER_HOUR)
    tarpit = Tarpit(settings.refusal_hold_seconds)

    @app.exception_handler(ApiError)
    async def refused(request: Request, error: ApiError) -> JSONResponse:
        headers = None
        if error.status == 429:
            headers = {"Retry-After": str(error.retry_after or 1)}
            await tarpit.hold(_address(request))
        elif error.status == 503:  # the server's trouble, not the caller's: no hold
            headers = {"Retry-After": str(error.retry_after or SAVE_RETRY_SECONDS)}
        return JSONResponse(error_json(error.status, error.reason), status_code=error.status,
                            headers=headers)

    @app.exception_handler(JobRefused)
    async def busy(request: Request, error: JobRefused) -> JSONResponse:
        await tarpit.hold(_address(request))
        return JSONResponse(error_json(error.status, error.reason), status_code=error.status,
                            headers={"Retry-After": str(error.retry_after)})

    @app.exception_handler(OperationalError)
    async def database_failed(_: Request, error: OperationalError) -> JSONResponse:
        # disk full (SQLite "database or disk is full", PostgreSQL 53100), a database
        # that is down or locked: nothing was changed, and asking again later may work
        log.error("database error: %s", first_line(error))
        return JSONResponse(error_json(503, "the database cannot answer now (is its disk"
                                            " full?): nothing was changed; try again"),
                            status_code=503,
                            headers={"Retry-After": str(SAVE_RETRY_SECONDS)})

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        details = error.errors()
        parts = []
        for item in details[:3]:
            if item.get("type") == "json_invalid":  # its place is a character offset
                at = [x for x in item.get("loc", ()) if isinstance(x, int)]
                parts.append("the request body is not valid JSON"
                             + (f" (at character {at[0] + 1})" if at else "")
                             + f": {item.get('ctx', {}).get('error', 'cannot be read')}")
                continue
            where = ".".join(str(x) for x in item.get("loc", ()) if x != "body")
            parts.append(f"{where}: {item.get('msg', 'invalid')}" if where
                         else str(item.get("msg", "invalid")))
        return JSONResponse(error_json(422, "; ".join(parts) or "invalid request"),
                            status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, error: HTTPException) -> JSONResponse:
        unreadable = unreadable_body(error.__cause__) if error.status_code == 400 else None
        if unreadable is not None:  # as a body that is not JSON: 422, saying why
            return JSONResponse(error_json(422, unreadable), status_code=422)
        reason = too_large(settings.max_body_bytes) if error.status_code == 413 \
            else str(error.detail)
        return JSONResponse(error_json(error.status_code, reason),
                            status_code=error.status_code, headers=error.headers)

    @app.exception_handler(Exception)
    async def crashed(_: Request, error: Exception) -> JSONResponse:
        log.exception("internal error")
        return JSONResponse(error_json(500, "internal error"), status_code=500)

    install_browser_app(app)  # the browser app's pages and the routes it needs
    app.include_router(api.router)
    app.include_router(daily_routes.router)
    app.include_router(review_routes.router)
    app.include_router(puzzle_routes.router)
    app.include_router(explorer_routes.router)
    app.include_router(warmup.router)
    app.include_router(chat_routes.router)
    app.add_api_websocket_route("/api/tables/{table_id}/live", live_socket)
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # the body limit, inside the others: its 413 carries their headers
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    # every request and handshake costs its address, whatever its route
    app.add_middleware(AddressCharge, limits=app.state.limits, tarpit=tarpit)
    if _listens_on_loopback(settings):
        app.add_middleware(LoopbackHosts, allowed=settings.allowed_hosts)
    app.add_middleware(AnswerHeaders)  # outermost: on refusals too
    return app
