"""Game records: format/parse round trips, replay, and clear errors with line numbers."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import fourfold
from fourfold.core.errors import FourfoldError, RecordError
from fourfold.core.match import Match
from fourfold.core.outcome import Outcome
from fourfold.core.record import Record, format_record, parse_record


def finished_match(seed: int, variant: str = "standard") -> Match:  # type: ignore[type-arg]
    game = fourfold.load("folio", variant, line_rule="same-colour-or-size")
    match: Match = Match(game, players=["Ann", "random"], date="2026-11-22")  # type: ignore[type-arg]
    rng = random.Random(seed)
    while match.outcome is None:
        match.play(rng.choice(match.game.legal_moves(match.state)))
    return match


def test_record_text_shape() -> None:
    text = format_record(finished_match(3).referee_record())
    lines = text.splitlines()
    assert lines[0] == '[Game "folio"]'
    assert lines[1] == '[Variant "standard"]'
    assert lines[2] == '[Options "line-rule=same-colour-or-size extra=Rs,Ym,Gl,Bl"]'
    assert lines[3] == '[Players "Ann, random"]'
    assert lines[4] == '[Date "2026-11-22"]'
    assert lines[5].startswith('[Result "') and lines[6].startswith('[Termination "')
    assert lines[8].startswith("1. ") and len(lines[8].split()) == 2  # the opening give


@pytest.mark.parametrize("variant", ["standard", "fixed-grid", "no-grid"])
def test_record_replays(variant: str) -> None:
    match = finished_match(11, variant)
    replayed = Match.from_record(parse_record(format_record(match.referee_record())))
    assert replayed.state == match.state and replayed.outcome == match.outcome
    assert replayed.players == ("Ann", "random")


def test_unfinished_and_declared_results_round_trip() -> None:
    game = fourfold.load("quarto")
    match: Match = Match(game, date="2026-11-22")  # type: ignore[type-arg]
    match.play_text("TDRH")
    match.play_text("a1 SLQF")
    text = format_record(match.referee_record())
    assert '[Result "*"]' in text
    assert Match.from_record(parse_record(text)).state == match.state
    match.declare(Outcome.win(1, "Player 1 resigned"))
    again = Match.from_record(parse_record(format_record(match.referee_record())))
    assert again.outcome == Outcome.win(1, "Player 1 resigned")


def test_setup_tag_starts_from_a_position() -> None:
    game = fourfold.load("folio", "fixed-grid")
    start = game.parse_position("a1=Rs;b2=Ym Gl")
    match: Match = Match(game, start, date="2026-11-22")  # type: ignore[type-arg]
    match.play_text("c3 Bs")
    record = match.referee_record()
    assert record.setup == "a1=Rs;b2=Ym Gl"
    assert Match.from_record(parse_record(format_record(record))).state == match.state


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Game "folio"]\n', "missing tag"),
        ('[Game "folio"\n', "line 1: expected a tag"),
        ('[Game "folio"]\n[Game "quarto"]\n', "line 2: tag Game appears twice"),
        ("1. Gs\n", "missing tag"),
        ("hello\n", "line 1: expected a numbered ply"),
    ],
)
def test_malformed_records(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_record(text)


def base_record(moves: tuple[str, ...], result: str = "*", **tags: str) -> str:
    record = Record(
        game=tags.get("game", "folio"), variant=tags.get("variant", "fixed-grid"),
        options={}, players=("A", "B"), date="2026-11-22", result=result, moves=moves,
    )
    return format_record(record)


def test_replay_errors_name_the_ply() -> None:
    with pytest.raises(RecordError, match=r"ply 3 \('a1 Bs'\).*a1 is already occupied"):
        Match.from_record(parse_record(base_record(("Gs", "a1 Rs", "a1 Bs"))))
    with pytest.raises(RecordError, match="unknown folio variant"):
        Match.from_record(parse_record(base_record((), variant="hex")))
    with pytest.raises(RecordError, match="ply numbered 3, expected 2"):
        parse_record(base_record(("Gs",)) + "3. a1 Rs\n")


def test_result_must_agree_with_the_moves() -> None:
    moves = ("Rs", "a1 Ys", "a2 Gs", "a3 Bs", "a4")
    assert Match.from_record(parse_record(base_record(moves, "0-1"))).outcome.winner == 1
    with pytest.raises(RecordError, match="Result tag says 1-0 but the moves end in 0-1"):
        Match.from_record(parse_record(base_record(moves, "1-0")))


names = st.text(alphabet=st.characters(blacklist_characters=",\n\r", blacklist_categories=["Cs"]),
                min_size=1, max_size=12).filter(lambda s: s.strip() == s and s)


@given(a=names, b=names, date=st.text(max_size=12))
def test_tags_with_any_characters_round_trip(a: str, b: str, date: str) -> None:
    record = Record("quarto", "standard", {}, (a, b), date, "*", "", None, ("TDRH",))
    assert parse_record(format_record(record)) == record


@given(st.text(max_size=200))
def test_record_parser_never_crashes(text: str) -> None:
    with contextlib.suppress(FourfoldError):
        Match.from_record(parse_record(text))
