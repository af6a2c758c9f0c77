"""Tables as an attacker makes them: one client address may not fill the server or the
lobby with tables, by any route that makes one (create, import, rematch, daily deal),
nor dodge the caps by forging ``X-Forwarded-For``, nor by walking through IPv6
addresses it holds. Real servers on loopback; clients bind 127.0.0.2 and 127.0.0.3.
Every loop is bounded in count."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fourfold.server.limits import address_key
from support.server import Server, client_from, resign, running, tokens_of

PEOPLE = {"game": "folio", "seats": ["human", "human"], "private": True}
OPEN = {"game": "folio", "seats": ["human", "open"]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("attack-tables"), extra=(
            "--max-tables-per-address", "3", "--max-lobby-tables-per-address", "2",
            "--tables-per-minute", "1000", "--refusal-hold", "0",
            "--trusted-proxy", "127.0.0.1")) as s:
        yield s


def _refused(r: httpx.Response, words: str) -> None:
    assert r.status_code == 429, r.text
    body = r.json()
    assert body["type"] == "refused" and words in body["error"], body
    assert int(r.headers["retry-after"]) >= 1


def _record(http: httpx.Client, created: dict[str, Any]) -> str:
    r = http.get(f"/api/tables/{created['id']}/record",
                 headers={"Authorization": f"Bearer {tokens_of(created)[0]}"})
    assert r.status_code == 200, r.text
    return r.text


def test_tables_of_people_are_capped_on_every_route(server: Server) -> None:
    with client_from("127.0.0.2", server.url) as http, \
            client_from("127.0.0.3", server.url) as other:
        made = []
        for n in range(3):  # a forged X-Forwarded-For from an untrusted address: ignored
            r = http.post("/api/tables", json=PEOPLE,
                          headers={"X-Forwarded-For": f"198.51.100.{n + 1}"})
            assert r.status_code == 201, r.text
            made.append(r.json())
        for forged in (None, "198.51.100.77", "127.0.0.3"):
            headers = {"X-Forwarded-For": forged} if forged else {}
            _refused(http.post("/api/tables", json=PEOPLE, headers=headers),
                     "unfinished games between people")
        record = _record(http, made[0])
        _refused(http.post("/api/import", content=record,
                           headers={"content-type": "text/plain"}),
                 "unfinished games between people")
        daily = http.get("/api/daily").json()["deals"]
        deal = daily[0]
        _refused(http.post(f"/api/daily/{deal['game']}/{deal['variant']}",
                           json={"seats": _seats_of(deal), "private": True}),
                 "unfinished games between people")
        # another address has slots of its own
        assert other.post("/api/tables", json=PEOPLE).status_code == 201
        # a game that ends gives its slot back; its rematch takes it again
        first = made[0]
        assert resign(http, first["id"], tokens_of(first)[0]).status_code == 200
        rematch = http.post(f"/api/tables/{first['id']}/rematch",
                            headers={"Authorization": f"Bearer {tokens_of(first)[1]}"})
        assert rematch.status_code == 201, rematch.text
        _refused(http.post("/api/tables", json=PEOPLE), "unfinished games between people")
        # the rematch of another finished game is refused while the address is full
        assert resign(http, made[1]["id"], tokens_of(made[1])[0]).status_code == 200
        assert http.post("/api/tables", json=PEOPLE).status_code == 201  # the freed slot
        finished = made[1]
        _refused(http.post(f"/api/tables/{finished['id']}/rematch",
                           headers={"Authorization": f"Bearer {tokens_of(finished)[1]}"}),
                 "unfinished games between people")


def _seats_of(deal: dict[str, Any]) -> list[str]:
    from fourfold.core.registry import load

    # a daily table has at most one 'human' seat (docs/daily.md): the rest are open
    return ["human"] + ["open"] * (load(deal["game"], deal["variant"]).num_players - 1)


def test_a_trusted_proxy_names_the_address_the_caps_count(server: Server) -> None:
    # 127.0.0.1 is the trusted proxy here: the clients it names are counted apart
    with client_from("127.0.0.1", server.url) as proxy:
        for client in ("203.0.113.5", "203.0.113.6"):
            codes = [proxy.post("/api/tables", json=PEOPLE,
                                headers={"X-Forwarded-For": client}).status_code
                     for _ in range(4)]
            assert codes == [201, 201, 201, 429], (client, codes)


def test_the_lobby_holds_few_tables_per_address(server: Server) -> None:
    with client_from("127.0.0.5", server.url) as http:
        public = [http.post("/api/tables", json=OPEN) for _ in range(2)]
        assert [r.status_code for r in public] == [201, 201], [r.text for r in public]
        _refused(http.post("/api/tables", json=OPEN), "tables in the lobby")
        # a public table of two people is a row of the lobby too
        _refused(http.post("/api/tables", json={**PEOPLE, "private": False}),
                 "tables in the lobby")
        # a private table (a link to share) is not in the lobby
        private = http.post("/api/tables", json={**OPEN, "private": True})
        assert private.status_code == 201, private.text
        ids = {r.json()["id"] for r in public}
        listed = {row["id"] for row in http.get("/api/lobby").json()["tables"]}
        assert ids <= listed and private.json()["id"] not in listed
        # a game against a bot has its own cap: the lobby's being full never stops it
        against_bot = http.post("/api/tables", json={"game": "folio",
                                                     "seats": ["human", "bot:random"]})
        assert against_bot.status_code == 201, against_bot.text


def test_new_tables_are_rate_limited_per_address(tmp_path: Path) -> None:
    # made and resigned at once, a table holds no slot: the rate still bounds them
    # two at once, then one each 30 s: the few requests below fit in that easily
    with running(tmp_path, extra=("--tables-per-minute", "2", "--refusal-hold", "0",
                                  "--max-tables-per-address", "100")) as server, \
            client_from("127.0.0.2", server.url) as http:
        codes = []
        for _ in range(3):
            r = http.post("/api/tables", json=PEOPLE)
            codes.append(r.status_code)
            if r.status_code == 201:
                made = r.json()
                assert resign(http, made["id"], tokens_of(made)[0]).status_code == 200
        assert codes == [201, 201, 429], codes
        _refused(http.post("/api/tables", json=PEOPLE), "too many new tables")
        with client_from("127.0.0.3", server.url) as other:
            assert other.post("/api/tables", json=PEOPLE).status_code == 201


@pytest.mark.parametrize(("one", "two"), [
    ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe"),  # one /64
    ("2002:c000:0204::1", "2002:c000:0204:ffff::1"),  # 6to4: one IPv4 holds a /48
    ("2002:c000:0204::1", "192.0.2.4"),
    ("::ffff:192.0.2.4", "192.0.2.4"),  # IPv4-mapped
    # Teredo: by the client's own IPv4 (and any port), not the relay's /64
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:0:4136:e378:8000:1234:3fff:fdd2"),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45"),
    ("fe80::1%eth0", "fe80::2"),
])
def test_addresses_one_client_holds_count_as_one(one: str, two: str) -> None:
    assert address_key(one) == address_key(two)


@pytest.mark.parametrize(("one", "two"), [
    ("2001:db8:1:2::1", "2001:db8:1:3::1"),
    ("2002:c000:0204::1", "2002:c000:0205::1"),
    ("192.0.2.4", "192.0.2.5"),
])
def test_different_clients_count_apart(one: str, two: str) -> None:
    assert address_key(one) != address_key(two)


def test_seats_taken_count_like_tables_made(server: Server) -> None:
    # one address may not sit at every open table and stall them all
    private_open = {**OPEN, "private": True}
    with client_from("127.0.0.7", server.url) as maker, \
            client_from("127.0.0.8", server.url) as another, \
            client_from("127.0.0.6", server.url) as sitter:
        tables = [maker.post("/api/tables", json=private_open).json() for _ in range(3)]
        tables.append(another.post("/api/tables", json=private_open).json())
        joined = [sitter.post(f"/api/tables/{t['id']}/join", json={}) for t in tables]
        assert [r.status_code for r in joined[:3]] == [201, 201, 201], joined[0].text
        _refused(joined[3], "unfinished games between people")
        # a game that ends gives the seat's slot back
        first = joined[0].json()
        assert resign(sitter, tables[0]["id"], first["token"]).status_code == 200
        assert sitter.post(f"/api/tables/{tables[3]['id']}/join", json={}).status_code == 201


def _long_dao_record(plies: int) -> str:
    """A legal Dao record of ``plies`` moves that never ends (random moves, each one
    chosen among those that do not end the game)."""
    import random

    from fourfold.core.match import Match
    from fourfold.core.record import format_record
    from fourfold.core.registry import load

    game = load("dao", None, max_plies="none")
    match = Match(game, game.initial_state(1), ["a", "b"])
    rng = random.Random(3)
    for _ in range(plies):
        legal = list(game.legal_moves(match.state))
        rng.shuffle(legal)
        match.play(next(m for m in legal if game.outcome(game.apply(match.state, m)) is None))
    return format_record(match.referee_record())


def test_a_long_record_is_refused_before_it_is_replayed(server: Server) -> None:
    from fourfold.server.api import MAX_IMPORT_PLIES

    with client_from("127.0.0.9", server.url) as http:
        r = http.post("/api/import", content=_long_dao_record(MAX_IMPORT_PLIES + 1),
                      headers={"content-type": "text/plain"})
        assert r.status_code == 422, r.text
        assert r.json()["error"] == (f"the record has {MAX_IMPORT_PLIES + 1} moves; at most"
                                     f" {MAX_IMPORT_PLIES} can be imported here")
        r = http.post("/api/import", content=_long_dao_record(MAX_IMPORT_PLIES),
                      headers={"content-type": "text/plain"})
        assert r.status_code == 201, r.text
