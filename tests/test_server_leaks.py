"""No leak over the network: for Quatrefoil in every mode, two tables dealt twin deals
(differing only in cards seat 1 may not see) send seat 1 and a spectator byte-identical
WebSocket streams and GET answers.

Two servers started with the same test seed hand out the same table ids and tokens,
so the answers are equal by construction; only the running clocks of the timed modes
are left out of the comparison (they depend on when the test's messages arrive).

Every route is covered by construction: the routes are read from the app itself
(``app.routes``) and the WebSocket messages from the wire's client message parser
(``FIELDS``); each must be classified in ``ROUTES`` / ``MESSAGES`` with the calls that
exercise it as a seat and as a spectator (successes and refusals alike), and every
one of those calls goes through the twin-deal comparison. A new route or message type
fails ``test_every_route_and_message_is_classified`` by name until it is added there.
"""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import fourfold
from fourfold.table import ManualClock, Seat, Table, TableError
from fourfold.wire import view_to_json
from fourfold.wire.messages import FIELDS
from support.leak_harness import deal_index, knowable_deals, twin_state
from support.server import Api, Live, Server, auth, stop_all

MODES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("base", "base", {}),
    ("nothing-to-hide", "nothing-to-hide", {}),
    ("half-and-half/colour", "half-and-half", {"face-up": "colour"}),
    ("half-and-half/position", "half-and-half", {"face-up": "position"}),
    ("race-the-clock", "race-the-clock", {}),
    ("dual", "dual", {"clock": False}),
    ("dual/clock", "dual", {"clock": True}),
)
STEPS = 6
RECIPIENTS = (0, None)


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    pair = [Server(tmp_path_factory.mktemp(f"twin{i}"), extra=("--test-seed", "77"))
            for i in range(2)]
    try:
        for server in pair:
            server.start()
        yield pair[0], pair[1]
    finally:
        stop_all(pair)


def _script(game: Any, start: Any, seed: int) -> list[tuple[int, str, int]]:
    table = Table(game, [Seat.human(f"P{p}") for p in range(4)], start=start,
                  clock=ManualClock(), inline_bots=True)
    rng = random.Random(seed)
    steps = []
    for k in range(STEPS):
        actors = table.actors()
        if not actors:
            break
        seat = actors[k % len(actors)]
        legal = table.legal_moves(seat)
        move = rng.choice(legal)
        steps.append((seat, move, table.version))
        table.play(seat, move, table.version)
    return steps


def _local(game: Any, start: Any, script: list[tuple[int, str, int]]) -> list[str]:
    table = Table(game, [Seat.human(f"P{p}") for p in range(4)], start=start,
                  clock=ManualClock(), inline_bots=True)
    seen = []
    for seat, move, version in script:
        try:
            table.play(seat, move, version)
            seen.append("ok")
        except TableError as error:
            seen.append(error.reason)
        for r in RECIPIENTS:
            seen.append(json.dumps(view_to_json(game, table.view(r)), sort_keys=True))
    return seen


def _twin(game: Any, start: Any, script: list[tuple[int, str, int]]) -> Any:
    table = Table(game, [Seat.human(f"P{p}") for p in range(4)], start=start,
                  clock=ManualClock(), inline_bots=True)
    observations = [table.view(0).observation]
    for seat, move, version in script:
        table.play(seat, move, version)
        observations.append(table.view(0).observation)
    want = _local(game, start, script)
    truth = deal_index(start.deal)
    for d in knowable_deals(game, start.deal, 0, observations):
        if d == truth:
            continue
        twin = twin_state(start, d)
        if _local(game, twin, script) == want:
            return twin
    return None


def _unclocked(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _unclocked(v) for k, v in value.items() if k != "clocks"}
    if isinstance(value, list):
        return [_unclocked(v) for v in value]
    return value


def _clean(text: str, timed: bool) -> str:
    value = json.loads(text)
    return json.dumps(_unclocked(value) if timed else value, sort_keys=True)


