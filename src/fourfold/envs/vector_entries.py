"""A family's compiled entry points, written once for every game.

A game's ``observe_vector`` module writes its eight family functions
(``fourfold.envs.vector_kernels``) and hands them to ``entry_points``, which compiles
the templates below as functions of that module (``fourfold.kernels.jit.specialise``)
with the game's functions in place of the placeholder names: numba calls them by name,
so it inlines the hot ones and caches every entry point beside the game's module.

* ``move``: the opponent's move (``choose``), without reference counting, compiled once
  and called by ``reset`` and ``choose``: inlined into each, it was most of each one's
  cold compile. ``block`` inlines it (``move_inline``), where a call cost a step against
  the level-3 bot about 7% of its speed;
* ``block``: games ``lo .. hi - 1`` stepped (``step_block``), without reference counting:
  the row views taken per game then cost no atomic updates of the shared arrays' counts;
* ``step``: the whole batch on the calling thread; ``step_threads``: in ``BLOCKS``
  blocks that numba's threads take in turn;
* ``reset``: every game afresh (``reset_block``);
* ``choose``: the opponent's move once; ``classify``: the moves split as the greedy bot
  splits them (for the tests);
* ``view``: one seat's observation and mask (``CompiledEncoder``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit, prange

from fourfold.envs.vector_kernels import (
    BLOCKS,
    choose,
    classify,
    reset_block,
    seat_view,
    step_block,
)
from fourfold.kernels.jit import inlined, no_refcount, specialise

# The family's functions (and the step's ``block``): placeholders that ``entry_points``
# binds to one game's own in each compiled copy of the templates.
legal: Any = None
apply: Any = None
push: Any = None
pop: Any = None
status: Any = None
wins_now: Any = None
observe: Any = None
track: Any = None
move: Any = None
block: Any = None


@dataclass(frozen=True)
class EntryPoints:
    """One family's compiled entry points (``Family.kernels`` and ``Family.view``)."""

    kernels: tuple[Any, ...]  # step (one thread), step (threads), reset, choose, classify
    view: Any


def entry_points(module: str, prefix: str, **functions: Any) -> EntryPoints:
    """The entry points of the family whose functions (``legal``, ``apply``, ``push``,
    ``pop``, ``status``, ``wins_now``, ``observe``, ``track``) are ``functions``, compiled
    as ``<prefix>_step`` and so on in ``module`` (the game's ``observe_vector``)."""
    expected = {"legal", "apply", "push", "pop", "status", "wins_now", "observe", "track"}
    if set(functions) != expected:  # invariant: every family names its eight functions
        raise ValueError(f"a family names {sorted(expected)}, not {sorted(functions)}")

    def compiled(template: Any, jit: Any, **more: Any) -> Any:
        return specialise(template, module, f"{prefix}_{template.__name__.strip('_')}", jit,
                          **functions, **more)

    # the opponent's move: compiled once (``move``) for the reset and ``choose``, into each
    # of which it was inlined (most of their cold compile); the step still inlines it
    # (``move_inline``: called, it made a step against the level-3 bot about 7% slower)
    move_fn = compiled(_move, no_refcount)
    step_block_fn = compiled(_block, no_refcount, move=compiled(_move_inline, inlined))
    return EntryPoints(
        (compiled(_step, njit(cache=True), block=step_block_fn),
         compiled(_step_threads, njit(parallel=True, cache=True), block=step_block_fn),
         compiled(_reset, njit(cache=True), move=move_fn),
         compiled(_choose, njit(cache=True), move=move_fn),
         compiled(_classify, njit(cache=True))),
        compiled(_view, njit(cache=True)))


# -- the templates (plain functions: ``entry_points`` compiles a copy per family) ----------


def _block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
           lists, counts, to_move, obs, final, rewards, flags):
    step_block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,
               lists, counts, to_move, obs, final, rewards, flags,
               legal, apply, status, move, observe, track)


def _step(t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
          lists, counts, to_move, obs, final, rewards, flags):
    # ``np.int64(0)``, not ``0``: numba would type a literal 0 as ``Literal[int](0)`` and
    # compile ``block`` once for it and again for the threaded step's int64 bounds
    block(np.int64(0), xs.shape[0], t, ot, xs, x0, hs, keys, actions, cfg, learner, steps,
          rngs, masks, lists, counts, to_move, obs, final, rewards, flags)


def _step_threads(t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
                  lists, counts, to_move, obs, final, rewards, flags):
    n = xs.shape[0]
    blocks = min(n, BLOCKS)
    for b in prange(blocks):
        block(b * n // blocks, (b + 1) * n // blocks, t, ot, xs, x0, hs, keys, actions,
              cfg, learner, steps, rngs, masks, lists, counts, to_move, obs, final, rewards,
              flags)


def _reset(t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks, lists, counts,  # type: ignore[no-untyped-def]
           to_move, obs):
    reset_block(0, xs.shape[0], t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks,
                lists, counts, to_move, obs,
                legal, apply, status, move, observe, track)


def _move(t, x, h, keys, buf, reply, rs, mode, attention):  # type: ignore[no-untyped-def]
    return choose(t, x, h, keys, buf, reply, rs, mode, attention,
                  legal, push, pop, status, wins_now)


def _move_inline(t, x, h, keys, buf, reply, rs, mode, attention):  # type: ignore[no-untyped-def]
    return choose(t, x, h, keys, buf, reply, rs, mode, attention,
                  legal, push, pop, status, wins_now)


def _choose(t, x, h, keys, buf, reply, rs, mode, attention):  # type: ignore[no-untyped-def]
    return move(t, x, h, keys, buf, reply, rs, mode, attention)


def _classify(t, x, h, keys, buf, reply):  # type: ignore[no-untyped-def]
    count = legal(t, x, h, keys, buf)
    me, _ = status(t, x)
    classify(t, x, h, keys, buf, reply, count, me, push, pop, status, wins_now)
    return count


def _view(t, ot, x, h, keys, buf, viewer, o, mask):  # type: ignore[no-untyped-def]
    seat_view(t, ot, x, h, keys, buf, viewer, o, mask, legal, status, observe)
