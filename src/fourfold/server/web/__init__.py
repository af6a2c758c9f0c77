"""The browser app: a single page (``static/``) on the server's API, and the few API
routes it needs beyond the core ones (``extra_api``). ``install(app)`` adds both to an
app made by ``fourfold.server.app.create_app``, ahead of the plain HTML pages."""

from __future__ import annotations

from typing import Any

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
