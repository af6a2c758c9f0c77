"""Pieces of a picture that every game shares: its width and smallest sizes, and the status
header (the tray of pieces to give is ``tray.py``).

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
from fourfold.render.svg.canvas import Canvas, wrap

#: Every board picture but Quatrefoil's (350) is WIDTH units wide. The page draws a
#: picture as wide as its board column: 366 CSS px on a 390x844 phone, 1.017 px a unit.
#: So the smallest text (LABEL_FONT) is 12.2 px there, and a target TAP units square
#: (a cell, a slot of the tray) is 44.7 px, over WCAG 2.5.5's 44. On a laptop the
#: picture is as tall as the window allows, and larger still.
WIDTH = 360.0
#: the picture's width on a 390x844 phone, in CSS px (the page's board column)
PHONE_PX = 366.0
#: the room a laptop's page (1280x860) gives the board, in CSS px (its column's width,
#: and the window's height less the bar and the title line): a drawer that can move a
#: part beside the board on a wide window lays it out to be as large as it can be there
LAPTOP_BOARD = (936.0, 740.0)
#: the smallest font of any picture, in units (labels, coordinates, counts, letters)
LABEL_FONT = 12.0
#: the smallest side of a tap target, in units
TAP = 44.0
STATUS_FONT = 15.0
NOTE_FONT = 12.0
PAD = 12.0
#: the width of a character, as a fraction of the font size (DejaVu Sans, a little over)
CHAR_EM = 0.62
BOLD_CHAR_EM = 0.7


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


def text_width(text: str, font: float, *, bold: bool = False) -> float:
    """About how wide ``text`` is drawn at ``font`` (a little over, for safety)."""
    return len(text) * font * (BOLD_CHAR_EM if bold else CHAR_EM)


def fit_text(text: str, width: float, font: float, *, bold: bool = False) -> tuple[str, float]:
    """``text``, shortened with an ellipsis if it is wider than ``width``, and its width."""
    if text_width(text, font, bold=bold) <= width:
        return text, text_width(text, font, bold=bold)
    chars = max(1, int(width / (font * (BOLD_CHAR_EM if bold else CHAR_EM))) - 1)
    short = text[:chars].rstrip() + "…"
    return short, text_width(short, font, bold=bold)


PieceDrawer = Callable[[Canvas, Any, float, float, float, int], None]

#: the gap between a row's coordinate and the board
COORD_GAP = 3.0
#: the band below a board that holds its column letters
COORD_FOOT = 18.0


def board_fit(columns: int, rows: Sequence[str], max_unit: float) -> tuple[float, float]:
    """``(unit, left)``: the side of a cell and the board's left edge for a board of
    ``columns`` cells, its row coordinates ``rows`` on its left (and its columns below,
    ``coordinates``), as large as a picture WIDTH wide allows up to ``max_unit``: centred
    between equal margins while its cells stay 44 CSS px on a phone, else (Folio's 8x8)
    with the margin on the left only."""
    label_w = max(text_width(r, LABEL_FONT) for r in rows) + COORD_GAP
    unit = min(max_unit, (WIDTH - 2 * label_w) / columns)
    if unit * PHONE_PX / WIDTH < 44:
        unit = (WIDTH - label_w - 2) / columns
        return unit, label_w + 1
    return unit, (WIDTH - columns * unit) / 2


def coordinates(canvas: Canvas, left: float, top: float, unit: float, columns: Sequence[str],
                rows: Sequence[str]) -> None:
    """Column names below the board (in a band COORD_FOOT tall) and row names on its left,
    bottom to top, as on a chess site's board."""
    for i, name in enumerate(columns):
        canvas.text(left + (i + 0.5) * unit, top + len(rows) * unit + COORD_FOOT / 2 + 1, name,
                    cls="coord")
    for j, name in enumerate(rows):
        canvas.text(left - COORD_GAP, top + (len(rows) - 1 - j + 0.5) * unit, name,
                    cls="coord", style="text-anchor:end")