def _run(server: Server, game: Any, variant: str, options: dict[str, Any], start: Any,
         script: list[tuple[int, str, int]], timed: bool) -> list[str]:
    api: Api = server.client()
    created = api.create(game="quatrefoil", variant=variant, options=options,
                         setup=game.format_position(start), seats=["human"] * 4)
    tid = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    sockets = {r: Live(server, tid, None if r is None else tokens[r]) for r in RECIPIENTS}
    # a page's sockets: the same events, each with the page's screen (picture, choices)
    pages = {r: Live(server, tid, None if r is None else tokens[r], screen=True)
             for r in RECIPIENTS}
    out = [json.dumps(created, sort_keys=True)]
    try:
        for r, live in [*sockets.items(), *((f"page{r}", p) for r, p in pages.items())]:
            out.append(f"{r}:" + _clean(json.dumps(live.next()), timed))   # welcome
            out.append(f"{r}:" + _clean(json.dumps(live.next()), timed))   # start
        for seat, move, version in script:
            reply = api.move(tid, tokens[seat], move, version)
            if seat == 0:
                out.append(f"reply:{reply.status_code}:" + _clean(reply.text, timed))
            for r, page in pages.items():
                out.append(f"page{r}:" + _clean(json.dumps(page.next()), timed))
            for r, live in sockets.items():
                event = live.next()
                out.append(f"{r}:" + _clean(json.dumps(event), timed))
                state = api.http.get(f"/api/tables/{tid}", headers=auth(
                    None if r is None else tokens[r]))
                out.append(f"get{r}:" + _clean(state.text, timed))
                record = api.http.get(f"/api/tables/{tid}/record", headers=auth(
                    None if r is None else tokens[r]))
                out.append(f"record{r}:" + record.text)
        for r in RECIPIENTS:  # every route and message, as a seat and as a spectator
            token = None if r is None else tokens[r]
            out.extend(f"{r}:{line}" for line in _every_route(api.http, tid, token, timed))
            out.extend(f"{r}:{line}" for line in _every_message(sockets[r], timed))
            out.extend(f"page{r}:{line}" for line in _every_message(pages[r], timed,
                                                                    PAGE_MESSAGES))
    finally:
        for live in [*sockets.values(), *pages.values()]:
            live.close()
        api.http.close()
    return out


# -- every route, by construction ------------------------------------------------------------

Call = Callable[[httpx.Client, str, "str | None"], list[httpx.Response]]


def _get(path: str, **params: Any) -> Call:
    def call(http: httpx.Client, tid: str, token: str | None) -> list[httpx.Response]:
        return [http.get(path.format(tid=tid), params=params, headers=auth(token))]
    return call


def _post(path: str, body: Any = None, **options: Any) -> Call:
    def call(http: httpx.Client, tid: str, token: str | None) -> list[httpx.Response]:
        if body is None and not options:
            return [http.post(path.format(tid=tid), headers=auth(token))]
        data = body(http, tid, token) if callable(body) else body
        return [http.post(path.format(tid=tid), json=data, headers=auth(token), **options)]
    return call


def _version(http: httpx.Client, tid: str, token: str | None) -> int:
    version: int = http.get(f"/api/tables/{tid}", headers=auth(token)).json()["version"]
    return version


def _both(*calls: Call) -> Call:
    def call(http: httpx.Client, tid: str, token: str | None) -> list[httpx.Response]:
        return [r for c in calls for r in c(http, tid, token)]
    return call


def _import_own_record(http: httpx.Client, tid: str, token: str | None
                       ) -> list[httpx.Response]:
    """Import the record this recipient may download (its view: refused, and saying why
    from that view only)."""
    record = http.get(f"/api/tables/{tid}/record", headers=auth(token)).text
    return [http.post("/api/import", content=record, headers={"Content-Type": "text/plain"})]


