"""Display names at a real server: a name that would turn the lobby's text around
(bidirectional overrides), hide itself (zero-width) or break a line is refused with a
one-line reason, at every route that takes a name; a blank name or one with a comma
is refused in the user's terms, not as a "bad game record" they never sent."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.server import Api, running


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    with running(tmp_path_factory.mktemp("serve")) as server:
        client = server.client()
        yield client
        client.http.close()


def _create(api: Api, name: str, first: str = "human") -> tuple[int, dict[str, object]]:
    r = api.http.post("/api/tables", json={
        "game": "dao", "private": True,
        "seats": [{"player": first, "name": name}, "bot:level1"]})
    return r.status_code, r.json()


@pytest.mark.parametrize(("name", "code"), [
    ("\u202eevil", "U+202E"),       # right-to-left override
    ("a\u2066b", "U+2066"),         # left-to-right isolate
    ("ok\u200bok", "U+200B"),       # zero-width space
    ("x\u2028y", "U+2028"),         # line separator
    ("del\x7f", "U+007F"),
    ("c1\x85", "U+0085"),
])
def test_hidden_characters_are_refused_when_a_table_is_made(api: Api, name: str,
                                                            code: str) -> None:
    status, body = _create(api, name)
    assert status == 422, body
    assert body["error"] == ("a display name may not hold control or direction characters"
                             f" ({code})")


def test_blank_and_comma_names_are_refused_in_plain_words(api: Api) -> None:
    status, body = _create(api, "   ")
    assert (status, body["error"]) == (422, "a display name may not be blank")
    status, body = _create(api, "Ann, Bob")
    assert status == 422
    assert body["error"] == "a display name may not hold a comma: 'Ann, Bob'"
    assert "record" not in body["error"]


def test_joining_an_open_seat_checks_the_name_too(api: Api) -> None:
    status, made = _create(api, "Ann", first="open")
    assert status == 201
    table = made["id"]
    r = api.http.post(f"/api/tables/{table}/join", json={"name": "\u202enaJ"})
    assert r.status_code == 422
    assert "U+202E" in r.json()["error"]
    assert api.state(str(table))["seats"][0]["kind"] == "open"  # nothing taken
    r = api.http.post(f"/api/tables/{table}/join", json={"name": " Jan "})
    assert r.status_code == 201
    assert api.state(str(table))["seats"][0]["name"] == "Jan"


def test_ordinary_names_still_pass(api: Api) -> None:
    for name in ("Ann", "Zoë", "李小龍", "Anne-Marie O'Neil", "עדי"):
        status, body = _create(api, name)
        assert status == 201, body
        assert api.state(str(body["id"]))["seats"][0]["name"] == name
