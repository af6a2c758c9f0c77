"""The daily Quatrefoil deal (issue 32): one secret deal per variant and UTC day, the
same on every instance sharing a database, undeterminable from outside during its day,
and a leaderboard that ranks only tables whose players did not know the deal.

Real ``fourfold serve`` processes on loopback; "now" is moved with ``--test-clock``
(a file holding a Unix time), never by sleeping.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.server import (
    Api,
    Live,
    Postgres,
    Redis,
    Server,
    auth,
    client_from,
    instances,
    stop_all,
    tokens_of,
)
from support.wait import wait_until

NOON = 1_893_499_200.0            # 2030-01-01 12:00 UTC
DAY = "2030-01-01"
NEXT_DAY = NOON + 12 * 3600 + 1   # 2030-01-02 00:00:01 UTC
HUMANS = ["human"] * 4
#: a daily table of four people: its creator's own link, and three seats for others
PEOPLE = ["human", "open", "open", "open"]
#: actions legal whatever the deal: a turn there and back, then a stack (unsolved,
#: since a deal never starts solved)
SCRIPT = ("cw", "ccw", "stack")


def _clock(folder: Path, moment: float) -> Path:
    path = folder / "now"
    path.write_text(repr(moment))
    return path


def _daily(api: Api, variant: str = "base", seats: list[Any] | None = None,
           private: bool = False) -> dict[str, Any]:
    r = api.http.post(f"/api/daily/quatrefoil/{variant}",
                      json={"seats": seats or PEOPLE, "private": private})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def _people(server: Server, variant: str = "base",
            addresses: tuple[str, ...] | int = 1) -> tuple[dict[str, Any], dict[int, str]]:
    """A daily table of four people: the first address makes it (seat 1, its own link),
    and seats 2 to 4 are taken from the lobby from the others, one request each (a
    number ``n``: the four loopback addresses ``127.n.0.1`` to ``127.n.0.4``). It is
    kept out of the lobby (which shows when it last changed), and joined by its id.
    Returns the table and every seat's token."""
    if isinstance(addresses, int):
        addresses = tuple(f"127.{addresses}.0.{k}" for k in range(1, 5))
    with client_from(addresses[0], server.url) as http:
        made = _daily(Api(http), variant, private=True)
    tokens = dict(tokens_of(made))
    for seat, address in enumerate(addresses[1:], start=1):
        with client_from(address, server.url) as http:
            r = http.post(f"/api/tables/{made['id']}/join", json={"seat": seat})
            assert r.status_code == 201, r.text
            tokens[seat] = r.json()["token"]
    return made, tokens


def _play(api: Api, made: dict[str, Any], tokens: dict[int, str],
          script: tuple[str, ...] = SCRIPT) -> None:
    for k, move in enumerate(script):
        r = api.move(made["id"], tokens[k % 4], move, k)
        assert r.status_code == 200, r.text


def _shortest(start: str, goal: str) -> list[str]:
    """The fewest actions (pushes and turns) from one arrangement to another."""
    from fourfold.games.quatrefoil.arrangement import (
        ACTION_NAMES,
        STACK,
        act,
        format_arrangement,
        parse_arrangement_text,
    )

    first, target = parse_arrangement_text(start), parse_arrangement_text(goal)
    paths: dict[Any, list[str]] = {first: []}
    frontier = [first]
    while target not in paths:
        following = []
        for arrangement in frontier:
            for action in range(STACK):
                after = act(arrangement, action)
                if after not in paths:
                    paths[after] = [*paths[arrangement], ACTION_NAMES[action]]
                    following.append(after)
        assert following, f"{goal} cannot be reached from {format_arrangement(first)}"
        frontier = following
    return paths[target]


def _solve(api: Api, made: dict[str, Any]) -> None:
    """Seat 1 plays a face-up deal to a solution among bots: at each of its turns the
    first action of a shortest way to the solution, or the stack once it is reached."""
    tid, token = made["id"], tokens_of(made)[0]
    for _ in range(40):
        state = api.wait(tid, token, lambda s: s["outcome"] is not None or 0 in s["to_act"],
                         60)
        if state["outcome"] is not None:
            break
        board = state["view"]["board"]
        path = _shortest(board["arrangement"], board["solution"])
        r = api.move(tid, token, path[0] if path else "stack", state["version"])
        assert r.status_code == 200, r.text
    outcome = api.state(tid, token)["outcome"]
    assert outcome is not None and "every token in place" in json.dumps(outcome), outcome