#: (method, path) -> the calls a seat or spectator makes to it during the comparison
ROUTES: dict[tuple[str, str], Call] = {
    ("GET", "/api/health"): _get("/api/health"),
    ("GET", "/api/warm-up"): _get("/api/warm-up"),
    ("GET", "/api/tables/{table_id}/chat"): _get("/api/tables/{tid}/chat"),
    ("GET", "/api/games"): _get("/api/games"),
    ("POST", "/api/tables"): _post("/api/tables", {"game": "quatrefoil", "seats": []}),
    ("GET", "/api/lobby"): _get("/api/lobby"),
    ("GET", "/api/tables/{table_id}"): _both(_get("/api/tables/{tid}"),
                                             _get("/api/tables/nosuchtable1")),
    ("POST", "/api/tables/{table_id}/moves"): _post(
        "/api/tables/{tid}/moves", lambda h, t, k: {"move": "stack stack",
                                                    "version": _version(h, t, k)}),
    ("POST", "/api/tables/{table_id}/resign"): _post(
        "/api/tables/{tid}/resign", lambda h, t, k: {"version": _version(h, t, k) + 1}),
    ("POST", "/api/tables/{table_id}/offer"): _both(*(_post(
        "/api/tables/{tid}/offer", lambda h, t, k, o=offer: {
            "offer": o, "version": _version(h, t, k)}) for offer in ("draw", "undo"))),
    ("POST", "/api/tables/{table_id}/answer"): _post("/api/tables/{tid}/answer",
                                                     {"accept": False}),
    ("POST", "/api/tables/{table_id}/join"): _post("/api/tables/{tid}/join", {}),
    ("POST", "/api/tables/{table_id}/rematch"): _post("/api/tables/{tid}/rematch"),
    ("GET", "/api/tables/{table_id}/record"): _both(
        _get("/api/tables/{tid}/record"), _get("/api/tables/{tid}/record", format="json")),
    ("GET", "/api/tables/{table_id}/svg"): _get("/api/tables/{tid}/svg"),
    ("GET", "/api/tables/{table_id}/analysis"): _get("/api/tables/{tid}/analysis"),
    ("GET", "/api/tables/{table_id}/review"): _get("/api/tables/{tid}/review"),
    ("GET", "/api/tables/{table_id}/review/picture"): _get(
        "/api/tables/{tid}/review/picture", ply=1, step=1),
    # the puzzles (server/puzzles): no table in them; a solver is a browser's random id
    ("GET", "/puzzles"): _get("/puzzles"),
    ("GET", "/puzzles/{puzzle_id}"): _get("/puzzles/daily"),
    ("GET", "/api/puzzles"): _get("/api/puzzles", solver="0" * 32),
    ("GET", "/api/puzzles/daily"): _get("/api/puzzles/daily"),
    ("GET", "/api/puzzles/rating"): _get("/api/puzzles/rating", solver="0" * 32),
    ("GET", "/api/puzzles/games"): _get("/api/puzzles/games"),
    ("GET", "/api/puzzles/{puzzle_id}"): _get("/api/puzzles/nosuchpuzzle"),
    ("POST", "/api/puzzles/{puzzle_id}/move"): _post(
        "/api/puzzles/nosuchpuzzle/move", {"solver": "0" * 32, "step": 0, "move": "x"}),
    ("POST", "/api/puzzles/{puzzle_id}/hint"): _post(
        "/api/puzzles/nosuchpuzzle/hint", {"solver": "0" * 32, "step": 0}),
    ("POST", "/api/puzzles/{puzzle_id}/solution"): _post(
        "/api/puzzles/nosuchpuzzle/solution", {"solver": "0" * 32, "step": 0}),
    # the explorer of solved games (server/explorer): no table, no hidden card in it
    ("GET", "/explore"): _get("/explore"),
    ("GET", "/explore/{game}"): _get("/explore/dao"),
    ("GET", "/api/explore"): _get("/api/explore"),
    ("GET", "/api/explore/{game}"): _get("/api/explore/quatrefoil"),
    ("POST", "/api/import"): _import_own_record,
    ("GET", "/api/tables/{table_id}/screen"): _get("/api/tables/{tid}/screen"),
    ("GET", "/api/tables/{table_id}/picture"): _both(
        _get("/api/tables/{tid}/picture"), _get("/api/tables/{tid}/picture", ply=0)),
    ("GET", "/api/tables/{table_id}/replay"): _get("/api/tables/{tid}/replay"),
    ("POST", "/api/tables/{table_id}/replay"): _post("/api/tables/{tid}/replay", {"ply": 0}),
    ("GET", "/api/tables/{table_id}/hint"): _get("/api/tables/{tid}/hint"),
    ("GET", "/api/games/{game}/rules"): _get("/api/games/quatrefoil/rules"),
    ("GET", "/api/games/{game}/picture"): _get("/api/games/quatrefoil/picture"),
    ("GET", "/"): _get("/"),
    ("GET", "/new"): _get("/new"),
    ("GET", "/t/{table_id}"): _get("/t/{tid}"),
    ("GET", "/replay/{table_id}"): _get("/replay/{tid}"),
    ("GET", "/rules"): _get("/rules"),
    ("GET", "/rules/{game}"): _get("/rules/quatrefoil"),
    ("GET", "/favicon.ico"): _get("/favicon.ico"),
    ("GET", "/ui/{name}"): _both(_get("/ui/table.js"), _get("/ui/nosuch.js")),
    ("GET", "/ui/{build}/{name}"): _both(_get("/ui/x/table.js"), _get("/ui/x/nosuch.js")),
    ("GET", "/ui/{build}/pkg/{path:path}"): _both(
        _get("/ui/x/pkg/fourfold/games/quatrefoil/browser.js"),
        _get("/ui/x/pkg/fourfold/games/quatrefoil/game.py")),
    ("GET", "/openapi.json"): _get("/openapi.json"),
    ("GET", "/docs"): _get("/docs"),
    ("GET", "/docs/oauth2-redirect"): _get("/docs/oauth2-redirect"),
    ("GET", "/redoc"): _get("/redoc"),
    # the daily deal (server/daily): today's deals, a board, a table dealt one, its page
    ("GET", "/api/daily"): _get("/api/daily"),
    ("GET", "/api/daily/{game}/{variant}"): _both(
        _get("/api/daily/quatrefoil/base"), _get("/api/daily/quatrefoil/nosuch")),
    ("POST", "/api/daily/{game}/{variant}"): _post(
        "/api/daily/quatrefoil/base", {"seats": ["human", "open", "open", "open"],
                                       "private": True}),
    ("GET", "/api/tables/{table_id}/daily"): _get("/api/tables/{tid}/daily"),
    ("GET", "/daily"): _get("/daily"),
    # the WebSocket: its messages are ``MESSAGES`` below, sent on every recipient's socket
    ("WS", "/api/tables/{table_id}/live"): lambda http, tid, token: [
        http.get("/api/nosuch/route", headers=auth(token))],  # and an unknown route
}

