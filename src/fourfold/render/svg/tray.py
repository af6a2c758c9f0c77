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
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fourfold.render.svg.canvas import Canvas
from fourfold.render.svg.common import LABEL_FONT, TAP, PieceDrawer, fit_text

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


def tray(canvas: Canvas, x: float, y: float, width: float, *, hand: int | None,
         hand_label: str, supply: Sequence[int], names: Callable[[int], str],
         describe: Callable[[int], str], draw_piece: PieceDrawer, hand_given: bool,
         labelled: float = 0.0) -> float:
    """Draws the tray with its top at ``y``; returns the y below it.

    ``hand_given`` marks the hand piece as the one the last move gave (a dashed frame,
    as every last-move mark); ``labelled`` is the height of a piece's own label."""
    words = left_label(supply)
    plan = layout(x, width, supply, hand_label, words, labelled)
    hand_text = fit_text(hand_label, width, LABEL_FONT, bold=True)[0]
    canvas.text(x, y + LABEL_FONT, hand_text, cls="label strong")
    if plan.one_line:
        canvas.text(x + width, y + LABEL_FONT, words, cls="label strong", text_anchor="end")
    else:
        canvas.text(plan.slots_left, y + LABEL_LINE + LABEL_FONT, words, cls="label strong")
    top = y + plan.labels
    box = HAND_BOX
    canvas.rect(x, top, box, box, cls="hand", rx=6)
    if hand is not None:
        g = canvas.group(cls="piece hand-piece", data={"piece": names(hand), "role": "hand"},
                         tip=f"in hand: {describe(hand)}")
        canvas.rect(x, top, box, box, cls="tap", parent=g, fill="transparent")
        draw_piece(canvas, g, x + box / 2, top + box / 2, box * 0.8, hand)
        if hand_given:
            canvas.rect(x - 4, top - 4, box + 8, box + 8, cls="last", rx=8)
    else:
        canvas.text(x + box / 2, top + box / 2 + 4, "—", cls="label", text_anchor="middle")
    slot, per_row = plan.slot, plan.per_row
    canvas.rect(plan.slots_left - 2, top, min(plan.kinds, per_row) * slot + 4,
                plan.rows * plan.row_height + 4, cls="tray", rx=6)
    for kind, left in enumerate(supply):
        sx = plan.slots_left + (kind % per_row) * slot
        sy = top + 2 + (kind // per_row) * plan.row_height
        if left <= 0:  # a kind that is gone: its empty slot
            canvas.rect(sx + slot * 0.2, sy + plan.piece_height / 2 - slot * 0.3, slot * 0.6,
                        slot * 0.6, cls="slot", rx=4)
            continue
        g = canvas.group(cls="piece supply", data={"piece": names(kind), "role": "supply"},
                         tip=f"{describe(kind)} ({left} left)")
        canvas.rect(sx, sy, slot, plan.row_height, cls="tap", parent=g, fill="transparent")
        tall = plan.piece_height
        draw_piece(canvas, g, sx + slot / 2, sy + tall / 2, tall * PIECE_SCALE, kind)
        if left > 1:
            canvas.text(sx + slot / 2, sy + tall + COUNT_BAND - 3, f"×{left}", cls="count",
                        parent=g, text_anchor="middle")
    return y + plan.height
