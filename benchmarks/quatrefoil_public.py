"""Quatrefoil's optimum on public information, and what it says about the bots.

    .venv/bin/python benchmarks/quatrefoil_public.py [--deals 10000] [--first-seed 1000000]

Prints, for the base game and the face-up variants, the exact least expected number
of actions of a team that chooses every action from public information only (start,
actions, every seat's signal, face-up cards), from ``fourfold.games.quatrefoil.solver_public``,
with the time the search took. Then, for the base game:

* the optimal public policy played on every one of the 2,856 deals from one start:
  how many games take how many actions (its mean is the exact value);
* the bots' own one-step rule (``score_action`` with the same curiosity) fed public
  information only, on the same 2,856 deals: what a heuristic loses to the optimum;
* the optimal public policy through the engine on the seeds that
  ``benchmarks/quatrefoil_bots.py`` uses, so its sample mean can be set beside the
  bots' measured mean on the very same deals.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from itertools import permutations

import fourfold
from fourfold.core.outcome import Result
from fourfold.games.quatrefoil.arrangement import (
    ALL_ARRANGEMENTS,
    INDEX,
    MOVING_ACTIONS,
    STACK,
    Arrangement,
    act,
    format_arrangement,
    parse_arrangement_text,
)
from fourfold.games.quatrefoil.bots_seat import DEFAULT_CURIOSITY, score_action
from fourfold.games.quatrefoil.deals import DEALS, signal_pattern
from fourfold.games.quatrefoil.solver_public import best_action, public_optimum
from fourfold.games.quatrefoil.state import Action, Deal, QuatrefoilState

LABELS = (
    ("none", "base (and race-the-clock, clock aside)"),
    ("colour", "half-and-half, colour cards up"),
    ("position", "half-and-half, position cards up"),
    ("all", "nothing-to-hide (full information)"),
)
START = "RGBY/P"
CAP = 60  # a policy still playing after this many actions is counted as stuck
#: A public policy: (start, actions so far, signals after the deal and each action) -> action
Chooser = Callable[[Arrangement, tuple[int, ...], tuple[tuple[bool, ...], ...]], int]


def all_deals(start: Arrangement) -> list[Deal]:
    return [Deal(s, (p[0], p[1], p[2], p[3]))
            for s in ALL_ARRANGEMENTS if s != start for p in permutations(range(4))]


def play(start: Arrangement, deal: Deal, choose: Chooser) -> int:
    """Actions a public policy takes to win (``CAP + 1`` if it never stacks in time)."""
    state = QuatrefoilState(deal, start)
    actions: list[int] = []
    signals: list[tuple[bool, ...]] = [state.signals(start)]
    here = start
    while len(actions) <= CAP:
        action = choose(start, tuple(actions), tuple(signals))
        actions.append(action)
        if action == STACK:
            assert here == deal.solution, "a public policy stacked on an unsolved deal"
            return len(actions)
        here = act(here, action)
        signals.append(state.signals(here))
    return CAP + 1


def optimal_choice(start: Arrangement, actions: tuple[int, ...],
                   signals: tuple[tuple[bool, ...], ...]) -> int:
    return best_action(start, actions, signals)


_heuristic: dict[tuple[tuple[int, ...], tuple[tuple[bool, ...], ...]], int] = {}


def heuristic_choice(start: Arrangement, actions: tuple[int, ...],
                     signals: tuple[tuple[bool, ...], ...]) -> int:
    """The bots' one-step rule on the deals consistent with public information only."""
    key = (actions, signals)
    if key in _heuristic:
        return _heuristic[key]
    here = start
    arrangements = [here]
    for a in actions:
        here = act(here, a)
        arrangements.append(here)
    deals = [d for d, (s, _) in enumerate(DEALS) if ALL_ARRANGEMENTS[s] != start]
    for arrangement, seen in zip(arrangements, signals, strict=True):
        want = sum(1 << k for k in range(4) if seen[k])
        i = INDEX[arrangement]
        deals = [d for d in deals if signal_pattern(i, d) == want]
    i = INDEX[here]
    if all(DEALS[d][0] == i for d in deals):
        choice = STACK
    else:
        choice = min(MOVING_ACTIONS,
                     key=lambda a: (score_action(i, a, deals, DEFAULT_CURIOSITY), a))
    _heuristic[key] = choice
    return choice


def histogram(counts: list[int]) -> str:
    c = Counter(counts)
    return ", ".join(f"{k}: {c[k]}" for k in sorted(c))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000,
                        help="seeded engine deals for the comparison with the bots")
    parser.add_argument("--first-seed", type=int, default=1_000_000)
    args = parser.parse_args(argv)

    print("| cards face up | optimum on public information | decimal |"
          " belief states in the memo (cumulative) | seconds |")
    print("|---|---:|---:|---:|---:|")
    for face_up, label in LABELS:
        r = public_optimum(face_up)
        print(f"| {label} | {r.value} | {float(r.value):.4f} | {r.beliefs:,} |"
              f" {r.seconds:.1f} |", flush=True)

    start = parse_arrangement_text(START)
    deals = all_deals(start)
    policies: tuple[tuple[str, Chooser], ...] = (
        ("optimal public policy", optimal_choice),
        ("bots' one-step rule on public information", heuristic_choice),
    )
    for name, choose in policies:
        began = time.perf_counter()
        counts = [play(start, d, choose) for d in deals]
        stuck = sum(1 for n in counts if n > CAP)
        print(f"\n{name}, all {len(deals):,} deals from {format_arrangement(start)}:"
              f" mean {statistics.fmean(counts):.4f} actions, worst {max(counts)},"
              f" stuck {stuck} ({time.perf_counter() - began:.1f} s)")
        print(f"  games by number of actions: {histogram(counts)}")

    game = fourfold.load("quatrefoil")
    began = time.perf_counter()
    played = []
    for seed in range(args.first_seed, args.first_seed + args.deals):
        state = game.initial_state(seed)
        while game.outcome(state) is None:
            seat = game.to_move(state)
            assert seat is not None
            obs = game.view(state, seat).observation
            move = best_action(obs.start, [a for _, a in obs.history], obs.signals)
            state = game.apply(state, Action(move))
        outcome = game.outcome(state)
        assert outcome is not None and outcome.result is Result.TEAM_WIN
        played.append(state.version)
    print(f"\noptimal public policy through the engine, seeds {args.first_seed:,}.."
          f"{args.first_seed + args.deals - 1:,}: mean {statistics.fmean(played):.3f} actions,"
          f" worst {max(played)}, all won ({time.perf_counter() - began:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
