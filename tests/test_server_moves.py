"""Moves are saved append-only: a move writes one ``table_moves`` row, never the whole
record; undo deletes rows; a change of the record's tags writes it anew; a row stored
before moves had rows keeps its moves in the record, and new ones follow as rows. The
migration runs on SQLite and PostgreSQL, and folds the rows back on downgrade."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, text

import fourfold
from fourfold.core.match import Match
from fourfold.core.record import format_record, parse_record
from fourfold.server.api import _new_row
from fourfold.server.hub import Hub
from fourfold.server.live import LiveTable
from fourfold.server.settings import Settings
from fourfold.server.specs import SeatSpec
from fourfold.server.storage import Repository
from fourfold.server.storage.migrate import MIGRATIONS, open_database
from support.server import Postgres

GAME = fourfold.load("quarto")


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    url = f"sqlite:///{tmp_path / 'moves.db'}"
    engine = open_database(url)
    repo = Repository(engine)
    made = Hub(Settings(database=url), repo)
    yield made
    made.shutdown()
    repo.close()
    engine.dispose()


def _table(hub: Hub, match: Match[Any, Any] | None = None) -> LiveTable:
    specs = [SeatSpec("human", "Ann"), SeatSpec("human", "Bob")]
    match = match or Match(GAME, GAME.initial_state(1), [s.name for s in specs])
    row = _new_row(hub, match, specs, private=False, seed=1, known_deal=True, clock=None,
                   version=len(match.moves))
    return hub.add(row, {0: "ann-token", 1: "bob-token"}, match)


def _stored(hub: Hub, table_id: str) -> tuple[str, list[tuple[int, str]]]:
    with hub.repo.engine.connect() as c:
        record = c.execute(text("SELECT record FROM tables WHERE id = :t"),
                           {"t": table_id}).scalar_one()
        rows = c.execute(text("SELECT ply, move FROM table_moves WHERE table_id = :t"
                              " ORDER BY ply"), {"t": table_id}).all()
    return str(record), [(int(p), str(m)) for p, m in rows]


def _play(live: LiveTable, plies: int) -> None:
    for _ in range(plies):
        seat = live.table.actors()[0]
        live.table.play(seat, live.table.legal_moves(seat)[0])


def _replayed(hub: Hub, table_id: str) -> Match[Any, Any]:
    row = hub.repo.load(table_id)
    assert row is not None
    return Match.from_record(row.full_record())


def test_a_move_appends_a_row_and_leaves_the_record_alone(hub: Hub) -> None:
    live = _table(hub)
    record, rows = _stored(hub, live.id)
    assert rows == []
    _play(live, 3)
    again, rows = _stored(hub, live.id)
    assert again == record  # not written again
    assert [p for p, _ in rows] == [0, 1, 2]
    assert tuple(m for _, m in rows) == live.table.referee_record().moves
    replayed = _replayed(hub, live.id)
    assert replayed.notation == list(live.table.referee_record().moves)


def test_undo_deletes_rows_and_the_end_writes_the_tags(hub: Hub) -> None:
    live = _table(hub)
    _play(live, 4)
    seat = live.table.actors()[0]
    assert live.table.offer(1 - seat, "undo") == "offer sent"
    assert live.table.answer(seat, True).startswith("took back")
    plies = live.table.plies
    assert plies < 4 and [p for p, _ in _stored(hub, live.id)[1]] == list(range(plies))
    live.table.resign(live.table.actors()[0])
    record, rows = _stored(hub, live.id)
    assert parse_record(record).termination.endswith("resigned")
    assert parse_record(record).moves == () and len(rows) == plies
    replayed = _replayed(hub, live.id)
    assert replayed.outcome == live.table.outcome and len(replayed.moves) == plies


def test_a_table_stored_with_moves_in_its_record_goes_on_with_rows(hub: Hub) -> None:
    """Imported tables (and every row from before the migration) hold their first moves
    in the record: those stay, and later moves follow as rows after them."""
    match: Match[Any, Any] = Match(GAME, GAME.initial_state(1), ["Ann", "Bob"])
    for _ in range(2):
        match.play(GAME.legal_moves(match.state)[0])
    live = _table(hub, match)
    record, rows = _stored(hub, live.id)
    assert len(parse_record(record).moves) == 2 and rows == []
    _play(live, 2)
    record, rows = _stored(hub, live.id)
    assert len(parse_record(record).moves) == 2 and [p for p, _ in rows] == [2, 3]
    hub.forget(live)  # as after a restart: read back from the database
    loaded = hub.get(live.id)
    assert loaded is not None and loaded.table.plies == 4
    _play(loaded, 1)
    assert _replayed(hub, live.id).notation == list(loaded.table.referee_record().moves)


def _migrate(engine: Engine, revision: str, down: bool = False) -> None:
    with engine.begin() as connection:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


def _round_trip(url: str) -> None:
    """Rows become moves in the record on downgrade, and a later upgrade reads them
    there: the whole record survives both ways."""
    engine = open_database(url)
    repo = Repository(engine)
    hub = Hub(Settings(database=url), repo)
    try:
        live = _table(hub)
        _play(live, 3)
        whole = format_record(live.table.referee_record())
        table_id = live.id
    finally:
        hub.shutdown()
        repo.close()
    _migrate(engine, "0003", down=True)
    with engine.connect() as c:
        record = c.execute(text("SELECT record FROM tables WHERE id = :t"),
                           {"t": table_id}).scalar_one()
    assert record == whole
    _migrate(engine, "head")
    repo = Repository(engine)
    try:
        row = repo.load(table_id)
        assert row is not None and row.moves == ()
        assert format_record(row.full_record()) == whole
        assert dataclasses.replace(row.full_record(), moves=()) == dataclasses.replace(
            parse_record(whole), moves=())
    finally:
        repo.close()
        engine.dispose()


def test_the_migration_round_trips_on_sqlite(tmp_path: Path) -> None:
    _round_trip(f"sqlite:///{tmp_path / 'round.db'}")


def test_the_migration_round_trips_on_postgresql(postgres: Postgres) -> None:
    _round_trip(postgres.new_database())
