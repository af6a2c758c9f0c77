"""The browser app's pages: one HTML shell for every page (the app routes in the
browser), and its static files, shipped inside the package.

Pages: ``/`` (lobby and new table), ``/t/{id}`` (a table; a seat link adds
``#seat=TOKEN``, which never reaches the server's logs), ``/replay/{id}``,
``/rules`` and ``/rules/{game}``. Nothing is fetched from another site: the
Content-Security-Policy says so to the browser too.

Static files are served under a fingerprint, ``/ui/<build>/<name>``, cached for good
(``controllers.build_id`` changes when any file does); the shell names them so. The
games' controllers are served from their own folders under
``/ui/<build>/pkg/<package path>/<file>.js`` (``controllers.py``). ``/ui/<name>``
without a fingerprint still answers, never cached.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from fourfold.server.web.controllers import STATIC, build_id, served_file, served_packages

router = APIRouter(include_in_schema=False)
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml", ".html": "text/html; charset=utf-8",
         ".woff2": "font/woff2", ".png": "image/png"}
CSP = ("default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; "
       "style-src 'self' 'unsafe-inline'; script-src 'self'; font-src 'self'; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer",
           "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"}
#: a fingerprinted file never changes under its URL
KEPT = {**HEADERS, "Cache-Control": "public, max-age=31536000, immutable"}


#: ``from './x.js'`` and ``import('./x.js')`` in the app's modules
IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*)['"]\./([\w.-]+\.js)['"]""")


def _imports(name: str, dynamic: bool) -> set[str]:
    """The app's modules that ``name`` imports, itself included, transitively (its
    dynamic imports too when ``dynamic``: app.js loads each page's module so)."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        file = todo.pop()
        if file in seen or not (STATIC / file).is_file():
            continue
        seen.add(file)
        text = (STATIC / file).read_text(encoding="utf-8")
        found = IMPORT.findall(text) if dynamic or file != "app.js" else [
            m.group(1) for m in IMPORT.finditer(text) if m.group(0).startswith("from")]
        todo.extend(found)
    return seen


#: the page module each kind of path needs first (None: every page's, to be safe)
PAGE_MODULES = {"lobby": "lobby.js", "table": "table.js", "replay": "replay.js",
                "rules": "rules.js"}


def _preloads(page: str | None) -> str:
    """A modulepreload link per module the path's page needs (app.js's own imports, the
    page's module and what it imports; every module for a path not named here), so that
    the browser fetches them all at once rather than one import at a time, and no more:
    a table's first visit does not fetch the lobby's or the puzzles' modules. A table's
    page also preloads the games' controllers (about 33 kB together; its own would
    otherwise wait for the table's screen to name it: one round trip more before the
    board can be used). Every file is cached for good under its fingerprint."""
    module = PAGE_MODULES.get(page or "")
    files = _imports("app.js", dynamic=module is None)
    if module is not None:
        files |= _imports(module, dynamic=True)
    links = [f"/ui/BUILD/{file}" for file in sorted(files - {"app.js"})]
    if page in (None, "table"):
        for package, root in sorted(served_packages().items()):
            links += [f"/ui/BUILD/pkg/{package.replace('.', '/')}/{file.name}"
                      for file in sorted(root.glob("*.js"))]
    return "\n".join(f'<link rel="modulepreload" href="{link}">' for link in links)


@lru_cache(maxsize=8)
def _shell_text(page: str | None = None) -> str:
    """The shell with its module preloads for ``page`` (in place of ``<!-- PRELOADS
    -->``), the build's fingerprint in its URLs, and the icon inline (a page never asks
    for it later, in the middle of a game)."""
    icon = "data:image/svg+xml," + quote((STATIC / "favicon.svg").read_text(encoding="utf-8"))
    return (STATIC / "index.html").read_text(encoding="utf-8").replace(
        "<!-- PRELOADS -->", _preloads(page)).replace(
        "/ui/BUILD/favicon.svg", icon).replace("/ui/BUILD/", f"/ui/{build_id()}/")


def _shell(page: str | None = None) -> HTMLResponse:
    return HTMLResponse(_shell_text(page), headers=HEADERS)


#: paths that are never pages: their 404 stays the API's JSON refusal
NOT_PAGES = ("/api/", "/ui/", "/static/", "/docs", "/openapi", "/redoc")


def is_page_request(request: Request) -> bool:
    """A browser asking for a page (GET, HTML accepted, not an API or static path)."""
    path = request.url.path
    return (request.method in ("GET", "HEAD") and "text/html" in request.headers.get("accept", "")
            and not path.startswith(NOT_PAGES))


def missing_page() -> HTMLResponse:
    """The app's shell with status 404: the app says "No such page" in the page's
    language, with a title and a way back (never a bare JSON refusal)."""
    return HTMLResponse(_shell_text(), status_code=404, headers=HEADERS)


@router.get("/")
def lobby() -> HTMLResponse:
    return _shell("lobby")


@router.get("/new")
def new_table() -> HTMLResponse:
    return _shell("lobby")


@router.get("/t/{table_id}")
def table(table_id: str) -> HTMLResponse:
    return _shell("table")


@router.get("/replay/{table_id}")
def replay(table_id: str) -> HTMLResponse:
    return _shell("replay")


@router.get("/rules")
def rules_first() -> HTMLResponse:
    return _shell("rules")


@router.get("/rules/{game}")
def rules(game: str) -> HTMLResponse:
    return _shell("rules")


@router.get("/favicon.ico")
def favicon() -> Response:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml", headers=HEADERS)


def _not_found() -> Response:
    return Response("not found", status_code=404, media_type="text/plain",
                    headers={"X-Content-Type-Options": "nosniff"})


def _kept(build: str) -> dict[str, str]:
    """Cached for good under the current build; a page of an older build (the server was
    upgraded under it) is sent today's file, never cached."""
    return KEPT if build == build_id() else HEADERS


def _static(name: str) -> Path | None:
    path = STATIC / name
    if "/" in name or name.startswith(".") or path.suffix not in TYPES or not path.is_file():
        return None
    return path


@router.api_route("/ui/{name}", methods=["GET", "HEAD"])
def static_file(name: str) -> Response:
    path = _static(name)
    if path is None:
        return _not_found()
    return FileResponse(path, media_type=TYPES[path.suffix], headers=HEADERS)


@router.api_route("/ui/{build}/pkg/{path:path}", methods=["GET", "HEAD"])
def controller_file(build: str, path: str) -> Response:
    """A game's controller module (or a file beside it), from the game's folder."""
    file = served_file(path)
    if file is None:
        return _not_found()
    return FileResponse(file, media_type=TYPES[".js"], headers=_kept(build))


@router.api_route("/ui/{build}/{name}", methods=["GET", "HEAD"])
def fingerprinted_file(build: str, name: str) -> Response:
    path = _static(name)
    if path is None:
        return _not_found()
    return FileResponse(path, media_type=TYPES[path.suffix], headers=_kept(build))
