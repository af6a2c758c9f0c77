"""An independent replay of a Quatrefoil team of bots over every deal, through the rules.

Written apart from ``fourfold.games.quatrefoil.solver_team.evaluate``: it enumerates the
deals itself, builds each referee state with the engine's own ``Deal`` and
``QuatrefoilState``, gives each seat's bot only ``game.view(state, seat)``, applies
moves with ``game.apply`` and reads the end from ``game.outcome``. It shares with the
evaluator only the bot under test.

    .venv/bin/python tests/support/quatrefoil_team_replay.py [--bot optimal] [--face-up none]

prints the totals as JSON; ``tests/test_quatrefoil_team.py`` runs it on samples and
compares deal by deal with the evaluator.
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import permutations
from typing import Any

from fourfold.ai import make_bot
from fourfold.core.outcome import Result
from fourfold.core.registry import load
from fourfold.games.quatrefoil.state import Deal, QuatrefoilState

Arr = tuple[int, int, int, int, int]
EVERY_ARRANGEMENT: list[Arr] = [(a, b, c, d, e) for a, b, c, d, e in permutations(range(5))]
EVERY_DEALING: list[tuple[int, int, int, int]] = [
    (a, b, c, d) for a, b, c, d in permutations(range(4))
]


def game_for(face_up: str) -> Any:
    if face_up == "none":
        return load("quatrefoil", "base")
    if face_up == "all":
        return load("quatrefoil", "nothing-to-hide")
    return load("quatrefoil", "half-and-half", **{"face-up": face_up})


def every_deal(face_up: str) -> list[tuple[Arr, Arr, tuple[int, int, int, int]]]:
    """(start, solution, position cards): the cases the evaluator's figures average over,
    enumerated here from their description in docs/solutions.md."""
    first = EVERY_ARRANGEMENT[0]
    if face_up == "none":
        return [(first, s, p) for s in EVERY_ARRANGEMENT[1:] for p in EVERY_DEALING]
    if face_up == "position":
        return [(first, s, (0, 1, 2, 3)) for s in EVERY_ARRANGEMENT[1:]]
    if face_up == "all":
        return [(s, first, (0, 1, 2, 3)) for s in EVERY_ARRANGEMENT[1:]]
    out: list[tuple[Arr, Arr, tuple[int, int, int, int]]] = []
    for start in EVERY_ARRANGEMENT:
        for p in EVERY_DEALING:
            # seat k holds colour k: token k belongs on corner p[k]; token 4 is north
            solution = (p.index(0), p.index(1), p.index(2), p.index(3), 4)
            if solution != start:
                out.append((start, solution, p))
    return out


def replay(game: Any, bot: str, start: Arr, solution: Arr,
           positions: tuple[int, int, int, int], limit: int = 200) -> tuple[int, bool]:
    """(actions, won) of four ``bot`` seats on one deal, through the engine."""
    state = QuatrefoilState(Deal(solution, positions), start)
    seats = [make_bot(bot, game, k, 0) for k in range(4)]
    while game.outcome(state) is None and state.version < limit:
        seat = game.to_move(state)
        state = game.apply(state, seats[seat].choose(game.view(state, seat)))
    outcome = game.outcome(state)
    return state.version, outcome is not None and outcome.result is Result.TEAM_WIN


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="optimal")
    parser.add_argument("--face-up", default="none", choices=("none", "colour", "position", "all"))
    args = parser.parse_args()
    began = time.perf_counter()
    game = game_for(args.face_up)
    total = won = n = 0
    for start, solution, positions in every_deal(args.face_up):
        actions, win = replay(game, args.bot, start, solution, positions)
        total += actions
        won += win
        n += 1
    print(json.dumps({"bot": args.bot, "face_up": args.face_up, "cases": n, "won": won,
                      "total_actions": total, "seconds": round(time.perf_counter() - began, 1)}))


if __name__ == "__main__":
    main()
