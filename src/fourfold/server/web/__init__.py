"""The browser app: a single page (``static/``) on the server's API, and the few API
routes it needs beyond the core ones (``extra_api``). ``install(app)`` adds both to an
app made by ``fourfold.server.app.create_app``, ahead of the plain HTML pages, and
answers a browser's request for a page that does not exist with the app's own "No
such page" (status 404), not the API's JSON refusal."""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from fourfold.server.web import extra_api, pages

__all__ = ["extra_api", "install", "pages"]


def install(app: Any) -> None:
    """Serve the browser app on ``app`` (idempotent): its pages come before any other
    route for the same paths (``/``, ``/t/{id}``)."""
    if getattr(app.state, "browser_app", False):
        return
    app.state.browser_app = True
    before = len(app.router.routes)
    app.include_router(extra_api.router)
    app.include_router(pages.router)
    added = app.router.routes[before:]
    del app.router.routes[before:]
    app.router.routes[0:0] = added
    _page_not_found(app)


def _page_not_found(app: Any) -> None:
    """Wrap the app's handler of HTTP errors: a 404 for a page a browser asked for is
    the app's shell (which says "No such page" and links to the lobby)."""
    answer = app.exception_handlers.get(HTTPException)

    async def handled(request: Request, error: Exception) -> Response:
        if isinstance(error, HTTPException) and error.status_code == 404 \
                and pages.is_page_request(request):
            return pages.missing_page()
        if answer is None:
            raise error
        response: Response = await answer(request, error)
        return response

    app.add_exception_handler(HTTPException, handled)
