"""The tray under a placement board: the piece in hand, boxed, and the pieces left to
give, each in a slot of its own.

Every kind of piece has a fixed slot (kinds in the rules' order, as many to a row as
fit), so a piece never moves when another is given, and a kind that is gone leaves
its slot empty (a dashed outline). A slot is at least ``TAP`` units square, and the
piece's group holds a transparent rectangle the size of its slot (the piece in hand:
its box): on a phone the page's tap target for a piece is its whole slot (44 CSS px
or more, WCAG 2.5.5), however small the pyramid drawn in it. A kind with more than
one piece left shows its count (``×2``) under the piece, in a band of its own, so that
the count never covers a piece.

On a wide window the page may show the tray beside the board instead (``Beside``,
``beside``): the picture then carries both layouts. Each part of the tray that moves
sits in a group whose ``data-wide-at="dx dy"`` says how far, the labels and the
tray's frame are drawn twice (``narrow-only``, ``wide-only``), and ``Canvas.wide``
gives the wider picture's size (render/svg/canvas.py). A picture shown elsewhere
(a file, the rules page) is the narrow one.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fourfold.render.svg.canvas import Canvas, fmt
from fourfold.render.svg.common import (
    LABEL_FONT,
    LAPTOP_BOARD,
    PAD,
    TAP,
    PieceDrawer,
    fit_text,
    text_width,
)

#: the side of the box that holds the piece in hand
HAND_BOX = 56.0
#: the gap between the hand box and the slots, and around the labels
GAP = 12.0
#: the height of a line of labels (their baseline sits LABEL_FONT below its top)
LABEL_LINE = 20.0
#: the height of the band under a row of slots that holds the counts (``×2``)
COUNT_BAND = 14.0
#: a piece is drawn this much of its slot (its unit: a large Folio pyramid is 0.86 of it)
PIECE_SCALE = 0.92


@dataclass(frozen=True)
class TrayLayout:
    """Where everything of a tray goes: ``x``, ``width`` (the tray's), ``kinds`` (how
    many kinds of piece, gone ones included), ``counted`` (whether any kind has more
    than one piece: then each row has a count band), ``one_line`` (both labels on one
    line), ``labelled`` (the height a piece's own label takes under it, as Quarto's
    code: a slot is that much taller, and its piece drawn that much larger)."""

    x: float
    width: float
    kinds: int
    counted: bool
    one_line: bool
    labelled: float = 0.0

    @property
    def slots_left(self) -> float:
        return self.x + HAND_BOX + GAP

    @property
    def per_row(self) -> int:
        return max(1, min(self.kinds, int((self.x + self.width - self.slots_left) // TAP)))

    @property
    def slot(self) -> float:
        """The side of a slot: the room there is, shared out, never under ``TAP``."""
        room = self.x + self.width - self.slots_left
        return max(TAP, min(room / self.per_row, TAP * 1.35))

    @property
    def rows(self) -> int:
        return max(1, math.ceil(self.kinds / self.per_row))

    @property
    def piece_height(self) -> float:
        """The height of a slot's piece with its own label."""
        return self.slot + self.labelled

    @property
    def row_height(self) -> float:
        return self.piece_height + (COUNT_BAND if self.counted else 0.0)

    @property
    def labels(self) -> float:
        """The height of the label lines above the box and the slots."""
        return LABEL_LINE * (1 if self.one_line else 2)

    @property
    def height(self) -> float:
        return self.labels + max(HAND_BOX, self.rows * self.row_height + 4)


def layout(x: float, width: float, supply: Sequence[int], hand_label: str,
           left_label: str, labelled: float = 0.0) -> TrayLayout:
    """The layout of a tray ``width`` wide at ``x`` for ``supply`` (a count per kind)."""
    need = (fit_text(hand_label, width, LABEL_FONT, bold=True)[1] + 2 * GAP
            + fit_text(left_label, width, LABEL_FONT, bold=True)[1])
    counted = any(n > 1 for n in supply)
    return TrayLayout(x, width, len(supply), counted, need <= width, labelled)


def tray_height(x: float, width: float, supply: Sequence[int], hand_label: str,
                labelled: float = 0.0) -> float:
    """The height ``tray`` takes (without a margin below)."""
    return layout(x, width, supply, hand_label, left_label(supply), labelled).height


def left_label(supply: Sequence[int]) -> str:
    total = sum(supply)
    return f"Left to give ({total})" if total else "Nothing left to give"


@dataclass(frozen=True)
class Beside:
    """The tray as a column beside the board: its top left ``x``, ``y``, ``per_row``
    slots a row, and the ``width`` and ``height`` it takes."""

    x: float
    y: float
    per_row: int
    width: float
    height: float
    #: the hand's label, on as many lines as the column needs (two at most)
    hand_lines: tuple[str, ...] = ()


def _column(plan: TrayLayout, x: float, y: float, per_row: int, hand_label: str) -> Beside:
    rows = math.ceil(plan.kinds / per_row)
    left = text_width(left_label([2] * plan.kinds), LABEL_FONT, bold=True)  # two digits
    width = max(HAND_BOX, per_row * plan.slot + 4, left)
    lines: tuple[str, ...] = (hand_label,)
    if text_width(hand_label, LABEL_FONT, bold=True) > width:  # "In hand" over "(Bot ...)"
        head, _, rest = hand_label.partition(" (")
        lines = tuple(fit_text(line, width, LABEL_FONT, bold=True)[0]
                      for line in (head, f"({rest}" if rest else "") if line)
    height = (len(lines) + 1) * LABEL_LINE + HAND_BOX + GAP + rows * plan.row_height + 4
    return Beside(x, y, per_row, width, height, lines)


