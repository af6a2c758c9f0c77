"""No leak over the network: for Quatrefoil in every mode, two tables dealt twin deals
(differing only in cards seat 1 may not see) send seat 1 and a spectator byte-identical
WebSocket streams and GET answers.

Two servers started with the same test seed hand out the same table ids and tokens,
so the answers are equal by construction; only the running clocks of the timed modes
are left out of the comparison (they depend on when the test's messages arrive).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import fourfold
from fourfold.table import ManualClock, Seat, Table, TableError
from fourfold.wire import view_to_json
from leak_harness import deal_index, knowable_deals, twin_state
from server_support import Api, Live, Server, auth

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
        for server in pair:
            server.stop()


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
    out = [json.dumps(created, sort_keys=True)]
    try:
        for r, live in sockets.items():
            out.append(f"{r}:" + _clean(json.dumps(live.next()), timed))   # welcome
            out.append(f"{r}:" + _clean(json.dumps(live.next()), timed))   # start
        for seat, move, version in script:
            reply = api.move(tid, tokens[seat], move, version)
            if seat == 0:
                out.append(f"reply:{reply.status_code}:" + _clean(reply.text, timed))
            for r, live in sockets.items():
                event = live.next()
                out.append(f"{r}:" + _clean(json.dumps(event), timed))
                state = api.http.get(f"/api/tables/{tid}", headers=auth(
                    None if r is None else tokens[r]))
                out.append(f"get{r}:" + _clean(state.text, timed))
                record = api.http.get(f"/api/tables/{tid}/record", headers=auth(
                    None if r is None else tokens[r]))
                out.append(f"record{r}:" + record.text)
    finally:
        for live in sockets.values():
            live.close()
        api.http.close()
    return out


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
