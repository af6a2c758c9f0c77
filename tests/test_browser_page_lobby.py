"""The lobby as a new user meets it (issue 31), in a real Chromium against a real
``fourfold serve``: "Create the table" is in sight without scrolling, on a laptop
(1280x860) and a phone (390x844), whatever game is chosen; names read as people
write them."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from support.browser_app import PHONE, AppServer, Pages

LAPTOP = {"width": 1280, "height": 860}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(tmp_path_factory.mktemp("browser-lobby")).start()
    try:
        yield app
    finally:
        app.stop()


#: where the element is drawn, and the id of what takes a tap at its middle
AT_THE_BUTTON = """(s) => { const r = document.querySelector(s).getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return [{x: r.x, y: r.y, width: r.width, height: r.height}, hit && hit.id]; }"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_create_the_table_is_in_sight_without_scrolling(server: AppServer, pages: Pages,
                                                        viewport: dict[str, int]) -> None:
    page = pages.open(server.url + "/", viewport, phone=viewport is PHONE)
    page.wait_for_selector("#f-create")
    games = page.eval_on_selector_all("#f-game option", "os => os.map((o) => o.value)")
    assert len(games) >= 5
    for game in games:
        page.select_option("#f-game", game)
        variants = page.eval_on_selector_all("#f-variant option", "os => os.map((o) => o.value)")
        for variant in variants:
            page.select_option("#f-variant", variant)
            assert page.evaluate("scrollY") == 0
            # where it is drawn, and that it is the button that takes a tap there, not
            # something over it: read in one step (the lobby redraws itself as answers
            # come: the game's rulings, the list of tables every 5 s)
            box, hit = page.evaluate(AT_THE_BUTTON, "#f-create")
            assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (
                game, variant, box)
            assert hit == "f-create", (game, variant, hit)


def test_a_refused_table_says_why_beside_the_button(server: AppServer, pages: Pages) -> None:
    page = pages.open(server.url + "/", LAPTOP)
    page.wait_for_selector("#f-create")
    page.select_option("#f-game", "dao")
    page.check("#f-clock")
    page.fill("#f-base", "0")
    page.click("#f-create")
    page.wait_for_selector("#f-error:not(:empty)")
    box, _ = page.evaluate(AT_THE_BUTTON, "#f-error")
    assert box["height"] > 0 and box["y"] + box["height"] <= LAPTOP["height"], box
    assert page.evaluate("scrollY") == 0


def test_options_and_bots_read_as_people_write_them(server: AppServer, pages: Pages) -> None:
    page = pages.open(server.url + "/", LAPTOP)
    page.wait_for_selector("#f-create")
    page.select_option("#f-game", "folio")
    labels = page.eval_on_selector_all(".option label", "ls => ls.map((l) => l.textContent)")
    assert "Line rule" in labels and not any("-" in text for text in labels), labels
    bots = page.eval_on_selector_all("#seat-1-bot option", "os => os.map((o) => o.textContent)")
    assert "Level 2" in bots and "level2" not in bots, bots
    # the values sent are the API's own names
    assert "level2" in page.eval_on_selector_all("#seat-1-bot option",
                                                 "os => os.map((o) => o.value)")
    page.click("#f-create")
    page.wait_for_url("**/t/**")
    table = page.url.split("/t/")[1].split("#")[0]
    state = httpx.get(f"{server.url}/api/tables/{table}", timeout=30).json()
    assert state["seats"][1]["bot"] == "level2"


def test_your_tables_shows_a_seat_taken_in_another_tab_at_once(server: AppServer,
                                                              pages: Pages) -> None:
    context = pages.browser.new_context(viewport=LAPTOP)
    pages.contexts.append(context)
    lobby = context.new_page()
    lobby.clock.install()  # the lobby's own refresh every 5 s never comes: only the event
    lobby.goto(server.url + "/")
    lobby.wait_for_selector("#mine-h")
    assert lobby.locator(".yours li").count() == 0
    other = context.new_page()
    other.goto(server.url + "/")
    other.wait_for_selector("#f-create")
    other.select_option("#f-game", "dao")
    other.click("#f-create")
    other.wait_for_url("**/t/**")
    lobby.wait_for_selector(".yours li a", timeout=5_000)
    assert "Dao (standard)" in lobby.inner_text(".yours")


def test_a_seat_offers_only_the_bots_that_play_the_chosen_game(server: AppServer,
                                                                pages: Pages) -> None:
    """The lobby once listed every bot for every game, and refused only on "Create":
    "the quatrefoil bot plays only Quatrefoil, not quarto (standard)"."""
    catalogue = httpx.get(server.url + "/api/games", timeout=30).json()
    page = pages.open(server.url + "/", LAPTOP)
    page.wait_for_selector("#f-create")
    for game in catalogue["games"]:
        page.select_option("#f-game", game["game"])
        for variant in game["variants"]:
            page.select_option("#f-variant", variant["variant"])
            offered = page.eval_on_selector_all("#seat-1-bot option",
                                                "os => os.map((o) => o.value)")
            assert offered == variant["bots"], (game["game"], variant["variant"])
    quarto = next(g for g in catalogue["games"] if g["game"] == "quarto")["variants"][0]
    assert "level2" in quarto["bots"] and "quatrefoil" not in quarto["bots"]
    assert "freeform" not in quarto["bots"]
    page.select_option("#f-game", "quarto")
    page.select_option("#seat-1", "bot")
    page.click("#f-create")
    page.wait_for_url("**/t/**")  # made: the default bot plays Quarto
