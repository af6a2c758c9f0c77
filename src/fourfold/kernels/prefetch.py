"""``prefetch_row(table, row)``: ask the CPU to bring a row of a 2-D array into its cache.

The search's transposition table is larger than the caches, so its probe waits for memory:
about a quarter of a placement search's time, sampled on the compare that reads the slot.
Fetching the child's slot as soon as the child is pushed lets that wait overlap the work the
node does before probing (its terminal tests). A hint only: it changes no value.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_I32 = ir.IntType(32)


def _prefetch_row(typingctx: Any, table: Any, row: Any) -> Any:
    """Prefetch (for reading, into every cache level) the start of ``table[row]``; ``row``
    must be a valid row (no check is made)."""
    if not isinstance(table, types.Array) or not isinstance(row, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        stride = cgutils.unpack_tuple(  # type: ignore[no-untyped-call]
            builder, array.strides, array_type.ndim)[0]
        offset = builder.mul(context.cast(builder, args[1], signature.args[1], types.intp),
                             stride)
        base = builder.bitcast(array.data, ir.IntType(8).as_pointer())
        pointer = builder.gep(base, [offset])
        function = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, ir.FunctionType(ir.VoidType(), [pointer.type, _I32, _I32, _I32]),
            "llvm.prefetch.p0")
        # read (0), keep in every level (3), data cache (1)
        builder.call(function, [pointer, ir.Constant(_I32, 0), ir.Constant(_I32, 3),
                                ir.Constant(_I32, 1)])
        return context.get_dummy_value()

    return types.void(table, row), codegen


prefetch_row: Any = intrinsic(_prefetch_row)
