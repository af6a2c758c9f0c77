"""The wire format: round trips for every ruleset, and the client-message parser fuzzed."""

from __future__ import annotations

import importlib.util
import json
import random
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import fourfold
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game, View
from fourfold.core.match import Match
from fourfold.core.outcome import Outcome, Result
from fourfold.core.record import Record
from fourfold.table import Event, EventKind, ManualClock, Table
from fourfold.wire import (
    MAX_MESSAGE_BYTES,
    WIRE_VERSION,
    AnswerMessage,
    MoveMessage,
    OfferMessage,
    PingMessage,
    ResignMessage,
    WireError,
    apply_client_message,
    client_message_to_json,
    event_from_json,
    event_to_json,
    outcome_from_json,
    outcome_to_json,
    parse_client_message,
    record_from_json,
    record_to_json,
    round_clock,
    view_from_json,
    view_to_json,
)
from support.gamecases import case_id, playable_cases

EXTRA_RULESETS = [
    ("quatrefoil", "half-and-half", {"face_up": "position"}),
    ("quatrefoil", "dual", {"clock": True}),
    ("folio", "standard", {"line_rule": "same-colour-or-size"}),
]
GAMES: list[Game[Any, Any]] = [fourfold.load(n, v) for n, v in playable_cases()] + [
    fourfold.load(n, v, **o) for n, v, o in EXTRA_RULESETS]
IDS = [case_id((g.name, g.info.label().split("(")[1].rstrip(")"))) for g in GAMES]


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, allow_nan=False)


def random_states(game: Game[Any, Any], seed: int, games: int = 2,
                  plies: int = 60) -> list[Any]:
    rng = random.Random(seed)
    states = []
    for g in range(games):
        state = game.initial_state(seed=seed * 10 + g)
        states.append(state)
        for _ in range(plies):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))
            states.append(state)
    return states


