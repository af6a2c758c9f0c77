"""The browser app's pages: one HTML shell for every page (the app routes in the
browser), and its static files under ``/ui/``, shipped inside the package.

Pages: ``/`` (lobby and new table), ``/t/{id}`` (a table; a seat link adds
``#seat=TOKEN``, which never reaches the server's logs), ``/replay/{id}``,
``/rules/{game}``. Nothing is fetched from another site: the Content-Security-Policy
says so to the browser too.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

router = APIRouter(include_in_schema=False)
STATIC = Path(__file__).resolve().parent / "static"
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml", ".html": "text/html; charset=utf-8",
         ".woff2": "font/woff2", ".png": "image/png"}
CSP = ("default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; "
       "style-src 'self' 'unsafe-inline'; script-src 'self'; font-src 'self'; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer",
           "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"}


def _shell() -> HTMLResponse:
    return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"), headers=HEADERS)


@router.get("/")
def lobby() -> HTMLResponse:
    return _shell()


@router.get("/new")
def new_table() -> HTMLResponse:
    return _shell()


@router.get("/t/{table_id}")
def table(table_id: str) -> HTMLResponse:
    return _shell()


@router.get("/replay/{table_id}")
def replay(table_id: str) -> HTMLResponse:
    return _shell()


@router.get("/rules/{game}")
def rules(game: str) -> HTMLResponse:
    return _shell()


@router.get("/favicon.ico")
def favicon() -> Response:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml", headers=HEADERS)


@router.api_route("/ui/{name}", methods=["GET", "HEAD"])
def static_file(name: str) -> Response:
    path = STATIC / name
    if "/" in name or name.startswith(".") or path.suffix not in TYPES or not path.is_file():
        return Response("not found", status_code=404, media_type="text/plain")
    return FileResponse(path, media_type=TYPES[path.suffix], headers=HEADERS)
