"""Quatrefoil's review on the server and the replay page (issue 32): a real ``fourfold
serve`` on loopback and a real Chromium. While a game is on, neither the review nor the
replay (API or page, spectator or seat) shows anything of the deal; once it is over,
the review is worked out in the job pool, stored, equal to ``fourfold review`` of the
game's record, and shown on the replay page: a mark on every action, the jump to the
costliest one, and the shortest solution from the chosen point stepped through on the
board (desktop and phone, no console errors, axe clean)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.browser_app import DESKTOP, PHONE, TIMEOUT, Watched, shots_folder
from support.server import Api, Server, running, tokens_of
from support.wait import wait_until

#: the actions of the seeded bots' game of deal 3 (``fourfold review`` of it: action 2
#: costs about half an action on public information)
ACTIONS = ("ccw", "ccw", "W>NW", "N>NW", "W>NW", "stack")
DESKTOP_860 = {**DESKTOP, "height": 860}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("review-quatrefoil")) as started:
        yield started


@pytest.fixture
def api(server: Server) -> Iterator[Api]:
    client = server.client()
    yield client
    client.http.close()



def _play(api: Api, tid: str, tokens: dict[int, str], actions: tuple[str, ...]) -> None:
    for action in actions:
        state = api.state(tid)
        seat = state["to_act"][0]
        r = api.move(tid, tokens[seat], action, state["version"])
        assert r.status_code == 200, r.text


def _deal_of(api: Api, tid: str) -> str:
    """The solution of a finished table, from its record (face up once it is over)."""
    record = api.http.get(f"/api/tables/{tid}/record").text
    found = re.search(r"solution=(\S+)", record)
    assert found is not None, record
    return found.group(1)


def _ready(api: Api, tid: str) -> dict[str, Any]:
    def ready() -> httpx.Response | None:
        r = api.http.get(f"/api/tables/{tid}/review")
        assert r.status_code in (200, 202), r.text
        return r if r.status_code == 200 else None

    body: dict[str, Any] = wait_until(ready, 180, "the stored review", every=0.3).json()
    return body


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[str, Any]:
    """A finished game between four people at a seeded table, and its stored review."""
    api = server.client()
    try:
        created = api.create(game="quatrefoil", seats=["human"] * 4, seed=3)
        tid = created["id"]
        _play(api, tid, tokens_of(created), ACTIONS)
        assert api.state(tid)["outcome"] is not None
        return {"id": tid, "review": _ready(api, tid),
                "record": api.http.get(f"/api/tables/{tid}/record").text}
    finally:
        api.http.close()


def test_nothing_of_the_deal_while_the_game_is_on(server: Server, api: Api,
                                                  browser: Any) -> None:
    created = api.create(game="quatrefoil", seats=["human"] * 4, seed=11)
    tid, tokens = created["id"], tokens_of(created)
    _play(api, tid, tokens, ("cw", "N>NW"))
    asked = ["/api/tables/{t}/review", "/api/tables/{t}/review/picture?ply=1",
             "/api/tables/{t}/review/picture?ply=1&step=1", "/api/tables/{t}/replay",
             "/api/tables/{t}/picture?ply=0", "/api/tables/{t}/picture?ply=1",
             "/api/tables/{t}/analysis"]
    bodies = []
    for token in (None, *tokens.values()):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for path in asked:
            r = api.http.get(path.format(t=tid), headers=headers)
            assert r.status_code == 409, (path, token is None, r.status_code, r.text[:200])
            assert set(r.json()) <= {"type", "status", "error", "id", "available"}, r.text
            bodies.append(r.text)
    # the replay page of the live game, as a spectator and from a seat's link
    seen: list[str] = []
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(TIMEOUT)
    watched = Watched(context)
    page = watched.page
    page.on("response", lambda r: seen.append(r.text()) if "/api/" in r.url else None)
    try:
        for suffix in ("", f"#seat={tokens[0]}"):
            page.goto(f"{server.url}/replay/{tid}{suffix}")
            page.get_by_text(re.compile("No replay")).wait_for()
            page.get_by_text("The review opens when the game is over.").wait_for()
            assert page.locator("#replay-moves li").count() == 0
            seen.append(page.content())
    finally:
        context.close()
    # only now, the game over, the deal is known: none of it was shown before
    _play(api, tid, tokens, ("stack",))
    solution = _deal_of(api, tid)
    for text in bodies + seen:
        assert solution not in text and "solution=" not in text


def test_the_stored_review_is_the_terminal_review_of_the_record(
        finished: dict[str, Any], api: Api) -> None:
    from fourfold.core.match import Match
    from fourfold.core.record import parse_record
    from fourfold.games.quatrefoil.review import review_match

    body = finished["review"]
    assert body["status"] == "ready" and body["kind"] == "actions"
    expected = review_match(Match.from_record(parse_record(finished["record"])))
    for key, value in expected.items():
        assert body[key] == value, key
    assert [p["move"] for p in body["plies"]] == list(ACTIONS)
    assert body["costliest"] is not None
    # the shortest solution from before each action, step by step on the board; the
    # last step is the solved quatrefoil, every card face up
    tid = finished["id"]
    for ply in (1, body["costliest"]):
        line = body["plies"][ply - 1]["line"]
        for step in range(len(line) + 1):
            r = api.http.get(f"/api/tables/{tid}/review/picture",
                             params={"ply": ply, "step": step})
            assert r.status_code == 200 and r.text.lstrip().startswith("<svg"), r.text[:200]
        r = api.http.get(f"/api/tables/{tid}/review/picture",
                         params={"ply": ply, "step": len(line) + 1})
        assert r.status_code == 422 and "line" in r.json()["error"]
    # stored: asked again, the same answer at once
    assert api.http.get(f"/api/tables/{tid}/review").json() == body


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_review_on_the_replay_page(server: Server, finished: dict[str, Any], browser: Any,
                                       size: str,
                                       tmp_path_factory: pytest.TempPathFactory) -> None:
    from test_review_server_browser import serious

    tid, body = finished["id"], finished["review"]
    shots = shots_folder(tmp_path_factory)
    context = browser.new_context(viewport=DESKTOP_860 if size == "desktop" else PHONE)
    context.set_default_timeout(TIMEOUT)
    watched = Watched(context)
    page = watched.page
    try:
        page.goto(f"{server.url}/replay/{tid}")
        page.locator("#review-chart svg circle").first.wait_for()
        plies = body["plies"]
        # the actions and the review come in two answers, either first: the list carries
        # the marks (and its caption says actions) once both are in
        page.locator("#replay-moves li").nth(len(plies)).wait_for(state="attached")
        assert page.locator("#review-chart svg circle").count() == len(plies) + 1
        assert page.locator("#moves-h").inner_text().startswith("Actions")
        marks = page.locator("#replay-moves .value.mark")
        assert marks.count() == len(plies)
        assert "(costliest)" in marks.nth(body["costliest"] - 1).inner_text()
        assert page.locator("#analysis").count() == 0  # one review, not two panels
        costliest = plies[body["costliest"] - 1]
        page.locator("#costliest").click()
        page.wait_for_function(
            f"document.querySelector('#replay-slider').value === '{costliest['ply']}'")
        page.locator("#review-move").get_by_text(costliest["says"]).wait_for()
        # the shortest solution from the position shown (after the costliest action)
        line = plies[costliest["ply"]]["line"] if costliest["ply"] < len(plies) else []
        assert line, "the game went on after its costliest action"
        page.locator("#show-line").click()
        page.locator("#best-line").wait_for()
        page.get_by_text(re.compile(
            rf"After 1 of {len(line)} moves of the shortest solution")).wait_for()
        if len(line) > 1:
            page.locator("#line-next").click()
            page.get_by_text(re.compile(rf"After 2 of {len(line)} moves")).wait_for()
        assert page.locator("#replay-board svg").count() == 1
        page.screenshot(path=str(shots / f"review-quatrefoil-{size}.png"), full_page=True)
        assert serious(page) == []
        page.locator("#line-close").click()
        page.locator("#show-line").wait_for()
        page.locator("#r-first").click()
        page.get_by_text(re.compile(r"The start: \d+ deals")).wait_for()
        watched.clean()
    finally:
        context.close()
