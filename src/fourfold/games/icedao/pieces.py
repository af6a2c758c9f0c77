"""Ice Dao's pyramids and stacks.

A piece is ``colour * 3 + size``: colours Blue 0 and Green 1 (letters ``B``
``G``), sizes small 0, medium 1, large 2 (letters ``s`` ``m`` ``l``), so
``Gl`` is a large green. A stack is a tuple of pieces from the bottom up;
pieces only ever land on larger ones, so sizes strictly fall going up and the
top piece is always the smallest. Each side has two pieces of each size.
"""

from __future__ import annotations

from itertools import combinations, product

Piece = int
Stack = tuple[Piece, ...]

COLOURS = "BG"
COLOUR_NAMES = ("Blue", "Green")
SIZES = "sml"
SIZE_NAMES = ("small", "medium", "large")
COPIES = 2  # of each colour and size


def colour(piece: Piece) -> int:
    return piece // 3


def size(piece: Piece) -> int:
    return piece % 3


def make(colour_index: int, size_index: int) -> Piece:
    return colour_index * 3 + size_index


def piece_name(piece: Piece) -> str:
    return COLOURS[colour(piece)] + SIZES[size(piece)]


def describe(piece: Piece) -> str:
    """``small Green`` for messages."""
    return f"{SIZE_NAMES[size(piece)]} {COLOUR_NAMES[colour(piece)]}"


def stack_name(stack: Stack) -> str:
    """A stack bottom to top (``GlBs``); the empty stack is ``''``."""
    return "".join(piece_name(p) for p in stack)


def parse_stack(text: str) -> Stack:
    """``GlBs`` -> the stack; ``ValueError`` saying why the stack cannot exist."""
    if len(text) % 2:
        raise ValueError(
            f"{text!r} is not a stack: write each piece as a colour B or G and a size s, m or l,"
            " bottom to top (e.g. GlBs)"
        )
    stack: list[Piece] = []
    for i in range(0, len(text), 2):
        c, s = text[i], text[i + 1]
        if c not in "BbGg" or s not in "SsMmLl":
            raise ValueError(
                f"{text[i:i + 2]!r} in {text!r} is not a piece: a colour B or G then a size"
                " s, m or l (e.g. Gl)"
            )
        piece = make(COLOURS.index(c.upper()), SIZES.index(s.lower()))
        if stack and size(stack[-1]) <= size(piece):
            below = stack[-1]
            if size(below) == size(piece):
                why = f"two {SIZE_NAMES[size(piece)]} pieces cannot be stacked (equal sizes)"
            else:
                why = (f"a {SIZE_NAMES[size(piece)]} cannot stand on a {SIZE_NAMES[size(below)]}"
                       " (stacks go smaller on larger)")
            raise ValueError(f"{text!r}: {why}")
        stack.append(piece)
    return tuple(stack)


def _all_stacks() -> list[Stack]:
    stacks: list[Stack] = [()]
    for height in (1, 2, 3):
        for sizes in combinations((2, 1, 0), height):  # bottom to top: larger first
            for colours in product((0, 1), repeat=height):
                stacks.append(tuple(make(c, s) for c, s in zip(colours, sizes, strict=True)))
    return stacks


#: one character per possible stack, for compact position keys (repetition counting)
STACK_CODE: dict[Stack, str] = {st: chr(ord("A") + i) for i, st in enumerate(_all_stacks())}
