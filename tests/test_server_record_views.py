"""A seat's downloaded record, from a real ``fourfold serve`` (issue 31): while the game
goes on it holds that seat's own cards and no other seat's (built from its view, never
the referee's state); a spectator's holds none; after the end everyone gets the full
record, which replays to the same end."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from fourfold.core.match import Match
from fourfold.core.record import parse_record
from support.server import Api, Server, auth, running

SEEN = re.compile(r"P(\d)=([^ @\]\"]+)@([^ \]\"]+)")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("serve")) as s:
        yield s


@pytest.fixture
def api(server: Server) -> Iterator[Api]:
    client = server.client()
    yield client
    client.http.close()


def cards(line: str) -> dict[int, tuple[str, str]]:
    """Seat (0-based) -> (colour card, position card) in a ``seen=`` field."""
    return {int(p) - 1: (colour, position) for p, colour, position in SEEN.findall(line)}


def tag(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"[{name} "))


def test_a_seat_record_holds_its_own_cards_and_no_other_seats(api: Api) -> None:
    created = api.create(game="quatrefoil", variant="base", seats=["human"] * 4, seed=9)
    tid = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    records = {}
    for seat in (None, 0, 1, 2, 3):
        r = api.http.get(f"/api/tables/{tid}/record", headers=auth(tokens.get(seat)))
        assert r.status_code == 200, r.text
        records[seat] = r.text
    spectator = records[None]
    assert "solution=" not in spectator and "north=?" in spectator
    for field in (tag(spectator, "Setup"), tag(spectator, "Seen")):
        assert set(cards(field).values()) == {("?", "?")}
    own: dict[int, tuple[str, str]] = {}
    for seat in range(4):
        text = records[seat]
        assert "solution=" not in text and "north=?" in text
        for field in (tag(text, "Setup"), tag(text, "Seen")):
            seen = cards(field)
            assert "?" not in seen[seat], (seat, field)  # its own two cards
            assert all(seen[s] == ("?", "?") for s in range(4) if s != seat), (seat, field)
        own[seat] = cards(tag(text, "Seen"))[seat]
        board = api.state(tid, tokens[seat])["view"]["board"]  # what the seat's page shows
        assert board["colour_cards"][seat] is not None
    assert len(set(own.values())) == 4  # four different seats, four different hands

    seat = api.state(tid)["to_act"][0]  # stack: the game ends for everyone
    mine = api.state(tid, tokens[seat])
    assert api.move(tid, tokens[seat], "stack", mine["version"]).status_code == 200
    full = {s: api.http.get(f"/api/tables/{tid}/record", headers=auth(tokens.get(s))).text
            for s in (None, 0, 1, 2, 3)}
    assert len(set(full.values())) == 1  # the one full record, for seats and spectators
    text = full[None]
    assert "solution=" in text and "Viewer" not in text
    replayed = Match.from_record(parse_record(text))
    assert replayed.outcome is not None
    dealt = re.search(r"cards=(\S+)", tag(text, "Setup"))
    assert dealt is not None
    positions = dealt.group(1).split(",")
    assert [own[seat][1] for seat in range(4)] == positions  # what each seat held
