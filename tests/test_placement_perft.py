"""Perft (RULES.md §4) for Folio's grid variants and Quarto, depths 1-3, pinned and
cross-checked by a closed form: before four pieces are down no line can be complete,
so a ply sequence is a sequence of placements (counted from the geometry rule by hand)
times a sequence of gives (counted from the piece multiset, independently here)."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

import fourfold
from fourfold.core.perft import perft_table

FOLIO_COUNTS = (2, 1, 1, 1, 2, 1, 1, 1, 2, 1, 1, 2)  # Rs, Ym, Gl, Bl twice


@cache
def give_sequences(counts: tuple[int, ...], length: int) -> int:
    """Distinct sequences of ``length`` kinds drawn without replacement from a multiset."""
    if length == 0:
        return 1
    total = 0
    for kind, n in enumerate(counts):
        if n:
            rest = list(counts)
            rest[kind] -= 1
            total += give_sequences(tuple(rest), length - 1)
    return total


def closed_form(placements: list[int], counts: tuple[int, ...]) -> list[int]:
    """Depth d: gives for d plies (each ply gives once) times placements for d-1 plies."""
    out = []
    for depth in (1, 2, 3):
        ways_to_place = 1
        for n in placements[: depth - 1]:
            ways_to_place *= n
        out.append(ways_to_place * give_sequences(counts, depth))
    return out


# placements available for the 1st and 2nd piece, counted from the rule text:
#   standard: 4 central squares, then the 7x7 block around any of them minus itself (48)
#   fixed-grid: 16 then 15; no-grid: the origin, then its 8 neighbours; Quarto: 16, 15
CASES = {
    ("folio", "standard"): ([4, 48], FOLIO_COUNTS, [12, 544, 278784]),
    ("folio", "fixed-grid"): ([16, 15], FOLIO_COUNTS, [12, 2176, 348480]),
    ("folio", "no-grid"): ([1, 8], FOLIO_COUNTS, [12, 136, 11616]),
    ("quarto", "standard"): ([16, 15], (1,) * 16, [16, 3840, 806400]),
}


def test_folio_default_piece_counts() -> None:
    game = fourfold.load("folio")
    assert game.pieces.counts == FOLIO_COUNTS
    assert Counter(game.pieces.counts) == {1: 8, 2: 4}
    assert sum(game.pieces.counts) == 16


@pytest.mark.parametrize("case", list(CASES), ids=lambda c: f"{c[0]}-{c[1]}")
def test_perft_pinned_and_closed_form(case: tuple[str, str]) -> None:
    placements, counts, pinned = CASES[case]
    assert closed_form(placements, counts) == pinned
    game = fourfold.load(*case)
    assert [n for _, n in perft_table(game, 3)] == pinned


@pytest.mark.parametrize("line_rule", ["colours-or-sizes", "same-colour-or-size"])
def test_line_rule_does_not_change_early_counts(line_rule: str) -> None:
    game = fourfold.load("folio", "fixed-grid", line_rule=line_rule)
    assert [n for _, n in perft_table(game, 3)] == CASES[("folio", "fixed-grid")][2]


def test_perft_cli_prints_depth_and_count(capsys: pytest.CaptureFixture[str]) -> None:
    from fourfold.cli.main import main

    assert main(["perft", "folio", "--variant", "no-grid", "3"]) == 0
    assert capsys.readouterr().out.split("\n")[:3] == ["1 12", "2 136", "3 11616"]