def _board(api: Api, variant: str = "base", **params: Any) -> dict[str, Any]:
    r = api.http.get(f"/api/daily/quatrefoil/{variant}", params=params)
    assert r.status_code == 200, r.text
    board: dict[str, Any] = r.json()
    return board


def _outside(server: Server, api: Api, tid: str) -> list[str]:
    """Everything someone without a seat can ask about the day and the table."""
    http = api.http
    answers = []
    for path, params in (("/api/daily", {}), ("/api/daily/quatrefoil/base", {}),
                         (f"/api/daily/quatrefoil/base?day={DAY}", {}),
                         ("/api/lobby", {}), (f"/api/tables/{tid}", {}),
                         (f"/api/tables/{tid}/record", {}),
                         (f"/api/tables/{tid}/record", {"format": "json"}),
                         (f"/api/tables/{tid}/svg", {}), (f"/api/tables/{tid}/screen", {}),
                         (f"/api/tables/{tid}/picture", {}),
                         (f"/api/tables/{tid}/picture", {"ply": 0}),
                         (f"/api/tables/{tid}/replay", {}), (f"/api/tables/{tid}/hint", {}),
                         (f"/api/tables/{tid}/analysis", {}), (f"/replay/{tid}", {}),
                         (f"/t/{tid}", {}), ("/daily", {})):
        r = http.get(path, params=params)
        answers.append(f"{path} {params} {r.status_code} {_timeless(r)}")
    spectator = Live(server, tid, None)
    try:
        answers.append(f"socket {json.dumps(spectator.next(), sort_keys=True)}")
    finally:
        spectator.close()
    return answers


def _timeless(response: httpx.Response) -> str:
    """The answer, without the one value that depends on when the test's requests
    arrive: a ranked table's seconds (checked to be a number)."""
    if not response.headers.get("content-type", "").startswith("application/json"):
        return response.text
    value = response.json()
    for entry in value.get("entries", []) if isinstance(value, dict) else []:
        assert isinstance(entry.pop("seconds"), float)
    return json.dumps(value, sort_keys=True)


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server, Path]]:
    """Two servers on two databases (two secrets), handing out the same ids and tokens
    (the same test seed) and living on the same day (one clock file)."""
    clock = _clock(tmp_path_factory.mktemp("clock"), NOON)
    pair = [Server(tmp_path_factory.mktemp(f"twin{i}"),
                   extra=("--test-seed", "91", "--test-clock", str(clock)))
            for i in range(2)]
    try:
        for server in pair:
            server.start()
        yield pair[0], pair[1], clock
    finally:
        stop_all(pair)


def test_twin_days_are_undeterminable_from_outside(
        twins: tuple[Server, Server, Path]) -> None:
    """Two secrets deal two different days; to anyone without a seat the two servers
    answer byte for byte the same, while the table plays and after it has finished,
    until the day ends. Then the deal and the lines are shown, and they differ."""
    first, second, clock = twins
    clock.write_text(repr(NOON))
    apis = [first.client(), second.client()]
    try:
        made = [_people(server) for server in (first, second)]
        assert made[0] == made[1]  # the same ids and tokens: only the deals differ
        tid, tokens = made[0][0]["id"], made[0][1]
        seen = [_outside(s, api, tid) for s, api in zip((first, second), apis, strict=True)]
        assert seen[0] == seen[1]
        assert all(f"/api/tables/{tid} {{}} 403" in line
                   for line in seen[0] if line.startswith(f"/api/tables/{tid} "))
        for api in apis:
            _play(api, made[0][0], tokens)
        seen = [_outside(s, api, tid) for s, api in zip((first, second), apis, strict=True)]
        assert seen[0] == seen[1]
        board = _board(apis[0])
        assert (board["finished"], board["solved"], board["deal"]) == (1, 0, None)
        assert set(board["entries"][0]) == {"rank", "solved", "actions", "seconds", "players"}
        # the players themselves see every card once their game is over: the deals differ
        views = [api.state(tid, tokens[0])["view"] for api in apis]
        assert views[0] != views[1]

        clock.write_text(repr(NEXT_DAY))  # the day is over
        boards = [_board(api, day=DAY) for api in apis]
        for board in boards:
            assert board["ended"] and board["deal"]
            assert board["entries"][0]["line"] == list(SCRIPT)
            assert board["entries"][0]["replay"] == f"/replay/{tid}"
        assert boards[0]["deal"] != boards[1]["deal"]
        watched = apis[0].state(tid)  # anyone may watch now
        assert watched["outcome"] is not None
        assert apis[0].http.get(f"/api/tables/{tid}/replay").status_code == 200
        assert _board(apis[0])["day"] == "2030-01-02"
    finally:
        clock.write_text(repr(NOON))
        for api in apis:
            api.http.close()


