"""Positions to draw in the SVG tests and screenshots: starts, mid-games and won games.

Each case is ``(label, game, view, last_move)``. Positions come from seeded random
play (so they are reproducible), plus hand-made Folio freeform positions, where
random play on a continuous table says little.
"""

from __future__ import annotations

import math
import random
from typing import Any

import fourfold
from fourfold.core.game import Game, View
from fourfold.core.outcome import Result
from fourfold.games.folio.freeform.fitting import Grid
from fourfold.games.folio.freeform.notation import format_point

Case = tuple[str, Game[Any, Any], View, Any]


def random_play(game: Game[Any, Any], seed: int, plies: int | None) -> tuple[Any, Any]:
    """The state after ``plies`` random plies (``None``: to the end) and the last move."""
    rng = random.Random(seed)
    state = game.initial_state(seed)
    last = None
    count = 0
    while not game.is_over(state) and (plies is None or count < plies) and count < 300:
        moves = list(game.legal_moves(state))
        if plies is not None:  # a mid-game: keep the game going where possible
            going = [m for m in moves if not game.is_over(game.apply(state, m))]
            moves = going or moves
        last = rng.choice(moves)
        state = game.apply(state, last)
        count += 1
    return state, last


def won_by_random_play(game: Game[Any, Any], attr: str, seeds: int = 200) -> tuple[Any, Any]:
    """The first random game (by seed) that ends in a win with ``state.<attr>`` set."""
    for seed in range(seeds):
        state, last = random_play(game, seed, None)
        outcome = game.outcome(state)
        if outcome is not None and outcome.result is Result.WIN and getattr(state, attr, None):
            return state, last
    raise AssertionError(f"no won {game.name} game with {attr} in {seeds} seeds")


def on_grid(angle: float, scale: float, cells: list[tuple[int, int]]) -> list[str]:
    """Cell centres of a turned, scaled grid whose first cell's centre is at 0,0."""
    base = Grid((0.0, 0.0), math.radians(angle), scale, ())
    x0, y0 = base.centre(cells[0])
    grid = Grid((-x0, -y0), math.radians(angle), scale, ())
    return [format_point((round(x, 6), round(y, 6))) for x, y in map(grid.centre, cells)]


def freeform_cases() -> list[Case]:
    game = fourfold.load("folio", "freeform")
    cases: list[Case] = []
    start = game.initial_state()
    cases.append(("start", game, game.view(start, None), None))
    state = game.parse_position("0.0,0.0=Rs;1.1,0.2=Gm Bl")
    move = game.parse_move(state, "0.3,1.2 Yl")
    cases.append(("undecided", game, game.view(game.apply(state, move), None), move))
    points = on_grid(30.0, 1.3, [(0, 1), (1, 1), (2, 1), (3, 1), (1, 2), (2, 3)])
    text = ";".join(f"{p}={k}" for p, k in zip(points[:3], ["Rs", "Ym", "Gl"], strict=True))
    state = game.parse_position(f"{text};{points[4]}=Rm;{points[5]}=Gs Bs")
    move = game.parse_move(state, points[3])
    cases.append(("won", game, game.view(game.apply(state, move), None), move))
    state = game.parse_position("0.0,0.0=Rs;1.0,0.0=Rs;2.0,0.0=Ym;3.0,0.0=Ym Yl")
    state = game.play(state, "4.0,0.0 Bm")
    move = game.parse_move(state, "challenge")
    cases.append(("challenged", game, game.view(game.apply(state, move), None), move))
    return cases


WIN_ATTRIBUTE = {"folio": "line", "quarto": "line", "icedao": "line", "dao": "formation"}


def all_cases() -> list[Case]:
    """Every playable ruleset: its start, a mid-game, and (where it can be won) a win."""
    cases: list[Case] = []
    for name in fourfold.game_names():
        for variant in fourfold.get_spec(name).variants:
            if variant.unavailable is not None:
                continue
            game = fourfold.load(name, variant.name)
            label = f"{name}-{variant.name}"
            if (name, variant.name) == ("folio", "freeform"):
                cases.extend((f"{label}-{tag}", g, v, m) for tag, g, v, m in freeform_cases())
                continue
            start = game.initial_state(1)
            cases.append((f"{label}-start", game, game.view(start, None), None))
            mid, last = random_play(game, 7, 6)
            cases.append((f"{label}-mid", game, game.view(mid, None), last))
            if name in WIN_ATTRIBUTE:
                won, last = won_by_random_play(game, WIN_ATTRIBUTE[name])
                cases.append((f"{label}-won", game, game.view(won, None), last))
            else:
                end, last = random_play(game, 3, None)
                cases.append((f"{label}-end", game, game.view(end, None), last))
    return cases
