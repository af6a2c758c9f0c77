"""Game records: a small PGN-like text format that round-trips.

    [Game "folio"]
    [Variant "standard"]
    [Options "line-rule=colours-or-sizes extra=Rs,My,Gl,Bl"]
    [Players "Ann, random"]
    [Date "2026-11-22"]
    [Result "1-0"]
    [Termination "line of four ..."]
    [Setup "<position string>"]

    1. Gs
    2. d4 Gs

Tags are ``[Name "value"]`` with ``\\"`` and ``\\\\`` escapes; ``Termination``
and ``Setup`` are optional and any other tag is kept. Plies follow, one a
line, numbered from 1. ``#`` starts a comment line.

A file may hold several records one after another (``fourfold match --records``): a
tag after moves begins the next record. ``parse_records`` reads them all;
``parse_record`` reads exactly one and says plainly when the text holds more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from fourfold.core.errors import RecordError

REQUIRED_TAGS = ("Game", "Variant", "Options", "Players", "Date", "Result")
RESULTS_IN_PROGRESS = "*"

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_PLY = re.compile(r"^(\d+)\.\s+(\S.*?)$")


@dataclass(frozen=True)
class Record:
    """A parsed record. ``moves`` are in notation; ``setup`` is a position string or None."""

    game: str
    variant: str
    options: dict[str, str] = field(default_factory=dict)
    players: tuple[str, ...] = ()
    date: str = ""
    result: str = RESULTS_IN_PROGRESS
    termination: str = ""
    setup: str | None = None
    moves: tuple[str, ...] = ()
    extra_tags: dict[str, str] = field(default_factory=dict)


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"n": "\n", "r": "\r"}


def _escape(value: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in value)


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", lambda m: _UNESCAPES.get(m.group(1), m.group(1)), value, flags=re.S)


def check_player_name(name: str) -> str:
    """Player names go in one tag separated by commas, so they may not hold one."""
    cleaned = name.strip()
    if not cleaned or "," in cleaned or "\n" in cleaned:
        raise RecordError(f"player name {name!r} must be non-empty, one line, without commas")
    return cleaned


def format_record(record: Record) -> str:
    options = " ".join(f"{k}={v}" for k, v in record.options.items())
    tags = [
        ("Game", record.game),
        ("Variant", record.variant),
        ("Options", options),
        ("Players", ", ".join(check_player_name(p) for p in record.players)),
        ("Date", record.date),
        ("Result", record.result),
    ]
    if record.termination:
        tags.append(("Termination", record.termination))
    if record.setup is not None:
        tags.append(("Setup", record.setup))
    tags.extend(record.extra_tags.items())
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags]
    lines.append("")
    lines.extend(f"{i}. {move}" for i, move in enumerate(record.moves, start=1))
    return "\n".join(lines) + "\n"


def _parse_options(text: str, line: int) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in text.split():
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise RecordError(f"option {item!r} is not of the form name=value", line)
        options[key] = value
    return options


Line = tuple[int, str]


def _split(text: str) -> list[list[Line]]:
    """The text's records, each as its (line number, stripped line) pairs, comments and
    blank lines dropped. A well-formed tag after moves starts the next record (a malformed
    tag line stays where it is, to be named as such)."""
    if not isinstance(text, str):
        raise RecordError("a record must be text")
    records: list[list[Line]] = []
    current: list[Line] = []
    has_moves = False
    # split on newlines only: str.splitlines() would also break on control characters
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip(" \t\r")
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            m = _TAG.match(line)
            if m is not None and has_moves:
                records.append(current)
                current, has_moves = [], False
        else:
            has_moves = True
        current.append((number, line))
    if current or not records:
        records.append(current)
    return records


def parse_records(text: str) -> list[Record]:
    """Every record in the text, in order; a fault names its line in the whole text."""
    records = _split(text)
    return [_parse_lines(lines, len(records) > 1) for lines in records]


def parse_record(text: str) -> Record:
    """Read one record; raise ``RecordError`` with the line number on any fault, and
    when the text holds several records (read those with ``parse_records``)."""
    records = _split(text)
    if len(records) > 1:
        raise RecordError(f"the text holds {len(records)} game records, not one: the"
                          " second starts here", records[1][0][0])
    return _parse_lines(records[0], False)


def _parse_lines(lines: list[Line], several: bool) -> Record:
    tags: dict[str, tuple[str, int]] = {}
    moves: list[str] = []
    for number, line in lines:
        if line.startswith("["):
            m = _TAG.match(line)
            if not m:
                raise RecordError(f'expected a tag like [Name "value"], got {line!r}', number)
            if moves:
                raise RecordError("tags must come before the moves", number)
            if m.group(1) in tags:
                raise RecordError(f"tag {m.group(1)} appears twice", number)
            tags[m.group(1)] = (_unescape(m.group(2)), number)
            continue
        m = _PLY.match(line)
        if not m:
            raise RecordError(f"expected a numbered ply like '{len(moves) + 1}. ...', got {line!r}",
                              number)
        if int(m.group(1)) != len(moves) + 1:
            raise RecordError(f"ply numbered {m.group(1)}, expected {len(moves) + 1}", number)
        moves.append(m.group(2))
    missing = [t for t in REQUIRED_TAGS if t not in tags]
    if missing:
        where = f" (the record starting at line {lines[0][0]})" if several and lines else ""
        raise RecordError(f"missing tag(s): {', '.join(missing)}{where}")
    value = {k: v for k, (v, _) in tags.items()}
    players_text = value["Players"].strip()
    players = tuple(p.strip() for p in players_text.split(",")) if players_text else ()
    extra = {k: v for k, v in value.items() if k not in (*REQUIRED_TAGS, "Termination", "Setup")}
    return Record(
        game=value["Game"],
        variant=value["Variant"],
        options=_parse_options(value["Options"], tags["Options"][1]),
        players=players,
        date=value["Date"],
        result=value["Result"],
        termination=value.get("Termination", ""),
        setup=value.get("Setup"),
        moves=tuple(moves),
        extra_tags=extra,
    )