def _plain(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_views_round_trip_through_json(game: Game[Any, Any]) -> None:
    for state in random_states(game, 3):
        for viewer in [None, *range(game.num_players)]:
            view = game.view(state, viewer)
            data = view_to_json(game, view)
            assert _plain(data)
            text = dumps(data)
            assert text == dumps(view_to_json(game, view))  # deterministic
            assert data["wire"] == WIRE_VERSION and data["viewer"] == viewer
            assert data["legal_moves"] == [game.view_format_move(view, m)
                                           for m in game.view_legal_moves(view)]
            back = view_from_json(game, json.loads(text))
            assert back == view
            assert view_to_json(game, back) == data


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_tampered_view_is_refused(game: Game[Any, Any]) -> None:
    state = random_states(game, 5, games=1, plies=6)[-1]
    data = view_to_json(game, game.view(state, 0))
    for key, junk in [("viewer", True), ("actors", [9]), ("legal_moves", ["nonsense"]),
                      ("position", "nonsense"), ("board", {}), ("wire", 2), ("game", "chess"),
                      ("outcome", {"result": "win", "winner": None, "reason": ""})]:
        bad = dict(data, **{key: junk})
        with pytest.raises(WireError):
            view_from_json(game, bad)
    with pytest.raises(WireError):
        view_from_json(game, {k: v for k, v in data.items() if k != "board"})
    with pytest.raises(WireError):
        view_from_json(game, [1, 2])


def test_quatrefoil_views_show_face_down_cards_as_null() -> None:
    game = fourfold.load("quatrefoil", "base")
    state = game.initial_state(seed=4)
    board = view_to_json(game, game.view(state, 2))["board"]
    assert [c is None for c in board["colour_cards"]] == [True, True, False, True]
    assert [c is None for c in board["position_cards"]] == [True, True, False, True]
    assert board["north"] is None and board["solution"] is None
    spectator = view_to_json(game, game.view(state, None))["board"]
    assert spectator["colour_cards"] == [None] * 4 and spectator["signals"] is not None
    assert "solution=" not in view_to_json(game, game.view(state, None))["position"]


def test_placement_board_is_structured_for_a_browser() -> None:
    game = fourfold.load("folio", "standard")
    match = Match(game)
    for move in ("Gs", "d4 Rl", "e5 Bm"):
        match.play(move)
    board = view_to_json(game, match.view(0))["board"]
    assert board["geometry"] == {"kind": "board", "width": 8, "height": 8, "box": 4}
    assert [c["cell"] for c in board["cells"]] == ["d4", "e5"]
    assert board["hand"] == "Bm" and board["line"] is None
    placeable = [c["cell"] for c in board["placeable"]]
    assert "b2" in placeable and "g7" in placeable and "d4" not in placeable
    assert "a1" not in placeable and "h8" not in placeable  # outside the floating 4x4 area


@pytest.mark.parametrize("outcome", [
    None, Outcome.win(0, "line"), Outcome.win(3, "x"), Outcome.draw("agreed"),
    Outcome(Result.TEAM_WIN, "solved"), Outcome(Result.TEAM_LOSS, "clock")])
def test_outcomes_round_trip(outcome: Outcome | None) -> None:
    assert outcome_from_json(json.loads(dumps(outcome_to_json(outcome)))) == outcome


def test_bad_outcomes_are_refused() -> None:
    for junk in [{"result": "win", "winner": None, "reason": ""}, {"result": "draw"},
                 {"result": "lose", "winner": None, "reason": ""}, [],
                 {"result": "draw", "winner": 0, "reason": ""}]:
        with pytest.raises(WireError):
            outcome_from_json(junk)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_records_round_trip(game: Game[Any, Any]) -> None:
    rng = random.Random(1)
    match = Match(game, game.initial_state(seed=2), date="2026-01-02")
    for _ in range(12):
        if match.outcome is not None:
            break
        match.play(rng.choice(game.legal_moves(match.state)))
    records: list[Record] = [match.referee_record()]
    records += [match.record_for(v) for v in [None, *range(game.num_players)]]
    for record in records:
        data = record_to_json(record)
        assert record_from_json(json.loads(dumps(data))) == record
    with pytest.raises(WireError):
        record_from_json(dict(record_to_json(records[0]), moves="1. e4"))


@pytest.mark.parametrize("label", ["folio", "quatrefoil-race", "quatrefoil-dual"])
def test_events_round_trip(label: str) -> None:
    if label == "folio":
        game = fourfold.load("folio", "fixed-grid")
    elif label == "quatrefoil-race":
        game = fourfold.load("quatrefoil", "race-the-clock")
    else:
        game = fourfold.load("quatrefoil", "dual", clock=True)
    clock = ManualClock()
    table = Table(game, clock=clock, inline_bots=True)
    events: list[Event] = []
    for r in [None, *range(game.num_players)]:
        table.subscribe(r, events.append)
    rng = random.Random(0)
    for _ in range(6):
        clock.advance(1.0003)
        seat = table.actors()[0] if table.actors() else 0
        moves = table.legal_moves(seat)
        if not moves:
            break
        table.play(seat, rng.choice([m for m in moves if "stack" not in m]))
    table.resign(0)
    kinds = {e.kind for e in events}
    assert {EventKind.START, EventKind.MOVE, EventKind.END} <= kinds
    for event in events:
        data = event_to_json(game, event)
        text = dumps(data)
        back = event_from_json(game, json.loads(text))
        assert back.clocks == tuple(round_clock(c) for c in event.clocks)
        assert back == Event(event.kind, event.version, event.recipient, event.view, event.text,
                             event.seat, event.move, event.offer, event.outcome, back.clocks)
        assert dumps(event_to_json(game, back)) == text


# -- client messages -------------------------------------------------------------------------

VALID = [
    ({"type": "move", "move": "d4 Gs", "version": 3}, MoveMessage("d4 Gs", 3)),
    ({"type": "resign", "version": 0}, ResignMessage(0)),
    ({"type": "offer", "offer": "draw", "version": 7}, OfferMessage("draw", 7)),
    ({"type": "offer", "offer": "undo", "version": 7, "wire": 1}, OfferMessage("undo", 7)),
    ({"type": "answer", "accept": True}, AnswerMessage(True)),
    ({"type": "answer", "accept": False}, AnswerMessage(False)),
    ({"type": "ping"}, PingMessage()),
]


@pytest.mark.parametrize(("data", "message"), VALID)
def test_valid_messages_parse(data: dict[str, Any], message: Any) -> None:
    assert parse_client_message(data) == message
    assert parse_client_message(json.dumps(data)) == message
    assert parse_client_message(json.dumps(data).encode()) == message
    assert parse_client_message(client_message_to_json(message)) == message


@pytest.mark.parametrize(("text", "words"), [
    ('{"type":"fly"}', "unknown message type 'fly'"),
    ('{"type":"move","version":1}', "missing field(s) 'move'"),
    ('{"type":"move","move":5,"version":1}', "at move: expected a string, got an integer"),
    ('{"type":"move","move":"cw","version":true}', "at version: expected an integer, got a"
                                                   " boolean"),
    ('{"type":"move","move":"cw","version":-1}', "at version: must be at least 0"),
    ('{"type":"move","move":"cw","version":1.0}', "expected an integer, got a number"),
    ('{"type":"move","move":"cw","version":1,"x":2}', "unknown field(s) 'x'"),
    ('{"type":"ping","type":"ping"}', "appears twice"),
    ('{"type":"answer","accept":1}', "at accept: expected true or false, got an integer"),
    ('{"type":"offer","offer":"peace","version":1}', "not 'peace'"),
    ('{"type":"move","move":"cw","version":NaN}', "NaN is not a JSON number"),
    ('{"type":"move","move":"cw","version":1e999}', "too large"),
    ('[1, 2]', "expected an object, got an array"),
    ('{"type": "move",', "invalid JSON at line 1 column 17 (character 17)"),
    ('{"type":"move","move":"' + "x" * 201 + '","version":1}', "too long: 201 characters"),
    ('{"type":"ping","wire":2}', "speaks wire version 1, not 2"),
    ('{"type":"move","move":"\\ud800","version":1}', "lone surrogate"),
    ("[" * 2000 + "]" * 2000, "nested too deeply"),
    (" " * (MAX_MESSAGE_BYTES + 1), "too long"),
])
def test_junk_messages_say_what_where_and_why(text: str, words: str) -> None:
    with pytest.raises(WireError) as info:
        parse_client_message(text)
    assert words in str(info.value)


def _check(message: Any) -> None:
    try:
        parsed = parse_client_message(message)
    except WireError:
        return
    assert parsed in [m for _, m in VALID] or isinstance(
        parsed, (MoveMessage, ResignMessage, OfferMessage, AnswerMessage, PingMessage))
    assert parse_client_message(client_message_to_json(parsed)) == parsed


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)
field_names = st.sampled_from(["type", "move", "version", "offer", "accept", "wire", "extra"])
field_values = st.one_of(
    json_values, st.sampled_from(["move", "resign", "offer", "answer", "ping", "draw", "undo"]),
    st.integers(min_value=-3, max_value=2**60), st.sampled_from([True, False, 1.5, -0.0]))


