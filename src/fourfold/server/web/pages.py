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

import base64
import hashlib
import posixpath
import re
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from fourfold.server.web.controllers import (
    STATIC,
    build_id,
    controller_url,
    served_file,
    served_packages,
)

router = APIRouter(include_in_schema=False)
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml", ".html": "text/html; charset=utf-8",
         ".woff2": "font/woff2", ".png": "image/png"}
#: A table's page asks for its first screen at once, from the HTML, while its modules
#: load (table.js takes the answer, util.js ``early``): the screen is the other half of
#: the page's first second, and waited for the modules before. The token comes from
#: the link's ``#seat=`` fragment, which never reaches the server's logs. The script is
#: allowed by its hash in the Content-Security-Policy, and by nothing else.
BOOT = ("(()=>{const m=location.pathname.match(/^\\/t\\/([A-Za-z0-9]{1,64})$/);if(!m)return;"
        "const s=location.hash.match(/(?:^#|&)seat=([A-Za-z0-9_\\-]+)/);"
        "window.__firstScreen={path:location.pathname,token:s?s[1]:null,"
        "response:fetch(`/api/tables/${m[1]}/screen`,{cache:'no-store',"
        "headers:s?{Authorization:`Bearer ${s[1]}`}:{}}).catch(()=>null)};})();")
BOOT_HASH = base64.b64encode(hashlib.sha256(BOOT.encode()).digest()).decode()
CSP = ("default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; "
       f"style-src 'self' 'unsafe-inline'; script-src 'self' 'sha256-{BOOT_HASH}'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
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


def _preloads(page: str | None, controllers: tuple[str, ...] | None = None) -> str:
    """A modulepreload link per module the path's page needs (app.js's own imports, the
    page's module and what it imports; every module for a path not named here), so that
    the browser fetches them all at once rather than one import at a time, and no more:
    a table's first visit does not fetch the lobby's or the puzzles' modules. A table's
    page also preloads the games' controllers (about 33 kB together; its own would
    otherwise wait for the table's screen to name it: one round trip more before the
    board can be used); ``controllers``: only those (a table whose game the server
    knows: its own, one file). Every file is cached for good under its fingerprint."""
    module = PAGE_MODULES.get(page or "")
    files = _imports("app.js", dynamic=module is None)
    if module is not None:
        files |= _imports(module, dynamic=True)
    links = [f"/ui/BUILD/{file}" for file in sorted(files - {"app.js"})]
    if page in (None, "table") and controllers is None:
        for package, root in sorted(served_packages().items()):
            links += [f"/ui/BUILD/pkg/{package.replace('.', '/')}/{file.name}"
                      for file in sorted(root.glob("*.js"))]
    links += list(controllers or ())
    return "\n".join(f'<link rel="modulepreload" href="{link}">' for link in links)


@lru_cache(maxsize=32)
def _shell_text(page: str | None = None, controllers: tuple[str, ...] | None = None) -> str:
    """The shell with its module preloads for ``page`` (in place of ``<!-- PRELOADS
    -->``; ``controllers``: see ``_preloads``), the build's fingerprint in its URLs, and
    the icon inline (a page never asks for it later, in the middle of a game)."""
    icon = "data:image/svg+xml," + quote((STATIC / "favicon.svg").read_text(encoding="utf-8"))
    # the boot script before the style sheet, which a script after it would wait for
    return (STATIC / "index.html").read_text(encoding="utf-8").replace(
        "<!-- BOOT -->", f"<script>{BOOT}</script>" if page == "table" else "").replace(
        "<!-- PRELOADS -->", _preloads(page, controllers)).replace(
        "/ui/BUILD/favicon.svg", icon).replace("/ui/BUILD/", f"/ui/{build_id()}/")


def _shell(page: str | None = None, controllers: tuple[str, ...] | None = None
           ) -> HTMLResponse:
    return HTMLResponse(_shell_text(page, controllers), headers=HEADERS)


def _controllers(request: Request, table_id: str) -> tuple[str, ...] | None:
    """The controller a table's page will ask for, when the table is in this server's
    memory (no database read on the way to the page): its game's, or none (the
    generic one, which the page loads anyway); ``None`` when unknown (then all)."""
    hub = getattr(request.app.state, "hub", None)
    live = hub.find(table_id) if hub is not None else None
    if live is None:
        return None
    info = live.game.info
    url = controller_url(info.spec, info.variant)
    if url is None:
        return ()
    return tuple(f"/ui/BUILD/pkg/{path}" for path in sorted(
        _controller_imports(url.removeprefix(f"/ui/{build_id()}/pkg/"))))


#: ``from '../sliding/browser.js'`` in a controller: a file beside it, or in a sibling folder
RELATIVE = re.compile(r"""\bfrom\s*['"](\.{1,2}/[\w./-]+\.js)['"]""")


def _controller_imports(path: str) -> set[str]:
    """A controller's served path (``fourfold/games/icedao/browser.js``) and those of the
    controllers it imports, transitively (Ice Dao's is the sliding games'): preloaded
    together, not one import after another."""
    seen: set[str] = set()
    todo = [path]
    while todo:
        here = todo.pop()
        file = served_file(here)
        if here in seen or file is None:
            continue
        seen.add(here)
        folder = posixpath.dirname(here)
        todo += [posixpath.normpath(posixpath.join(folder, found))
                 for found in RELATIVE.findall(file.read_text(encoding="utf-8"))]
    return seen


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
def table(table_id: str, request: Request) -> HTMLResponse:
    return _shell("table", _controllers(request, table_id))


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


@lru_cache(maxsize=256)
def _content(path: Path, stamp: tuple[int, int]) -> bytes:
    return path.read_bytes()


def _from_memory(path: Path, media_type: str, headers: dict[str, str]) -> Response:
    """A static file from memory (read again when its size or time changes). A page's
    first visit asks for a dozen files at once: answered on the event loop, without a
    thread and a file read each (FileResponse), they come back sooner on a busy server,
    and the page is usable sooner."""
    stat = path.stat()
    return Response(_content(path, (stat.st_mtime_ns, stat.st_size)), media_type=media_type,
                    headers=headers)


@router.api_route("/ui/{build}/pkg/{path:path}", methods=["GET", "HEAD"])
async def controller_file(build: str, path: str) -> Response:
    """A game's controller module (or a file beside it), from the game's folder."""
    file = served_file(path)
    if file is None:
        return _not_found()
    return _from_memory(file, TYPES[".js"], _kept(build))


@router.api_route("/ui/{build}/{name}", methods=["GET", "HEAD"])
async def fingerprinted_file(build: str, name: str) -> Response:
    path = _static(name)
    if path is None:
        return _not_found()
    return _from_memory(path, TYPES[path.suffix], _kept(build))