#: WebSocket message type -> what a seat or spectator sends (``{v}``: the table's version)
MESSAGES: dict[str, str] = {
    "move": '{{"type": "move", "move": "stack stack", "version": {v}}}',
    "resign": '{{"type": "resign", "version": {future}}}',
    "offer": '{{"type": "offer", "offer": "draw", "version": {v}}}',
    "answer": '{{"type": "answer", "accept": false}}',
    "ping": '{{"type": "ping"}}',
    "chat": '{{"type": "chat", "text": "my card is NW"}}',
}
#: what a page's socket sends besides: a move as its action number with the notation
#: alongside (here naming different moves: refused, saying which move the action is)
PAGE_MESSAGES: dict[str, str] = {
    **MESSAGES,
    "move": '{{"type": "move", "move": "cw", "action": 0, "version": {v}}}',
}
#: answers that end the exchange of one message
REPLIES = ("ack", "refused", "pong")
#: values that depend on when the test's requests arrive, not on the table
TIMES = ("clocks", "updated_at")


def app_routes() -> set[tuple[str, str]]:
    """Every (method, path) the app serves, read from the app itself: its routes, the
    routes of every router included in it, mounts, and WebSocket routes (``WS``)."""
    from starlette.routing import Mount, WebSocketRoute

    from fourfold.server.app import create_app
    from fourfold.server.settings import Settings

    folder = Path(tempfile.mkdtemp(prefix="fourfold-routes-"))
    try:
        app = create_app(Settings(database=f"sqlite:///{folder / 'routes.db'}"))
        found: set[tuple[str, str]] = set()

        def add(path: str, methods: Any) -> None:
            names = set(methods or ())
            if "GET" in names:
                names.discard("HEAD")  # HEAD comes with GET
            found.update((m, path) for m in names)

        def walk(routes: Any) -> None:
            for route in routes:
                contexts = getattr(route, "effective_route_contexts", None)
                if callable(contexts):  # FastAPI's included routers
                    for context in contexts():
                        add(context.path, context.methods)
                elif isinstance(route, Mount):
                    found.add(("MOUNT", route.path))
                elif isinstance(route, WebSocketRoute) or type(route).__name__ == \
                        "APIWebSocketRoute":
                    found.add(("WS", route.path))
                elif hasattr(route, "routes") and not hasattr(route, "methods"):
                    walk(route.routes)
                else:
                    add(route.path, getattr(route, "methods", None))

        walk(app.routes)
        engine = getattr(app.state, "engine", None)
        if engine is not None:
            engine.dispose()
        return found
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_every_route_and_message_is_classified() -> None:
    routes = app_routes()
    assert ("WS", "/api/tables/{table_id}/live") in routes and len(routes) > 20
    unclassified = sorted(routes - set(ROUTES))
    assert not unclassified, (
        f"routes not in the twin-deal comparison: {unclassified}; add each to ROUTES"
        " in tests/test_server_leaks.py with the calls a seat and a spectator make")
    gone = sorted(set(ROUTES) - routes)
    assert not gone, f"ROUTES names routes the app no longer has: {gone}"
    assert set(MESSAGES) == set(FIELDS), (
        f"WebSocket messages not in the comparison: {sorted(set(FIELDS) - set(MESSAGES))}")