def beside(x: float, width: float, supply: Sequence[int], hand_label: str, *,
           at: tuple[float, float], below: float, labelled: float = 0.0) -> Beside:
    """The tray ``tray(x=x, width=width)`` would draw, as a column with its top left at
    ``at`` beside a board whose picture ends at ``below``: as many slots a row as make
    the whole picture largest in a laptop's board column (``LAPTOP_BOARD``)."""
    plan = layout(x, width, supply, hand_label, left_label(supply), labelled)
    best: tuple[float, Beside] | None = None
    for per_row in range(1, plan.kinds + 1):
        column = _column(plan, at[0], at[1], per_row, hand_label)
        wide = (at[0] + column.width + PAD, max(below, at[1] + column.height) + PAD)
        scale = min(LAPTOP_BOARD[0] / wide[0], LAPTOP_BOARD[1] / wide[1])
        if best is None or scale > best[0] + 1e-9:
            best = (scale, column)
    assert best is not None
    return best[1]


def tray(canvas: Canvas, x: float, y: float, width: float, *, hand: int | None,
         hand_label: str, supply: Sequence[int], names: Callable[[int], str],
         describe: Callable[[int], str], draw_piece: PieceDrawer, hand_given: bool,
         labelled: float = 0.0, wide: Beside | None = None) -> float:
    """Draws the tray with its top at ``y``; returns the y below it.

    ``hand_given`` marks the hand piece as the one the last move gave (a dashed frame,
    as every last-move mark); ``labelled`` is the height of a piece's own label;
    ``wide`` (from ``beside``) where the page may move the tray on a wide window."""
    words = left_label(supply)
    plan = layout(x, width, supply, hand_label, words, labelled)
    narrow = " narrow-only" if wide else ""
    hand_text = fit_text(hand_label, width, LABEL_FONT, bold=True)[0]
    canvas.text(x, y + LABEL_FONT, hand_text, cls="label strong" + narrow)
    if plan.one_line:
        canvas.text(x + width, y + LABEL_FONT, words, cls="label strong" + narrow,
                    text_anchor="end")
    else:
        canvas.text(plan.slots_left, y + LABEL_LINE + LABEL_FONT, words,
                    cls="label strong" + narrow)
    top = y + plan.labels
    slot, per_row = plan.slot, plan.per_row
    # on a wide window: the hand's box under its label, then the slots under theirs
    hand_top = 0.0 if wide is None else wide.y + LABEL_LINE * len(wide.hand_lines)
    slots_top = 0.0 if wide is None else hand_top + HAND_BOX + GAP + LABEL_LINE

    def part(dx: float, dy: float) -> ET.Element | None:
        """The group of a part of the tray that moves on a wide window (None: the root)."""
        if wide is None:
            return None
        return canvas.group(data={"wide-at": f"{fmt(dx)} {fmt(dy)}"})

    if wide is not None:
        for n, line in enumerate(wide.hand_lines):
            canvas.text(wide.x, wide.y + n * LABEL_LINE + LABEL_FONT, line,
                        cls="label strong wide-only")
        canvas.text(wide.x, slots_top - LABEL_LINE + LABEL_FONT,
                    fit_text(words, wide.width, LABEL_FONT, bold=True)[0],
                    cls="label strong wide-only")
        columns = min(plan.kinds, wide.per_row)
        canvas.rect(wide.x, slots_top, columns * slot + 4,
                    math.ceil(plan.kinds / wide.per_row) * plan.row_height + 4,
                    cls="tray wide-only", rx=6)
    box = HAND_BOX
    held = part(wide.x - x, hand_top - top) if wide else None
    canvas.rect(x, top, box, box, cls="hand", rx=6, parent=held)
    if hand is not None:
        g = canvas.group(held, cls="piece hand-piece",
                         data={"piece": names(hand), "role": "hand"},
                         tip=f"in hand: {describe(hand)}")
        canvas.rect(x, top, box, box, cls="tap", parent=g, fill="transparent")
        draw_piece(canvas, g, x + box / 2, top + box / 2, box * 0.8, hand)
        if hand_given:
            canvas.rect(x - 4, top - 4, box + 8, box + 8, cls="last", rx=8, parent=held)
    else:
        canvas.text(x + box / 2, top + box / 2 + 4, "—", cls="label", text_anchor="middle",
                    parent=held)
    canvas.rect(plan.slots_left - 2, top, min(plan.kinds, per_row) * slot + 4,
                plan.rows * plan.row_height + 4, cls="tray" + narrow, rx=6)
    for kind, left in enumerate(supply):
        sx = plan.slots_left + (kind % per_row) * slot
        sy = top + 2 + (kind // per_row) * plan.row_height
        where = None if wide is None else part(
            wide.x + 2 + (kind % wide.per_row) * slot - sx,
            slots_top + 2 + (kind // wide.per_row) * plan.row_height - sy)
        if left <= 0:  # a kind that is gone: its empty slot
            canvas.rect(sx + slot * 0.2, sy + plan.piece_height / 2 - slot * 0.3, slot * 0.6,
                        slot * 0.6, cls="slot", rx=4, parent=where)
            continue
        g = canvas.group(where, cls="piece supply", data={"piece": names(kind), "role": "supply"},
                         tip=f"{describe(kind)} ({left} left)")
        canvas.rect(sx, sy, slot, plan.row_height, cls="tap", parent=g, fill="transparent")
        tall = plan.piece_height
        draw_piece(canvas, g, sx + slot / 2, sy + tall / 2, tall * PIECE_SCALE, kind)
        if left > 1:
            canvas.text(sx + slot / 2, sy + tall + COUNT_BAND - 3, f"×{left}", cls="count",
                        parent=g, text_anchor="middle")
    return y + plan.height
