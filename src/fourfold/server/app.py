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
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fourfold import __version__
from fourfold.server import api
from fourfold.server.api import ApiError
from fourfold.server.limits import Limiter
from fourfold.server.live import Hub
from fourfold.server.protocol import error_json
from fourfold.server.settings import Settings
from fourfold.server.storage import Repository
from fourfold.server.storage.migrate import open_database
from fourfold.server.web import install as install_browser_app
from fourfold.server.websocket import live_socket

log = logging.getLogger("fourfold.server")
STATIC = Path(__file__).resolve().parent / "static"
#: SQLite: how often the write-ahead log is copied into the database, off the write path
WAL_SECONDS = 2.0
#: the garbage collector's thresholds once the server has started (see ``lifespan``)
GC_THRESHOLDS = (1_000, 5, 1_000)


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (413) before the app reads them."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_long = int(value) > self.limit
                except ValueError:
                    too_long = True
                if too_long:
                    await _refuse(send, 413, f"the body is over {self.limit} bytes")
                    return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise ApiError(413, f"the body is over {self.limit} bytes")
            return message

        await self.app(scope, limited, send)


class NoStore:
    """Every HTTP answer: ``Referrer-Policy: no-referrer``, and under ``/api/``
    ``Cache-Control: no-store`` (answers hold seat views). Plain ASGI: a
    ``BaseHTTPMiddleware`` cost a fifth of creating a table."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if api:
                    headers["Cache-Control"] = "no-store"
                headers.setdefault("Referrer-Policy", "no-referrer")
            await send(message)

        await self.app(scope, receive, headed)


async def _refuse(send: Send, status: int, reason: str) -> None:
    response = JSONResponse(error_json(status, reason), status_code=status)
    await response({"type": "http"}, _nothing, send)


async def _nothing() -> Message:
    return {"type": "http.disconnect"}


async def _every(seconds: float, work: Callable[[], object]) -> None:
    while True:
        await asyncio.sleep(seconds)
        try:
            await run_in_threadpool(work)
        except Exception:
            log.exception("periodic work failed")


def create_app(settings: Settings, engine: Engine | None = None) -> FastAPI:
    engine = engine or open_database(settings.database)
    hub = Hub(settings, Repository(engine))
    if settings.broker:
        from fourfold.server.cluster import Cluster, instance_name

        async def subscribed() -> None:
            await run_in_threadpool(hub.catch_up)

        hub.cluster = Cluster(settings.broker, settings.instance or instance_name(),
                              hub.heard, subscribed, hub.tables.__contains__)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        restored = await run_in_threadpool(hub.start, loop)
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
        if hub.cluster is not None:
            await run_in_threadpool(hub.leases)
            tasks += hub.cluster.tasks(loop)
            tasks += [asyncio.create_task(_every(settings.lease_seconds / 3, hub.leases)),
                      asyncio.create_task(_every(settings.sync_seconds, hub.sync))]
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await run_in_threadpool(hub.shutdown)
            hub.repo.close()
            engine.dispose()

    app = FastAPI(title="Fourfold", version=__version__, lifespan=lifespan,
                  description="Online tables for Folio, Ice Dao, Quatrefoil, Quarto and Dao."
                  " See docs/api.md.")
    app.state.hub = hub
    app.state.limiter = Limiter(settings.rate_per_second, settings.rate_burst)

    @app.exception_handler(ApiError)
    async def refused(_: Request, error: ApiError) -> JSONResponse:
        return JSONResponse(error_json(error.status, error.reason), status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        details = error.errors()
        parts = []
        for item in details[:3]:
            where = ".".join(str(x) for x in item.get("loc", ()) if x != "body")
            parts.append(f"{where}: {item.get('msg', 'invalid')}" if where
                         else str(item.get("msg", "invalid")))
        return JSONResponse(error_json(422, "; ".join(parts) or "invalid request"),
                            status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, error: HTTPException) -> JSONResponse:
        return JSONResponse(error_json(error.status_code, str(error.detail)),
                            status_code=error.status_code, headers=error.headers)

    @app.exception_handler(Exception)
    async def crashed(_: Request, error: Exception) -> JSONResponse:
        log.exception("internal error")
        return JSONResponse(error_json(500, "internal error"), status_code=500)

    install_browser_app(app)  # the browser app's pages and the routes it needs
    app.include_router(api.router)
    app.add_api_websocket_route("/api/tables/{table_id}/live", live_socket)
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(NoStore)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    return app
