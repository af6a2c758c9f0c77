"""The solver's symmetries: 32 line-preserving board maps, piece relabellings, canonical keys."""

from __future__ import annotations

import random
from typing import Any

import pytest

import fourfold
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.solver import Solver
from fourfold.games.placement.solver.tables import (
    board_lines,
    folio_piece_maps,
    line_maps,
    quarto_piece_maps,
    ruleset_of,
    square_maps,
)
from fourfold.games.placement.state import PlacementState
from support.placement_solver import BITS, position

LINES = {frozenset(line) for line in board_lines()}


def preserves_lines(perm: tuple[int, ...]) -> bool:
    return {frozenset(perm[c] for c in line) for line in LINES} == LINES


def all_line_automorphisms() -> int:
    """Count every permutation of the 16 cells mapping lines to lines, by backtracking."""
    lines = [tuple(line) for line in board_lines()]
    image = [-1] * 16
    used = [False] * 16

    def consistent(cell: int) -> bool:
        # the images of the placed cells of each line through ``cell`` must lie on one line
        for line in lines:
            if cell in line:
                placed = {image[c] for c in line if image[c] >= 0}
                if not any(placed <= target for target in LINES):
                    return False
        return True

    def extend(cell: int) -> int:
        if cell == 16:
            return 1
        total = 0
        for target in range(16):
            if not used[target]:
                image[cell], used[target] = target, True
                if consistent(cell):
                    total += extend(cell + 1)
                image[cell], used[target] = -1, False
        return total

    return extend(0)


def test_the_generated_maps_are_32_and_preserve_lines() -> None:
    maps = line_maps()
    assert len(maps) == len(set(maps)) == 32
    assert maps[0] == tuple(range(16))
    assert all(preserves_lines(m) for m in maps)


def test_no_other_cell_permutation_preserves_lines() -> None:
    assert all_line_automorphisms() == 32


def test_square_maps_keep_neighbours() -> None:
    maps = square_maps()
    assert len(maps) == 8
    for m in maps:
        for a in range(16):
            for b in range(16):
                near = max(abs(a % 4 - b % 4), abs(a // 4 - b // 4)) == 1
                near_image = max(abs(m[a] % 4 - m[b] % 4), abs(m[a] // 4 - m[b] // 4)) == 1
                assert near == near_image


def test_piece_maps_are_groups_of_the_right_size() -> None:
    assert len(set(quarto_piece_maps())) == 384
    assert len(set(folio_piece_maps())) == 144


def image(state: PlacementState, cells: tuple[int, ...], kinds: tuple[int, ...]) -> PlacementState:
    """``state`` with every cell moved by ``cells`` and every kind renamed by ``kinds``."""
    board = []
    for (x, y), kind in state.board:
        c = cells[y * 4 + x]
        board.append(((c % 4, c // 4), kinds[kind]))
    supply = [0] * len(state.supply)
    for kind, count in enumerate(state.supply):
        supply[kinds[kind]] = count
    assert state.hand is not None
    return PlacementState(
        tuple(sorted(board, key=lambda item: (item[0][1], item[0][0]))),
        kinds[state.hand],
        tuple(supply),
    )


CASES: list[tuple[str, str | None, dict[str, Any]]] = [
    ("quarto", None, {}),
    ("folio", "fixed-grid", {}),
    ("folio", "fixed-grid", {"line_rule": "same-colour-or-size"}),
]


def piece_maps(name: str) -> list[tuple[int, ...]]:
    return quarto_piece_maps() if name == "quarto" else folio_piece_maps()


@pytest.mark.parametrize(("name", "variant", "options"), CASES)
def test_images_share_key_and_value(
    name: str, variant: str | None, options: dict[str, Any]
) -> None:
    game = fourfold.load(name, variant, **options)
    assert isinstance(game, PlacementGame)
    pieces, geometry, counts = ruleset_of(game)
    solver = Solver(pieces, geometry, counts, table_bits=BITS)
    state = position(game, 9, 11)
    key = solver.key(state)
    for cells in line_maps():
        for kinds in piece_maps(name):
            assert solver.key(image(state, cells, kinds)) == key
    # values of a sample of images, each from a fresh table with no canonical keys at all
    rng = random.Random(3)
    solver.start(None, None)
    value = solver.exact(state, True)
    for _ in range(6):
        moved = image(state, rng.choice(line_maps()), rng.choice(piece_maps(name)))
        plain = Solver(pieces, geometry, counts, table_bits=BITS, canon_max=-1)
        plain.start(None, None)
        assert plain.exact(moved, True) == value


def test_folio_key_holds_the_supply() -> None:
    """The same board and hand under another extra set leave another supply: a different
    position, so a different key (the key canonicalises board, hand and supply together)."""
    game = fourfold.load("folio", "fixed-grid")
    other = fourfold.load("folio", "fixed-grid", extra="Rm,Ys,Gl,Bl")
    assert isinstance(game, PlacementGame) and isinstance(other, PlacementGame)
    pieces, geometry, counts = ruleset_of(game)
    solver = Solver(pieces, geometry, counts, table_bits=BITS)
    state = position(game, 3, 5)
    assert state.hand is not None
    supply = list(other.pieces.counts)
    for _, kind in state.board:
        supply[kind] -= 1
    supply[state.hand] -= 1
    assert min(supply) >= 0
    moved = PlacementState(state.board, state.hand, tuple(supply))
    assert moved.supply != state.supply
    assert solver.key(moved) != solver.key(state)