@given(st.text(max_size=300))
def test_fuzz_arbitrary_text(text: str) -> None:
    _check(text)


@given(st.binary(max_size=300))
def test_fuzz_arbitrary_bytes(data: bytes) -> None:
    _check(data)


@given(json_values)
def test_fuzz_arbitrary_json_values(value: Any) -> None:
    _check(value)
    try:
        text = json.dumps(value)
    except (ValueError, TypeError):
        return
    _check(text)


@given(st.sampled_from([d for d, _ in VALID]),
       st.dictionaries(field_names, field_values, max_size=3),
       st.lists(field_names, max_size=2), st.integers(0, 80), st.text(max_size=3))
def test_fuzz_mutated_valid_messages(base: dict[str, Any], changes: dict[str, Any],
                                     drops: list[str], cut: int, splice: str) -> None:
    data = {k: v for k, v in {**base, **changes}.items() if k not in drops}
    _check(data)
    text = json.dumps(data)
    _check(text)
    _check(text[:cut] + splice + text[cut:])
    _check(text[:cut])


def test_messages_act_on_a_table() -> None:
    game = fourfold.load("folio", "fixed-grid")
    table = Table(game, inline_bots=True, clock=ManualClock())
    seat = table.actors()[0]
    first = table.legal_moves(seat)[0]
    assert apply_client_message(table, seat, parse_client_message(
        {"type": "move", "move": first, "version": 0})) == first
    assert apply_client_message(table, 0, parse_client_message('{"type":"ping"}')) == "pong"
    with pytest.raises(FourfoldError, match="stale"):
        apply_client_message(table, table.actors()[0], parse_client_message(
            {"type": "resign", "version": 0}))
    assert apply_client_message(table, 0, OfferMessage("draw", 1)) == "offer sent"
    assert apply_client_message(table, 1, AnswerMessage(True)) == "draw agreed"
    assert table.outcome == Outcome.draw("agreed")


# -- the document ----------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "wire.md"
_BLOCK = re.compile(r"<!-- example: ([a-z0-9-]+) -->\n```json\n(.*?)\n```", re.S)


def wire_examples() -> ModuleType:
    """``scripts/wire_examples.py``, which writes the doc's examples."""
    spec = importlib.util.spec_from_file_location("wire_examples",
                                                  ROOT / "scripts" / "wire_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_documented_examples_are_what_the_code_writes() -> None:
    found = dict(_BLOCK.findall(DOC.read_text()))
    examples = wire_examples().EXAMPLES
    assert set(found) == set(examples), "run python scripts/wire_examples.py to refresh"
    for name, make in examples.items():
        value, check = make()
        assert json.loads(found[name]) == value, name
        check(json.loads(found[name]))


def test_doc_names_the_version() -> None:
    assert f"version {WIRE_VERSION}" in DOC.read_text().lower()


def test_view_from_json_refuses_other_games() -> None:
    folio = fourfold.load("folio", "fixed-grid")
    quarto = fourfold.load("quarto")
    data = view_to_json(folio, folio.view(folio.initial_state(), None))
    with pytest.raises(WireError, match="at game"):
        view_from_json(quarto, data)
    assert isinstance(view_from_json(folio, data), View)