def _answer(response: httpx.Response, timed: bool) -> str:
    kind = response.headers.get("content-type", "").split(";")[0]
    text = response.text
    if kind == "application/json":
        text = json.dumps(_untimed(json.loads(text), timed), sort_keys=True)
    return f"{response.request.method} {response.request.url.path}" \
           f"?{response.request.url.query.decode()} {response.status_code} {kind} {text}"


def _untimed(value: Any, timed: bool) -> Any:
    drop = TIMES if timed else TIMES[1:]
    if isinstance(value, dict):
        return {k: _untimed(v, timed) for k, v in value.items() if k not in drop}
    if isinstance(value, list):
        return [_untimed(v, timed) for v in value]
    return value


def _every_route(http: httpx.Client, tid: str, token: str | None, timed: bool) -> list[str]:
    return [_answer(response, timed) for key in sorted(ROUTES)
            for response in ROUTES[key](http, tid, token)]


def _every_message(live: Live, timed: bool, messages: dict[str, str] = MESSAGES
                   ) -> list[str]:
    out = []
    for kind in sorted(messages):
        version = live_version(live)
        before = len(live.seen)
        live.send(json.loads(messages[kind].format(v=version, future=version + 1)))
        live.until(lambda m: m.get("type") in REPLIES)
        out.extend(f"ws:{kind}:" + json.dumps(_untimed(json.loads(text), timed),
                                              sort_keys=True)
                   for text in live.seen[before:])
    return out


def live_version(live: Live) -> int:
    """The newest version this socket has heard of."""
    versions = [json.loads(t).get("version") for t in live.seen]
    return max((v for v in versions if isinstance(v, int)), default=0)


@pytest.mark.parametrize("label,variant,options", MODES, ids=[m[0] for m in MODES])
def test_twin_deals_send_the_same_bytes(servers: tuple[Server, Server], label: str,
                                        variant: str, options: dict[str, Any]) -> None:
    game = fourfold.load("quatrefoil", variant, **options)
    timed = game.shared_clock_seconds is not None
    twin = None
    for seed in range(40):
        start = game.initial_state(1000 + seed)
        whole = _script(game, start, seed)
        for length in range(len(whole), 0, -1):  # signals may give the deal away: shorter
            script = whole[:length]
            # nothing is hidden in "nothing to hide": the same deal twice (determinism)
            twin = start if label == "nothing-to-hide" else _twin(game, start, script)
            if twin is not None:
                break
        if twin is not None:
            break
    else:
        pytest.fail(f"{label}: no twin deal found")
    if label != "nothing-to-hide":
        assert game.format_position(twin) != game.format_position(start)
    a = _run(servers[0], game, variant, options, start, script, timed)
    b = _run(servers[1], game, variant, options, twin, script, timed)
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x == y
