"""Pieces of a picture that every game shares: the status header and the tray of pieces.

The status says how the game ended (the rules' outcome, or one declared from
outside) or who acts now. Seats are called what the table calls them when the
picture is given ``names`` (the person's name, or the bot and its level: one name per
seat, as the page says it), with the rules' own side name alongside where the rules
have one ("Ana (Blue)"); without ``names``, by the rules' names ("Blue", "Player 2").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fourfold.core.game import Game, View
from fourfold.core.outcome import Outcome
from fourfold.render.svg.canvas import CHAR_WIDTH, Canvas, wrap

HAND_LABEL_CHARS = 20

STATUS_FONT = 15.0
NOTE_FONT = 12.0
PAD = 12.0
#: Height of the band under each row of the tray that holds the pieces' counts (``×2``).
COUNT_BAND = 12.0


def title_of(game: Game[Any, Any]) -> str:
    """``Folio (standard)``: the game's title and variant, for ``<title>`` and the header."""
    spec = game.info.spec
    label = game.info.label()
    return spec.title + label[len(spec.name):]


#: the seats' names as the table calls them, seat by seat (None: the rules' names)
SeatNames = Sequence[str] | None


def seat_name(game: Game[Any, Any], seat: int, names: SeatNames = None, *,
              you: bool = False) -> str:
    """How a picture calls ``seat``: the table's name for it (``names``), with the
    rules' side name in brackets when the rules give the side one of its own
    ("Bot level 1 (Green)"), and "you" for the viewer's own seat."""
    side = game.player_name(seat)
    name = names[seat] if names is not None and 0 <= seat < len(names) else side
    extra = [side] if name != side and side != Game.player_name(game, seat) else []
    if you:
        extra.append("you")
    return f"{name} ({', '.join(extra)})" if extra else name


def seat_names(game: Game[Any, Any], names: SeatNames = None) -> tuple[str, ...]:
    """Every seat's ``seat_name``, in seat order."""
    return tuple(seat_name(game, p, names) for p in range(game.num_players))


def status(game: Game[Any, Any], view: View, outcome: Outcome | None,
           names: SeatNames = None) -> tuple[str, str]:
    """The headline (who won / who acts) and a detail line (the reason, or '')."""
    ended = outcome or game.view_outcome(view)
    if ended is not None:
        text = ended.describe(seat_names(game, names))
        head, _, reason = text.partition(": ")
        return head, reason
    actors = game.view_actors(view)
    if not actors:
        return "", ""
    if len(actors) > 1:
        return "Everyone may act (real time)", ""
    who = seat_name(game, actors[0], names, you=view.player == actors[0])
    return f"{who} to move", ""


def header(canvas: Canvas, game: Game[Any, Any], view: View, outcome: Outcome | None,
           extra: str = "", names: SeatNames = None) -> float:
    """Title, status and detail at the top; returns the y where the picture continues."""
    head, detail = status(game, view, outcome, names)
    y = PAD + STATUS_FONT
    top = f"{title_of(game)} — {head}" if head else title_of(game)
    for line in wrap(top, canvas.width - 2 * PAD, STATUS_FONT, 2):
        canvas.text(PAD, y, line, cls="status")
        y += STATUS_FONT + 4
    for part in (detail, extra):
        for line in wrap(part, canvas.width - 2 * PAD, NOTE_FONT, 3) if part else ():
            canvas.text(PAD, y, line, cls="note")
            y += NOTE_FONT + 3
    return y + 4


def header_height(game: Game[Any, Any], view: View, outcome: Outcome | None, width: float,
                  extra: str = "", names: SeatNames = None) -> float:
    """The height ``header`` will take on a picture ``width`` wide."""
    head, detail = status(game, view, outcome, names)
    top = f"{title_of(game)} — {head}" if head else title_of(game)
    h = PAD + len(wrap(top, width - 2 * PAD, STATUS_FONT, 2)) * (STATUS_FONT + 4)
    for part in (detail, extra):
        if part:
            h += len(wrap(part, width - 2 * PAD, NOTE_FONT, 3)) * (NOTE_FONT + 3)
    return h + 4


PieceDrawer = Callable[[Canvas, Any, float, float, float, int], None]


def tray(canvas: Canvas, x: float, y: float, width: float, unit: float, *,
         hand: int | None, hand_label: str, supply: Sequence[int],
         names: Callable[[int], str], describe: Callable[[int], str],
         draw_piece: PieceDrawer, hand_given: bool) -> float:
    """The piece in hand (boxed) and the pieces left to give, wrapped into rows.

    Returns the y below the tray. ``hand_given`` marks the hand piece as the one the
    last move gave (a dashed frame, as every last-move mark). A kind with more than one
    piece left shows its count (``×2``) centred under the piece, in a band of its own,
    so that the count never covers a piece.
    """
    box = unit * 1.15
    canvas.text(x, y + 12, hand_label, cls="label strong")
    top = y + 20
    canvas.rect(x, top, box, box, cls="hand", rx=6)
    if hand is not None:
        g = canvas.group(cls="piece hand-piece", data={"piece": names(hand), "role": "hand"},
                         tip=f"in hand: {describe(hand)}")
        draw_piece(canvas, g, x + box / 2, top + box / 2, unit, hand)
        if hand_given:
            canvas.rect(x - 4, top - 4, box + 8, box + 8, cls="last", rx=8)
    else:
        canvas.text(x + box / 2, top + box / 2 + 4, "—", cls="label", text_anchor="middle")
    left = x + max(box, HAND_LABEL_CHARS * 12 * CHAR_WIDTH) + 18
    step = unit * 0.78
    per_row = max(1, int((x + width - left) // step))
    kinds = [k for k, n in enumerate(supply) if n > 0]
    total = sum(supply)
    canvas.text(left, y + 12, f"Left to give ({total})" if total else "Nothing left to give",
                cls="label strong")
    rows = max(1, (len(kinds) + per_row - 1) // per_row)
    row_height = step + COUNT_BAND
    canvas.rect(left - 4, top, min(len(kinds), per_row) * step + 8 if kinds else step,
                rows * row_height + 4, cls="tray", rx=6)
    for i, kind in enumerate(kinds):
        cx = left + (i % per_row + 0.5) * step
        row_top = top + 2 + (i // per_row) * row_height
        g = canvas.group(cls="piece supply", data={"piece": names(kind), "role": "supply"},
                         tip=f"{describe(kind)} ({supply[kind]} left)")
        draw_piece(canvas, g, cx, row_top + step / 2, step * 0.92, kind)
        if supply[kind] > 1:
            canvas.text(cx, row_top + step + COUNT_BAND - 3, f"×{supply[kind]}", cls="count",
                        parent=g, text_anchor="middle")
    return top + max(box, rows * row_height + 4) + PAD


def tray_height(unit: float, width: float, x: float, kinds: int) -> float:
    """The height ``tray`` takes for ``kinds`` kinds left."""
    box = unit * 1.15
    step = unit * 0.78
    left = x + max(box, HAND_LABEL_CHARS * 12 * CHAR_WIDTH) + 18
    per_row = max(1, int((x + width - left) // step))
    rows = max(1, (kinds + per_row - 1) // per_row)
    return 20 + max(box, rows * (step + COUNT_BAND) + 4) + PAD
