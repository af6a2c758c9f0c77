"""One seat's observation planes and legal-action mask from a kernel row, compiled.

The AEC env's fast path for the games with a kernel (``fourfold.envs.observe.
CompiledEncoder``): the view's position is loaded into the kernel's arrays and the
vector env's family functions (``fourfold.envs.vector_kernels``) write the same tensor as
the readable encoder and the mask of the seat's legal actions (all zeros when the seat
does not act). Kept in a file of its own so that numba's cache of the vector kernels does
not depend on it.
"""

from __future__ import annotations

from numba import njit

from fourfold.envs import vector_kernels as vk
from fourfold.kernels.jit import inlined


@inlined
def _view(t, ot, x, h, keys, buf, viewer, o, mask, legal, status, observe):  # type: ignore[no-untyped-def]
    for j in range(mask.shape[0]):
        mask[j] = 0
    mover, _ = status(t, x)
    if mover >= 0 and mover == viewer:
        count = legal(t, x, h, keys, buf)
        for j in range(count):
            mask[buf[j]] = 1
    observe(t, ot, x, keys, viewer, o, vk.FULL)


@njit(cache=True)
def pl_view(t, ot, x, h, keys, buf, viewer, o, mask):  # type: ignore[no-untyped-def]
    _view(t, ot, x, h, keys, buf, viewer, o, mask, vk.pl_legal, vk.pl_status, vk.pl_observe)


@njit(cache=True)
def dao_view(t, ot, x, h, keys, buf, viewer, o, mask):  # type: ignore[no-untyped-def]
    _view(t, ot, x, h, keys, buf, viewer, o, mask, vk.dao_legal, vk.dao_status,
          vk.dao_observe)


@njit(cache=True)
def ice_view(t, ot, x, h, keys, buf, viewer, o, mask):  # type: ignore[no-untyped-def]
    _view(t, ot, x, h, keys, buf, viewer, o, mask, vk.ice_legal, vk.ice_status,
          vk.ice_observe)
