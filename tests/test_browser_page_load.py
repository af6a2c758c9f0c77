"""What a page fetches when it opens (issue 31: interactive within 1 s, fingerprinted
static files), in a real Chromium against a real ``fourfold serve``: a table's first
visit fetches the table's modules and its game's controller, all at once (preloaded by
the shell) and under the build's fingerprint, cached for good; not the lobby's, the
puzzles' or the review's; its first screen is asked for by the HTML itself, while the
modules load. Other pages' modules load when the person goes there. (How
soon the page is interactive is measured by benchmarks/bench_page_load.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.browser_app import DESKTOP, AppServer, Pages


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(tmp_path_factory.mktemp("browser-load")).start()
    try:
        yield app
    finally:
        app.stop()


#: notes the document's state whenever the page asks for a table's screen, and
#: anything the Content-Security-Policy blocked
WATCH = """
window.__screenAsked = [];
window.__blocked = [];
const fetchNow = window.fetch;
window.fetch = function (url, ...rest) {
  if (String(url).endsWith('/screen')) window.__screenAsked.push(document.readyState);
  return fetchNow.call(this, url, ...rest);
};
document.addEventListener('securitypolicyviolation',
  (e) => window.__blocked.push(e.violatedDirective));
"""


def fresh_page(pages: Pages) -> tuple[Any, list[str]]:
    context = pages.browser.new_context(viewport=DESKTOP)
    pages.contexts.append(context)
    context.add_init_script(WATCH)
    page = context.new_page()
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    return page, fetched


def test_a_tables_first_visit_fetches_only_what_a_table_needs(server: AppServer,
                                                              pages: Pages) -> None:
    made = server.create("dao", ["human", "bot:level1"])
    shell = httpx.get(server.url + made["url"], timeout=30).text
    build = shell.split('src="/ui/')[1].split("/")[0]
    page, fetched = fresh_page(pages)
    page.goto(server.url + made["seats"][0]["url"])
    page.wait_for_selector('#board.acting [role="button"]')
    files = [u.split(f"/ui/{build}/")[1] for u in fetched if f"/ui/{build}/" in u]
    assert {"app.js", "table.js", "util.js", "kit.js", "controllers.js",
            "pkg/fourfold/games/sliding/browser.js"} <= set(files)
    assert not {"lobby.js", "puzzles.js", "review.js", "replay.js", "explore.js",
                "daily.js"} & set(files), files
    # every file of the app comes under the fingerprint, and is kept for good
    assert not [u for u in fetched if "/ui/" in u and f"/ui/{build}/" not in u]
    for file in files:
        r = httpx.get(f"{server.url}/ui/{build}/{file}", timeout=30)
        assert r.status_code == 200 and r.headers["cache-control"].endswith("immutable"), file
    # the table is in the server's memory: only its game's controller is preloaded
    assert [f for f in files if f.startswith("pkg/")] == ["pkg/fourfold/games/sliding/browser.js"]
    # the screen was asked for once, by the HTML while the document was still loading
    # (not after the modules: the two waits overlap), and the page drew from that answer
    assert [u for u in fetched if u.endswith("/screen")] == [
        f"{server.url}/api/tables/{made['id']}/screen"]
    assert page.evaluate("window.__screenAsked") == ["loading"]
    assert page.evaluate("window.__blocked") == []


def test_other_pages_load_their_modules_when_the_person_goes_there(server: AppServer,
                                                                   pages: Pages) -> None:
    made = server.create("dao", ["human", "bot:level1"])
    page, fetched = fresh_page(pages)
    page.goto(server.url + made["seats"][0]["url"])
    page.wait_for_selector("#board svg")
    assert not [u for u in fetched if u.endswith("/lobby.js")]
    page.click("a.brand")  # in the app, no new document
    page.wait_for_selector("#f-create")
    assert [u for u in fetched if u.endswith("/lobby.js")]
    page.click("nav a[href='/rules']")
    page.wait_for_selector("#rules")
    page.go_back()
    page.wait_for_selector("#f-create")
    page.go_back()
    page.wait_for_selector("#board svg")


def test_a_controller_that_imports_another_has_both_preloaded(server: AppServer,
                                                             pages: Pages) -> None:
    """Ice Dao's controller imports the sliding games': both are preloaded by the HTML,
    not the second once the first has arrived (one round trip more before the board)."""
    made = server.create("icedao", ["human", "bot:level1"])
    page, fetched = fresh_page(pages)
    page.goto(server.url + made["seats"][0]["url"])
    page.wait_for_selector('#board.acting [role="button"]')
    controllers = sorted(u.split("/pkg/")[1] for u in fetched if "/pkg/" in u)
    assert controllers == ["fourfold/games/icedao/browser.js",
                           "fourfold/games/sliding/browser.js"], controllers
    started, arrived = page.evaluate("""() => {
      const find = (end) => performance.getEntriesByType('resource')
        .find((e) => e.name.endsWith(end));
      return [find('/sliding/browser.js').startTime, find('/icedao/browser.js').responseEnd];
    }""")
    assert started < arrived, (started, arrived)