def test_leaderboard_ranks_and_refuses_known_deals(
        twins: tuple[Server, Server, Path]) -> None:
    """Solved first, then fewest actions; one entry per table; a table whose deal was
    known (a seed) is never ranked, even when it is filed under the day."""
    server, _, clock = twins
    clock.write_text(repr(NOON))
    api = server.client()
    try:
        before = _board(api, "nothing-to-hide")
        bots = ["bot:quatrefoil"] * 4
        r = api.http.post("/api/daily/quatrefoil/nothing-to-hide", json={"seats": bots})
        assert r.status_code == 422 and "at least one person" in r.json()["error"]
        _solve(api, _daily(api, "nothing-to-hide", ["human", *bots[1:]]))
        quick, tokens = _people(server, "nothing-to-hide", 2)
        _play(api, quick, tokens, ("stack",))
        slow, tokens = _people(server, "nothing-to-hide", 3)
        _play(api, slow, tokens)
        known = api.create(game="quatrefoil", variant="nothing-to-hide", seed=7, seats=bots)
        wait_until(lambda: api.state(known["id"])["outcome"] is not None, 60,
                   "the known-deal table to finish")
        database = server.data / "fourfold.sqlite3"
        with sqlite3.connect(database) as db:  # filed under the day, as if daily
            db.execute("INSERT INTO daily_tables VALUES (?, ?, 'quatrefoil',"
                       " 'nothing-to-hide')", (known["id"], DAY))
        board = _board(api, "nothing-to-hide")
        assert board["tables"] == before["tables"] + 3
        assert board["finished"] == before["finished"] + 3
        entries = board["entries"]
        assert [e["rank"] for e in entries] == list(range(1, len(entries) + 1))
        keys = [(not e["solved"], e["actions"], e["seconds"]) for e in entries]
        assert keys == sorted(keys)
        assert entries[0]["solved"] and entries[0]["players"][1:] == ["quatrefoil"] * 3
        assert [e["actions"] for e in entries if not e["solved"]][-2:] == [1, 3]
        # refusals, one line each
        assert api.http.post("/api/daily/quatrefoil/nothing-to-hide", json={
            "seats": HUMANS, "seed": 7}).status_code == 422
        r = api.http.post("/api/daily/folio/base", json={"seats": HUMANS})
        assert r.status_code == 404 and "no daily deal" in r.json()["error"]
        r = api.http.get("/api/daily/quatrefoil/base", params={"day": "2030-01-02"})
        assert r.status_code == 404 and "has not begun" in r.json()["error"]
        r = api.http.get("/api/daily/quatrefoil/base", params={"day": "01/01/2030"})
        assert r.status_code == 422 and "YYYY-MM-DD" in r.json()["error"]
        r = api.http.post("/api/daily/quatrefoil/base", json={"seats": ["human"]})
        assert r.status_code == 422 and "4 seats" in r.json()["error"]
        # the page offers only bots that play the deal; another is refused in one line
        offered = api.http.get("/api/daily").json()["deals"][0]["bots"]
        assert offered[0] == "quatrefoil" and "level5" in offered
        assert not {"greedy", "alphabeta", "mcts", "perfect", "freeform"} & set(offered)
        r = api.http.post("/api/daily/quatrefoil/base", json={
            "seats": ["human", "bot:greedy", "bot:quatrefoil", "bot:quatrefoil"]})
        assert r.status_code == 422 and "greedy" in r.json()["error"], r.text
        assert "\n" not in r.json()["error"]
    finally:
        api.http.close()


