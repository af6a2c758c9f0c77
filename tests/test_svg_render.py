"""SVG pictures: every ruleset draws valid XML with data attributes, marks and letters."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

import fourfold
from fourfold.core.match import Match
from fourfold.core.outcome import Result
from fourfold.render.svg import (
    Svg,
    draw_svg,
    drawer_for,
    svg_for_match,
    svg_for_state,
)
from support.svg_cases import Case, all_cases

NS = "{http://www.w3.org/2000/svg}"
CASES = all_cases()


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def classes(root: ET.Element) -> set[str]:
    return {c for el in root.iter() for c in el.get("class", "").split()}


def data_keys(root: ET.Element) -> set[str]:
    return {k for el in root.iter() for k in el.attrib if k.startswith("data-")}


@pytest.fixture(scope="module", params=CASES, ids=[c[0] for c in CASES])
def case(request: pytest.FixtureRequest) -> tuple[Case, str]:
    _label, game, view, last = request.param
    return request.param, draw_svg(game, view, last_move=last)


def test_every_ruleset_has_cases() -> None:
    labels = {c[0].rsplit("-", 1)[0] for c in CASES}
    for name in fourfold.game_names():
        for variant in fourfold.get_spec(name).variants:
            if variant.unavailable is None:
                assert any(label.startswith(f"{name}-{variant.name}") for label in labels)


def test_valid_xml_with_title_viewbox_and_style(case: tuple[Case, str]) -> None:
    (_label, game, _, _), svg = case
    root = parse(svg)
    title = root.find(f"{NS}title")
    assert title is not None and title.text and game.info.spec.title in title.text
    assert root.find(f"{NS}style") is not None
    x, y, w, h = (float(v) for v in root.get("viewBox", "").split())
    assert (x, y) == (0, 0) and 200 < w < 1200 and 200 < h < 1200
    assert "fourfold" in root.get("class", "")


def test_data_attributes_name_cells_pieces_and_tokens(case: tuple[Case, str]) -> None:
    (label, game, view, _), svg = case
    keys = data_keys(parse(svg))
    if game.name == "quatrefoil":
        assert {"data-token", "data-corner", "data-seat", "data-card", "data-action"} <= keys
    elif label.startswith("folio-freeform") and not view.observation.pieces:
        assert "data-world" in keys and "data-piece" in keys  # the tray
    else:
        assert {"data-cell", "data-piece"} <= keys
    if game.name == "icedao":
        assert "data-stack" in keys


def test_the_last_move_is_marked(case: tuple[Case, str]) -> None:
    (label, _, _, last), svg = case
    marks = classes(parse(svg)) & {"last", "arrow"}
    if last is None:
        assert not marks
    elif not getattr(last, "challenge", False):
        assert marks, label


def test_a_won_position_marks_its_line(case: tuple[Case, str]) -> None:
    (_label, game, view, _), svg = case
    outcome = game.view_outcome(view)
    found = classes(parse(svg))
    if outcome is None:
        assert not found & {"win", "win-ring", "correct", "wrong"}
    elif outcome.result is Result.WIN and getattr(view.observation, "line", None):
        assert {"win", "win-ring"} <= found
    elif outcome.result in (Result.TEAM_WIN, Result.TEAM_LOSS):
        assert found & {"correct", "wrong"} and "banner" in found


def test_colour_letters_are_drawn(case: tuple[Case, str]) -> None:
    (label, game, view, _), svg = case
    root = parse(svg)
    letters = {el.text for el in root.iter(f"{NS}text") if "letter" in el.get("class", "")}
    state = view.observation
    if game.name == "folio" and label.startswith("folio-freeform"):
        wanted = {game.pieces.name(k)[0] for _, _, k in state.pieces}
    elif game.name == "folio":
        wanted = {game.pieces.name(k)[0] for _, k in state.board}
    elif game.name == "icedao":
        wanted = {"B", "G"}
    elif game.name == "dao":
        wanted = {"X", "O"}
    elif game.name == "quatrefoil":
        wanted = set("BGPRY")
    else:  # Quarto: every piece's four letters
        codes = {el.text for el in root.iter(f"{NS}text") if "code" in el.get("class", "")}
        assert {game.pieces.name(k) for _, k in state.board} <= codes
        return
    assert wanted <= letters


def test_folio_standard_marks_the_open_area() -> None:
    game = fourfold.load("folio", "standard")
    state = game.play(game.play(game.initial_state(), "Gs"), "d4 Rm")
    root = parse(svg_for_state(game, state))
    cells = {el.get("data-cell"): el for el in root.iter() if el.get("data-cell")}
    assert len([c for c in cells if len(c) == 2]) == 64
    opened = {el.get("data-cell") for el in root.iter(f"{NS}g")
              if el.get("class") == "square" and any(
                  "open" in r.get("class", "") for r in el.iter(f"{NS}rect"))}
    assert opened == {f"{f}{r}" for f in "abcdefg" for r in range(1, 8)}
    assert "area" in classes(root) and "legal" in classes(root)


def test_no_grid_draws_lattice_coordinates() -> None:
    game = fourfold.load("folio", "no-grid")
    state = game.play(game.play(game.initial_state(), "Gs"), "0,0 Rm")
    state = game.play(state, "1,1 Ym")
    root = parse(svg_for_state(game, state))
    cells = {el.get("data-cell") for el in root.iter() if el.get("data-cell")}
    assert {"0,0", "1,1", "-2,-2", "3,3"} <= cells and "4,4" not in cells


def test_icedao_stacks_show_every_piece_and_level() -> None:
    game = fourfold.load("icedao")
    state = game.parse_position("Gl,Bs,Gm,Bs,Gl/.,.,BmGs,.,./.,.,.,.,./.,.,Gm,.,./Bl,.,Bm,Gs,Bl B")
    root = parse(svg_for_state(game, state))
    stack = next(el for el in root.iter(f"{NS}g") if el.get("data-stack") == "BmGs"
                 and "stack" in el.get("class", ""))
    levels = [(p.get("data-piece"), p.get("data-level")) for p in stack.iter(f"{NS}g")
              if p.get("data-piece")]
    assert levels == [("Bm", "0"), ("Gs", "1")]


def test_freeform_undecided_shows_candidate_grids() -> None:
    game = fourfold.load("folio", "freeform")
    state = game.parse_position("0.0,0.0=Rs;1.1,0.2=Gm Bl")
    found = classes(parse(svg_for_state(game, state)))
    assert "grid-candidate" in found


def test_freeform_two_pieces_never_read_as_a_decided_grid() -> None:
    """Two pieces side by side fit one arrangement, but the grid can still shift under
    them: the picture once said "the grid is decided" after the first two moves."""
    game = fourfold.load("folio", "freeform")
    state = game.parse_position("0.0,0.0=Rs;1.0,0.0=Gm Bl")
    svg = str(svg_for_state(game, state))
    assert "decided" not in svg and "can still shift" in svg
    assert "grid-candidate" in classes(parse(svg))


def test_svg_is_a_string_that_notebooks_show() -> None:
    game = fourfold.load("dao")
    svg = svg_for_state(game, game.initial_state())
    assert isinstance(svg, Svg) and isinstance(svg, str) and svg._repr_svg_() == svg
    assert draw_svg(game, game.view(game.initial_state(), None), size=200) != svg
    assert 'width="200"' in draw_svg(game, game.view(game.initial_state(), None), size=200)


def test_pictures_are_pure() -> None:
    for _label, game, view, last in CASES[:6]:
        assert draw_svg(game, view, last_move=last) == draw_svg(game, view, last_move=last)


def test_svg_for_match_marks_the_last_move_and_declared_endings() -> None:
    game = fourfold.load("icedao")
    match: Match[Any, Any] = Match(game)
    for move in game.legal_moves(match.state)[:1]:
        match.play(move)
    root = parse(svg_for_match(match))
    assert "last" in classes(root)
    match.declare(fourfold.core.outcome.Outcome.win(0, "Green resigned"))
    assert "Green resigned" in svg_for_match(match)


def test_every_playable_game_has_a_drawer() -> None:
    for _label, game, _, _ in CASES:
        assert callable(drawer_for(game))
