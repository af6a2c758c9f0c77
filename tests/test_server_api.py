"""The REST API against a real ``fourfold serve`` on SQLite."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from support.server import Api, Live, Server, auth, play_out, running, tokens_of
from support.wait import wait_until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("serve"), extra=("--analysis-seconds", "0.2")) as s:
        yield s


@pytest.fixture
def api(server: Server) -> Iterator[Api]:
    client = server.client()
    yield client
    client.http.close()



def test_a_whole_game_against_a_bot(api: Api) -> None:
    created = api.create(game="quarto", seats=["human", "bot:level1"], seed=3)
    assert created["url"] == f"/t/{created['id']}"
    assert created["seats"][0]["url"].startswith(f"/t/{created['id']}#seat=")
    rng = random.Random(1)
    end = play_out(api, created["id"], tokens_of(created), rng.choice)
    assert end["outcome"]["result"] in ("win", "draw")
    assert end["status"] == "finished"
    # nobody acts after the game is over
    token = tokens_of(created)[0]
    r = api.move(created["id"], token, "a1 x", end["version"])
    assert r.status_code == 409 and "over" in r.json()["error"]


def test_status_codes_and_nothing_changes_on_refusal(api: Api) -> None:
    created = api.create(game="folio", seats=["human", "human"], seed=1)
    tid, tokens = created["id"], tokens_of(created)
    a = api.state(tid)["to_act"][0]
    b = 1 - a
    state = api.state(tid, tokens[a])
    assert state["you"] == a and state["version"] == 0 and state["to_act"] == [a]
    move = state["legal"][0]
    assert api.move(tid, None, move, 0).status_code == 403
    assert api.move(tid, "not-a-token", move, 0).status_code == 403
    assert api.move(tid, tokens[b], move, 0).status_code == 409          # not your turn
    r = api.move(tid, tokens[a], "zz9 nonsense", 0)
    assert r.status_code == 422 and r.json()["error"]
    assert api.move(tid, tokens[a], move, 5).status_code == 409          # no such version
    assert api.state(tid)["version"] == 0
    r = api.move(tid, tokens[a], move, 0)
    assert r.status_code == 200 and r.json()["state"]["version"] == 1
    r = api.move(tid, tokens[b], api.state(tid, tokens[b])["legal"][0], 0)
    assert r.status_code == 409 and "stale" in r.json()["error"]
    assert api.state(tid)["version"] == 1
    assert api.get("nosuchtable").status_code == 404
    assert api.get(tid, "bad").status_code == 403


def test_seats_see_only_their_own_cards(api: Api) -> None:
    created = api.create(game="quatrefoil", variant="base", seats=["human"] * 4, seed=9)
    tid, tokens = created["id"], tokens_of(created)
    spectator = api.state(tid)["view"]["board"]
    assert spectator["north"] is None and set(spectator["colour_cards"]) == {None}
    for seat in range(4):
        board = api.state(tid, tokens[seat])["view"]["board"]
        shown = [p for p, c in enumerate(board["colour_cards"]) if c is not None]
        assert shown == [seat]
    record = api.http.get(f"/api/tables/{tid}/record", headers=auth(tokens[1]))
    assert record.status_code == 200 and "Viewer" in record.text


def test_record_download_import_and_rematch(api: Api) -> None:
    created = api.create(game="dao", seats=["human", "human"], seed=2)
    tid, tokens = created["id"], tokens_of(created)
    for _ in range(3):
        state = api.state(tid)
        seat = state["to_act"][0]
        mine = api.state(tid, tokens[seat])
        assert api.move(tid, tokens[seat], mine["legal"][0], mine["version"]).status_code == 200
    text = api.http.get(f"/api/tables/{tid}/record")
    assert text.headers["content-type"].startswith("text/plain")
    assert "attachment" in text.headers["content-disposition"]
    as_json = api.http.get(f"/api/tables/{tid}/record", params={"format": "json"}).json()
    assert len(as_json["moves"]) == 3
    imported = api.http.post("/api/import", content=text.text,
                             headers={"content-type": "text/plain"})
    assert imported.status_code == 201, imported.text
    copy = api.state(imported.json()["id"])
    assert copy["version"] == 3 and copy["view"] == api.state(tid)["view"]
    assert api.post(tid, "rematch", tokens[0]).status_code == 409    # not over yet
    assert api.post(tid, "resign", tokens[1], version=3).status_code == 200
    assert api.state(tid)["outcome"]["winner"] == 0
    r = api.post(tid, "rematch", tokens[0])
    assert r.status_code == 201, r.text
    again = r.json()
    assert again["you"] == 1
    assert api.post(tid, "rematch", tokens[1]).json()["id"] == again["id"]
    # the same tokens, sides swapped
    assert api.state(again["id"], tokens[0])["you"] == 1
    assert api.state(again["id"], tokens[1])["you"] == 0
    bad = api.http.post("/api/import", content="[Game \"nope\"]\n",
                        headers={"content-type": "text/plain"})
    assert bad.status_code == 422


def test_lobby_private_tables_and_open_seats(api: Api) -> None:
    hidden = api.create(game="dao", seats=["human", "human"], private=True)
    listed = api.create(game="dao", seats=["human", "open"],
                        clock={"base": 300, "increment": 2})
    ids = {t["id"] for t in api.http.get("/api/lobby").json()["tables"]}
    assert listed["id"] in ids and hidden["id"] not in ids
    tid = listed["id"]
    assert api.state(tid)["status"] == "open"
    r = api.move(tid, tokens_of(listed)[0], api.state(tid, tokens_of(listed)[0])["legal"][0]
                 if api.state(tid, tokens_of(listed)[0])["legal"] else "x", 0)
    assert r.status_code == 409
    joined = api.http.post(f"/api/tables/{tid}/join", json={"name": "Bea"})
    assert joined.status_code == 201, joined.text
    assert joined.json()["seat"] == 1
    state = api.state(tid, joined.json()["token"])
    assert state["you"] == 1 and state["status"] == "live"
    assert state["seats"][1]["name"] == "Bea"
    assert api.http.post(f"/api/tables/{tid}/join", json={}).status_code == 409
    assert tid in api.http.get("/api/lobby").text
    page = api.http.get("/")  # the browser app, which lists the lobby from the API
    assert page.status_code == 200 and 'id="announce"' in page.text


def test_player_clock_runs_out_on_the_server(api: Api) -> None:
    created = api.create(game="dao", seats=["human", "human"], clock={"base": 1.0})
    tid = created["id"]
    end = api.wait(tid, None, lambda s: s["outcome"] is not None, seconds=10)
    assert end["outcome"]["winner"] == 1 and end["clocks"][0] == 0


def test_race_the_clock_shared_timer(api: Api) -> None:
    created = api.create(game="quatrefoil", variant="race-the-clock",
                         options={"clock-seconds": 2}, seats=["human"] * 4, seed=5)
    end = api.wait(created["id"], None, lambda s: s["outcome"] is not None, seconds=15)
    assert end["outcome"]["result"] == "team-loss"


def test_dual_everyone_at_once_and_stale_refused(server: Server, api: Api) -> None:
    created = api.create(game="quatrefoil", variant="dual", seats=["human"] * 4, seed=4)
    tid, tokens = created["id"], tokens_of(created)
    assert api.state(tid)["to_act"] == [0, 1, 2, 3]
    sockets = {p: Live(server, tid, tokens[p]) for p in (0, 1)}
    try:
        for live in sockets.values():
            assert live.next()["type"] == "welcome"
            assert live.next()["kind"] == "start"
        twists = {p: next(m for m in api.state(tid, tokens[p])["legal"] if ":cw@" in m)
                  for p in (0, 1)}
        sockets[0].send({"type": "move", "move": twists[0], "version": 0})
        sockets[1].send({"type": "move", "move": twists[1], "version": 0})
        replies = {p: s.until(lambda m: m["type"] in ("ack", "refused")) for p, s in
                   sockets.items()}
        kinds = sorted(r["type"] for r in replies.values())
        assert kinds == ["ack", "refused"]
        refused = next(r for r in replies.values() if r["type"] == "refused")
        assert refused["status"] == 409 and "stale" in refused["error"]
    finally:
        for live in sockets.values():
            live.close()


def test_websocket_stream_and_refusals(server: Server, api: Api) -> None:
    created = api.create(game="folio", seats=["human", "bot:level1"], seed=6)
    tid, tokens = created["id"], tokens_of(created)
    me = Live(server, tid, tokens[0])
    watcher = Live(server, tid, None)
    try:
        assert me.next()["you"] == 0 and watcher.next()["you"] is None
        state = api.wait(tid, tokens[0], lambda s: s["to_act"] == [0])
        me.send({"type": "move", "move": state["legal"][0], "version": state["version"]})
        ack = me.until(lambda m: m["type"] in ("ack", "refused"))
        assert ack["type"] == "ack", ack
        event = watcher.until(lambda m: m.get("kind") == "move" and m["seat"] == 0)
        assert event["view"]["viewer"] is None and event["version"] == state["version"] + 1
        watcher.send({"type": "move", "move": "a1 Rs", "version": 0})
        assert watcher.until(lambda m: m["type"] == "refused")["status"] == 403
        me.send({"type": "move", "move": "x", "version": 0})
        assert me.until(lambda m: m["type"] == "refused")["status"] == 409
        me.send({"type": "ping"})
        assert me.until(lambda m: m["type"] in ("pong",))["type"] == "pong"
        me.ws.send("{not json")
        assert me.until(lambda m: m["type"] == "refused")["status"] == 400
    finally:
        me.close()
        watcher.close()


def test_websocket_origin_and_bad_tokens(server: Server, api: Api) -> None:
    from websockets.exceptions import InvalidStatus

    created = api.create(game="dao", seats=["human", "human"])
    with pytest.raises(InvalidStatus):
        Live(server, created["id"], None, origin="http://evil.example")
    ok = Live(server, created["id"], None, origin=f"http://127.0.0.1:{server.port}")
    assert ok.next()["type"] == "welcome"
    ok.close()
    bad = Live(server, created["id"], "stolen")
    assert bad.next()["status"] == 403
    bad.close()


def test_analysis_of_a_finished_game(api: Api) -> None:
    created = api.create(game="dao", seats=["human", "human"], seed=8)
    tid, tokens = created["id"], tokens_of(created)
    assert api.http.get(f"/api/tables/{tid}/analysis").status_code == 409
    for _ in range(2):
        seat = api.state(tid)["to_act"][0]
        mine = api.state(tid, tokens[seat])
        api.move(tid, tokens[seat], mine["legal"][0], mine["version"])
    assert api.post(tid, "resign", tokens[0], version=2).status_code == 200
    def analysed() -> httpx.Response | None:
        r = api.http.get(f"/api/tables/{tid}/analysis")
        assert r.status_code in (200, 202), r.text
        return r if r.status_code == 200 else None

    # behind the game's own review in the long jobs' lane, and the first Dao solve in a
    # fresh worker process loads the solved table: minutes on a loaded machine
    body = wait_until(analysed, 240, "the finished analysis", every=0.2).json()
    assert body["complete"] and len(body["positions"]) == 3
    assert body["positions"][0]["played"] is not None


def test_limits(server: Server, api: Api) -> None:
    r = api.http.post("/api/tables", content=b"{" + b" " * 100_000 + b"}",
                      headers={"content-type": "application/json"})
    assert r.status_code == 413
    # a body that is not JSON says so, and where (it said "8: JSON decode error")
    r = api.http.post("/api/tables", content=b'{"game": dao}',
                      headers={"content-type": "application/json"})
    assert r.status_code == 422
    assert r.json()["error"].startswith("the request body is not valid JSON (at character 10)")
    # nor does one nested past what the parser follows, or one that is not UTF-8 (both
    # were 400 "There was an error parsing the body": neither what nor why)
    for body, why in ((b"[" * 20_000 + b"]" * 20_000, "nested too deeply"),
                      (b'{"game": "\xff"}', "not UTF-8 text (byte 11 ")):
        r = api.http.post("/api/tables", content=body,
                          headers={"content-type": "application/json"})
        assert r.status_code == 422, r.text
        assert r.json()["error"].startswith("the request body is not valid JSON"), r.text
        assert why in r.json()["error"], r.text
    assert api.http.get("/docs").status_code == 200
    assert "/api/tables" in api.http.get("/openapi.json").json()["paths"]


def test_rate_limit(tmp_path: Path) -> None:
    # Up to 30 requests, stopping at the first refusal: each refusal is held by the
    # tarpit (``--refusal-hold``), so asking on after it only waited.
    # The start-up probe of ``running`` may have spent this address's allowance (one
    # request a second) already: first one request is answered once it is back.
    codes: list[int] = []
    with running(tmp_path, extra=("--rate", "1", "--address-rate", "1")) as server:
        lobby = server.url + "/api/lobby"
        wait_until(lambda: httpx.get(lobby).status_code == 200, seconds=60,
                   what="a request within the allowance", every=0.5)
        while len(codes) < 30 and 429 not in codes:
            codes.append(httpx.get(lobby).status_code)
    assert 429 in codes  # asking on at once is refused


def test_the_example_bot_plays_a_whole_game(server: Server) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "examples/api_bot.py", "--url", server.url,
                           "--seed", "1"], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "game over" in done.stdout