def test_the_same_deal_on_every_instance(tmp_path: Path, postgres: Postgres,
                                         redis: Redis) -> None:
    """Two instances on one PostgreSQL: the secret is made once (both ask at the same
    moment), and a daily table made on either is dealt the same cards; the next day's
    deal is another."""
    clock = _clock(tmp_path, NOON)
    with instances(tmp_path, postgres.new_database(), redis.url, 2,
                   extra=("--test-clock", str(clock))) as servers:
        apis = [s.client() for s in servers]
        try:
            made: list[dict[str, Any]] = [{}, {}]

            tokens: list[dict[int, str]] = [{}, {}]

            def make(n: int) -> None:
                made[n], tokens[n] = _people(servers[n], "base", 4 + n)

            threads = [threading.Thread(target=make, args=(n,)) for n in range(2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
            views = []
            for n, api in enumerate(apis):
                _play(api, made[n], tokens[n], ("stack",))
                views.append(api.state(made[n]["id"], tokens[n][0])["view"])
            assert views[0] == views[1]
            # the other instance serves the table too, to its seat
            assert apis[1].state(made[0]["id"], tokens_of(made[0])[0])["view"] == views[0]
            clock.write_text(repr(NEXT_DAY))
            tomorrow, later = _people(servers[1], "base", 6)
            _play(apis[1], tomorrow, later, ("stack",))
            assert apis[1].state(tomorrow["id"], later[0])["view"] != views[0]
            board = _board(apis[0], day=DAY)
            assert board["ended"] and board["finished"] == 2
            assert {e["table"] for e in board["entries"]} == {m["id"] for m in made}
        finally:
            for api in apis:
                api.http.close()


def test_a_sealed_table_refuses_spectators_everywhere(
        twins: tuple[Server, Server, Path]) -> None:
    """The WebSocket and the analysis refuse a spectator at a daily table during its
    day, with the one-line reason; the table's own seats are served, without hints."""
    server, _, clock = twins
    clock.write_text(repr(NOON))
    api = server.client()
    try:
        made = _daily(api, "half-and-half")
        tid, token = made["id"], tokens_of(made)[0]
        spectator = Live(server, tid, None)
        try:
            refusal = spectator.next()
        finally:
            spectator.close()
        assert refusal["status"] == 403 and "daily deal" in refusal["error"]
        seat = Live(server, tid, token)
        try:
            assert seat.next()["type"] != "refused"
        finally:
            seat.close()
        assert api.http.get(f"/api/tables/{tid}", headers=auth(token)).status_code == 200
        r = api.http.get(f"/api/tables/{tid}/analysis")
        assert r.status_code == 403 and "\n" not in r.json()["error"]
        # a person with three bots gets no hints here (a race), and the page is told so
        alone = _daily(api, "half-and-half", ["human"] + ["bot:quatrefoil"] * 3)
        token = tokens_of(alone)[0]
        r = api.http.get(f"/api/tables/{alone['id']}/hint", headers=auth(token))
        assert r.status_code == 403 and "no hints" in r.json()["error"]
        screen = api.http.get(f"/api/tables/{alone['id']}/screen", headers=auth(token)).json()
        assert screen["hints"] is False
        ordinary = api.create(game="quatrefoil", variant="half-and-half",
                              seats=["human"] + ["bot:quatrefoil"] * 3)
        screen = api.http.get(f"/api/tables/{ordinary['id']}/screen",
                              headers=auth(tokens_of(ordinary)[0])).json()
        assert screen["hints"] is True
    finally:
        api.http.close()


def test_the_days_seed_needs_the_secret(tmp_path: Path) -> None:
    """The seed is keyed by secret, day and variant: change any one and the deal
    changes; the clock file moves "now", and a missing or empty file is the real time."""
    import time

    from fourfold.server.daily.clock import DailyClock, day_end, day_of
    from fourfold.server.daily.deal import daily_game, daily_kind, deal_seed

    base, dual = daily_kind("quatrefoil", "base"), daily_kind("quatrefoil", "dual")
    secret = bytes(range(32))
    seed = deal_seed(secret, base, DAY)
    assert seed == deal_seed(bytes(range(32)), base, DAY)
    others = {deal_seed(secret, base, "2030-01-02"), deal_seed(secret, dual, DAY),
              deal_seed(bytes(32), base, DAY)}
    assert seed not in others and len(others) == 3
    game = daily_game(base)
    assert game.format_position(game.initial_state(seed)) != game.format_position(
        game.initial_state(deal_seed(bytes(32), base, DAY)))

    path = tmp_path / "now"
    clock = DailyClock(path)
    assert abs(clock.now() - time.time()) < 60  # no file: the real time
    path.write_text("")
    assert abs(clock.now() - time.time()) < 60
    path.write_text(repr(NOON))
    assert (clock.today(), clock.ended(DAY)) == (DAY, False)
    path.write_text(repr(day_end(DAY)))
    assert (clock.today(), clock.ended(DAY)) == ("2030-01-02", True)
    assert day_of(day_end(DAY) - 0.001) == DAY


def test_one_client_cannot_hold_every_seat(twins: tuple[Server, Server, Path]) -> None:
    """A daily table has at most one ``human`` seat (its creator's own link): four, or
    two, are refused in one line, so one client cannot hold the whole deal's cards."""
    server, _, clock = twins
    clock.write_text(repr(NOON))
    api = server.client()
    try:
        for seats in (HUMANS, ["human", "human", "bot:quatrefoil", "open"]):
            r = api.http.post("/api/daily/quatrefoil/dual", json={"seats": seats})
            assert r.status_code == 422, r.text
            error = r.json()["error"]
            assert "at most one 'human' seat" in error and "\n" not in error
        assert _board(api, "dual")["tables"] == 0
    finally:
        api.http.close()


def _standing(api: Api, tid: str, token: str | None) -> httpx.Response:
    return api.http.get(f"/api/tables/{tid}/daily", headers=auth(token))


def test_a_table_counts_only_from_its_own_addresses_and_first(
        twins: tuple[Server, Server, Path]) -> None:
    """A daily table is ranked only if its person seats were taken from different
    addresses, and only the first finish from an address counts (ranked or not): a
    later table with any of its addresses is played but unranked, and its players are
    told why, in words that say nothing of the cards."""
    server, _, clock = twins
    clock.write_text(repr(NOON))
    api = server.client()
    try:
        before = _board(api, "half-and-half")
        # one address takes two seats: played, never ranked
        shared, shared_tokens = _people(server, "half-and-half", (
            "127.10.0.1", "127.10.0.2", "127.10.0.2", "127.10.0.3"))
        playing = _standing(api, shared["id"], shared_tokens[0]).json()
        assert playing == {"game": "quatrefoil", "variant": "half-and-half", "day": DAY,
                           "ranked": False, "rank": None,
                           "reason": "the game is not over yet"}
        _play(api, shared, shared_tokens, ("stack",))
        # four addresses of their own: ranked
        fair, fair_tokens = _people(server, "half-and-half", 11)
        _play(api, fair, fair_tokens, ("stack",))
        # later tables with an address that finished already (a ranked table's creator;
        # a seat of the unranked one): played to the end, unranked
        again, again_tokens = _people(server, "half-and-half", (
            "127.11.0.1", "127.12.0.2", "127.12.0.3", "127.12.0.4"))
        _play(api, again, again_tokens, SCRIPT)
        seen, seen_tokens = _people(server, "half-and-half", (
            "127.13.0.1", "127.13.0.2", "127.13.0.3", "127.10.0.3"))
        _play(api, seen, seen_tokens, ("stack",))

        board = _board(api, "half-and-half")
        assert board["finished"] == before["finished"] + 1
        assert board["unranked"] == before["unranked"] + 3
        assert board["tables"] == before["tables"] + 4
        assert _standing(api, fair["id"], fair_tokens[3]).json()["ranked"] is True
        for made, tokens, why in (
                (shared, shared_tokens, "taken from the same address"),
                (again, again_tokens, "only the first finish from an address counts"),
                (seen, seen_tokens, "only the first finish from an address counts")):
            for token in tokens.values():  # every player is told, the same words
                told = _standing(api, made["id"], token).json()
                assert told["ranked"] is False and told["rank"] is None
                assert why in told["reason"] and "\n" not in told["reason"]
        # only the table's players may ask; a table of no daily deal has no standing
        r = _standing(api, fair["id"], None)
        assert r.status_code == 403 and "daily deal" in r.json()["error"]
        ordinary = api.create(game="quatrefoil", variant="half-and-half",
                              seats=["human"] + ["bot:quatrefoil"] * 3)
        r = _standing(api, ordinary["id"], tokens_of(ordinary)[0])
        assert r.status_code == 404 and "not dealt a daily deal" in r.json()["error"]
    finally:
        api.http.close()
