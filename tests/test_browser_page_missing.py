"""A page that does not exist, as a browser meets it (issue 31: axe on every page): the
app's own "No such page" with a title, the page's language and a way back, status 404;
an API path still answers the API's JSON refusal. In a real Chromium against a real
``fourfold serve``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.browser_app import DESKTOP, PHONE, AppServer, Pages


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(tmp_path_factory.mktemp("browser-missing")).start()
    try:
        yield app
    finally:
        app.stop()


def serious(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['nodes'][0]['target']}" for v in found
            if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_missing_page_is_the_apps_own_and_axe_finds_nothing(server: AppServer, pages: Pages,
                                                              viewport: dict[str, int]) -> None:
    # (a plain page: the browser logs each 404 it is answered to its console)
    context = pages.browser.new_context(viewport=viewport, is_mobile=viewport is PHONE)
    pages.contexts.append(context)
    page = context.new_page()
    for path, heading in (("/no/such/page", "No such page"),
                          ("/t/NoSuchTable1", "No such table")):
        response = page.goto(server.url + path)
        assert response is not None
        page.wait_for_selector(f"h1:text('{heading}')")
        assert page.title().startswith(("Not found", "No such table"))
        assert page.locator("a[href='/']").count() > 0
        assert not serious(page), (path, serious(page))
    response = page.goto(server.url + "/no/such/page")
    assert response is not None and response.status == 404


def test_api_paths_keep_the_json_refusal(server: AppServer) -> None:
    html = {"Accept": "text/html"}
    for path in ("/api/nothing", "/ui/nothing.js"):
        r = httpx.get(server.url + path, headers=html, timeout=30)
        assert r.status_code == 404 and "<html" not in r.text, (path, r.text[:80])
    r = httpx.get(server.url + "/no/such/page", timeout=30)  # not a browser: JSON
    assert r.status_code == 404 and r.json()["error"] == "Not Found"
