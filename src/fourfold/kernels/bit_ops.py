"""``popcount(word)`` and ``low_bit_index(word)``: one machine instruction each, for
compiled code.

numba has no population count or trailing-zero count of its own for integers; these emit
LLVM's ``ctpop`` and ``cttz``. They replace a loop whose length depends on the word
(``m &= m - 1`` per set bit, a branch the CPU mispredicts) and a look-up of
``low % 37`` (a division's latency) at every node of the exact placement search.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.extending import intrinsic


def _popcount(typingctx: Any, word: Any) -> Any:
    """The number of bits set in ``word`` (an integer)."""
    if not isinstance(word, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return word(word), codegen


def _low_bit_index(typingctx: Any, word: Any) -> Any:
    """The index of the lowest bit set in ``word``: ``i`` for ``1 << i`` (the word's width
    for 0)."""
    if not isinstance(word, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return word(word), codegen


popcount: Any = intrinsic(_popcount)
low_bit_index: Any = intrinsic(_low_bit_index)
