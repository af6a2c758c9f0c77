"""One name per seat (issue 31): the pictures call each seat what the table calls it (the
person's name, or the bot and its level), never "Player 2" beside a page that says
"Bot level 1"; the rules' own side name stays alongside where the rules have one."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

from fourfold.core.outcome import Outcome
from fourfold.core.registry import load
from fourfold.render.svg import draw_svg, drawer_for, takes_names
from fourfold.render.svg.common import seat_name
from fourfold.server.specs import SeatSpec
from fourfold.server.web.screens import seat_names

#: the two-seat rulesets (Quatrefoil's pictures are checked with its own browser work)
RULESETS = [("dao", None), ("icedao", None), ("quarto", None), ("folio", "standard"),
            ("folio", "fixed-grid"), ("folio", "no-grid"), ("folio", "freeform")]
NAMES = ("Ana", "Bot level 1")


def status_of(svg: str) -> str:
    found = re.findall(r'class="status"[^>]*>([^<]*)<', svg)
    assert found, "no status line"
    return " ".join(found)


def seated_view(game: Any, seat: int) -> Any:
    """The view of ``seat`` at the first position where ``seat`` is to act."""
    state = game.initial_state(1)
    for _ in range(4):
        if game.to_move(state) == seat:
            break
        state = game.apply(state, game.legal_moves(state)[0])
    return game.view(state, seat)


@pytest.mark.parametrize(("name", "variant"), RULESETS)
def test_the_picture_calls_the_seats_by_the_tables_names(name: str,
                                                         variant: str | None) -> None:
    game = load(name, variant)
    assert takes_names(drawer_for(game))
    for seat in (0, 1):
        view = seated_view(game, seat)
        svg = draw_svg(game, view, names=NAMES)
        head = status_of(svg)
        assert NAMES[seat] in head, head
        assert "Player" not in svg, head
        assert "(you" in head or ", you)" in head, head
        # without names: the rules' names, as before
        plain = status_of(draw_svg(game, view))
        assert game.player_name(seat) in plain


def test_a_side_the_rules_name_keeps_its_name_beside_the_persons() -> None:
    icedao = load("icedao")
    assert seat_name(icedao, 0, NAMES) == "Ana (Blue)"
    assert seat_name(icedao, 1, NAMES, you=True) == "Bot level 1 (Green, you)"
    assert seat_name(icedao, 0, ("Blue", "Green")) == "Blue"  # a person left unnamed
    folio = load("folio")
    assert seat_name(folio, 1, NAMES) == "Bot level 1"  # "Player 2" is no name of its own
    assert seat_name(folio, 1) == "Player 2"
    view = seated_view(icedao, 0)
    assert "Ana (Blue, you) to move" in status_of(draw_svg(icedao, view, names=NAMES))


def test_the_end_names_the_winner_as_the_table_does() -> None:
    game = load("quarto")
    view = seated_view(game, 0)
    for winner in (0, 1):
        ended = Outcome.win(winner, "Ana resigned" if winner else "Bot level 1 resigned")
        head = status_of(draw_svg(game, view, outcome=ended, names=NAMES))
        assert head == f"Quarto (standard) — {NAMES[winner]} wins", head


def test_a_drawer_without_names_is_called_as_before() -> None:
    def old(game: Any, view: Any, *, last_move: Any, outcome: Any, size: Any) -> str:
        return "<svg/>"

    def open_ended(game: Any, view: Any, **rest: Any) -> str:
        return "<svg/>"

    assert not takes_names(old)
    assert takes_names(open_ended)
    with pytest.raises(ValueError, match="1 seat names for 2 seats"):
        draw_svg(load("dao"), seated_view(load("dao"), 0), names=("Ana",))


def test_the_server_names_seats_as_the_page_does() -> None:
    live = SimpleNamespace(seats=[SeatSpec("human", "Ana"), SeatSpec("bot", "level2", "level2"),
                                  SeatSpec("bot", "x", "level2"), SeatSpec("bot", "g", "greedy")])
    assert seat_names(live) == ("Ana", "Bot level 2 (seat 2)", "Bot level 2 (seat 3)",  # type: ignore[arg-type]
                                "Bot greedy")
    two = SimpleNamespace(seats=[SeatSpec("open", "Player 1"), SeatSpec("bot", "level1", "level1")])
    assert seat_names(two) == ("Player 1", "Bot level 1")  # type: ignore[arg-type]
