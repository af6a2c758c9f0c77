"""SVG of Quatrefoil, drawn from one seat's ``Observation`` (or a spectator's).

The picture is narrow (350 units wide) so that a phone shows it a little larger than
its own size: at 390 CSS px every text in it is at least 12 px (checked in Chromium by
tests/test_svg_layout.py). Top: the quatrefoil (four lobes, one token each) with an
arrow head outside each lobe for each of the eight pushes (``data-action="W>NW"``...),
the north card and the free token in a column beside it. Below: the four seats side by
side, each with its name, its colour and position cards (face-down cards are hatched
with a ``?``) and its signal (a filled lamp is up, a hollow one down; none in Dual),
then the solution when it is known. The observation is all this module reads, so a
spectator's picture during play holds no face-down card.

The tokens on the quatrefoil and the free token are ``g.piece`` groups with
``data-cell`` (the corner, or ``free``) and ``data-piece`` (the token's letter), the
page's contract for animating a move (a token that changed place slides there). The
last action is an arrow (a push), a turning arrow (a twist) or an arrow from the free
token (a stack); a finished game rings each corner: a solid ring when its token is
right, a cross when wrong. Seats are named as the table names them (``names``).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

from fourfold.core.game import Game, View
from fourfold.core.outcome import Outcome, Result
from fourfold.games.quatrefoil.arrangement import (
    ACTION_NAMES,
    CCW,
    CORNERS,
    CW,
    FREE,
    PUSHES,
    STACK,
    TOKEN_NAMES,
    TOKENS,
    Arrangement,
)
from fourfold.games.quatrefoil.game import QuatrefoilGame
from fourfold.games.quatrefoil.state import Action, Observation
from fourfold.render.svg.canvas import Canvas, fmt, is_light, wrap
from fourfold.render.svg.common import (
    PAD,
    SeatNames,
    header,
    header_height,
    seat_name,
    title_of,
)

#: Blue, green, purple, red, yellow (the letter is always drawn on the token too).
TOKEN_FILLS = ("#1f6fd1", "#2a9d3f", "#8e44ad", "#d62828", "#f2c500")
WIDTH = 350.0
D = 36.0  # offset of a corner token from the quatrefoil's centre
LOBE = 42.0
R = 22.0
#: pushes: an arrow head from FAR to NEAR beyond a lobe's centre, HALF wide each side
FAR, NEAR, HALF = LOBE + 30, LOBE + 8, 10.0
#: half the height (and width) of the quatrefoil with its arrows and their tap pads
REACH = D + (FAR + NEAR) / 2 + 22
#: half the height the quatrefoil takes in the layout: its arrows (their pads may reach
#: a little further, over the header's margin)
TALL = D + FAR + 4
OFFSETS = ((-D, -D), (D, -D), (-D, D), (D, D))  # NW NE SW SE
SIDES = {"W": (-1, 0), "E": (1, 0), "N": (0, -1), "S": (0, 1)}
#: the seats' strip: four columns, each SEAT_W wide and SEAT_H tall
SEAT_GAP = 2.0
SEAT_W = (WIDTH - 2 * PAD - 3 * SEAT_GAP) / 4
SEAT_H = 134.0
SEAT_H_DUAL = 106.0
#: the smallest text, in picture units (12.5 CSS px on a 390 px phone: the picture is
#: drawn 366 px wide there, at 1.05 CSS px a unit)
SMALL = "font-size:12px"


def token(canvas: Canvas, parent: ET.Element | None, cx: float, cy: float, r: float,
          t: int, where: str | None = None, *, placed: bool = False) -> ET.Element:
    """A token: a disc of its colour with its letter (``data-token``, ``data-corner``).
    A ``placed`` token (on the quatrefoil, or the free one) is also a ``piece`` with
    ``data-cell`` and ``data-piece``, so that the page can animate its moves, and holds
    a transparent square as wide as the disc, so that a tap or a drag anywhere in that
    square (44 CSS px or more on a phone) takes it."""
    data = {"token": TOKENS[t]}
    if where is not None:
        data["corner"] = where
    if placed and where is not None:
        data.update({"cell": where, "piece": TOKENS[t]})
    g = canvas.group(parent, cls="token-group piece" if placed else "token-group", data=data,
                     tip=f"{TOKEN_NAMES[t]}" + (f" on {where}" if where else ""))
    if placed:  # the page may let it be dragged or tapped: the whole square around it
        canvas.rect(cx - r, cy - r, 2 * r, 2 * r, cls="tap", parent=g, fill="transparent")
    canvas.circle(cx, cy, r, cls="token body" if placed else "token", parent=g,
                  fill=TOKEN_FILLS[t])
    canvas.text(cx, cy, TOKENS[t], cls="letter" + (" dark" if is_light(TOKEN_FILLS[t]) else ""),
                parent=g, font_size=r * 0.95)
    return g


def _push_path(action: int, cx: float, cy: float, far: float,
               near: float) -> tuple[float, float, float, float]:
    """From and to points of an arrow for a push, from ``far`` to ``near`` outside a lobe."""
    name, corner, _ = PUSHES[action]
    sx, sy = SIDES[name.split(">")[0]]
    ox, oy = OFFSETS[corner]
    if sx:  # from the west or east, level with its corner
        bx, by = cx + sx * D, cy + oy
        return bx + sx * far, by, bx + sx * near, by
    bx, by = cx + ox, cy + sy * D
    return bx, by + sy * far, bx, by + sy * near


def _arc(cx: float, cy: float, r: float, clockwise: bool) -> str:
    start, end = (-150.0, 150.0) if clockwise else (150.0, -150.0)
    x1, y1 = cx + r * math.cos(math.radians(start)), cy + r * math.sin(math.radians(start))
    x2, y2 = cx + r * math.cos(math.radians(end)), cy + r * math.sin(math.radians(end))
    sweep = 1 if clockwise else 0
    return f"M{x1:.1f},{y1:.1f} A{r},{r} 0 1 {sweep} {x2:.1f},{y2:.1f}"


def _pushes(canvas: Canvas, cx: float, cy: float) -> None:
    """The eight push arrows (``g.push[data-action]``), pointing into their lobes."""
    for action in range(len(PUSHES)):
        x1, y1, x2, y2 = _push_path(action, cx, cy, FAR, NEAR)
        name = ACTION_NAMES[action]
        g = canvas.group(cls="push", data={"action": name}, tip=f"push {name}")
        dx, dy = (x2 - x1) / (FAR - NEAR), (y2 - y1) / (FAR - NEAR)
        canvas.polyline([(x2, y2), (x1 - dy * HALF, y1 + dx * HALF),
                         (x1 + dy * HALF, y1 - dx * HALF)],
                        closed=True, parent=g, fill="#8c7b59", opacity=0.45)


def _quatrefoil(canvas: Canvas, obs: Observation, cx: float, cy: float, free: tuple[float, float],
                last: Action | None, over: bool) -> None:
    """The quatrefoil, its arrows and tokens, the free token; once the game is ``over``
    (a stack, the clock, or the team giving up) each corner is marked right or wrong."""
    shape = canvas.group(cls="quatrefoil-shape")
    for ox, oy in OFFSETS:
        canvas.circle(cx + ox, cy + oy, LOBE, cls="quatrefoil", parent=shape)
    canvas.rect(cx - D, cy - D, 2 * D, 2 * D, parent=shape, fill="#efe6d0")
    for ox, oy in OFFSETS:  # hide the inner outlines: one shape of four lobes
        canvas.circle(cx + ox, cy + oy, LOBE - 1.5, parent=shape, fill="#efe6d0")
    _pushes(canvas, cx, cy)
    a = obs.arrangement
    corner_label = D + (FAR + NEAR) / 2 - 4  # between a corner's two arrows, off the lobe
    for corner, (ox, oy) in enumerate(OFFSETS):
        sx, sy = math.copysign(1, ox), math.copysign(1, oy)
        canvas.text(cx + sx * corner_label, cy + sy * corner_label, CORNERS[corner], cls="coord")
    fx, fy = free
    canvas.circle(fx, fy, R + 6, cls="slot")
    canvas.text(fx, fy + R + 20, "free token", cls="coord")
    for corner, (ox, oy) in enumerate(OFFSETS):
        token(canvas, None, cx + ox, cy + oy, R, a[corner], CORNERS[corner], placed=True)
    token(canvas, None, fx, fy, R, a[FREE], "free", placed=True)
    if over and obs.solution is not None:
        for corner, (ox, oy) in enumerate(OFFSETS):
            x, y = cx + ox, cy + oy
            if a[corner] == obs.solution[corner]:
                canvas.circle(x, y, R + 5, cls="correct")
            else:
                k = R * 0.75
                canvas.line(x - k, y - k, x + k, y + k, cls="wrong")
                canvas.line(x - k, y + k, x + k, y - k, cls="wrong")
    if last is not None and last.action < len(PUSHES):
        ox, oy = OFFSETS[PUSHES[last.action][1]]
        canvas.circle(cx + ox, cy + oy, R + 4, cls="last")
    if last is None:
        return
    if last.action < len(PUSHES):
        x1, y1, x2, y2 = _push_path(last.action, cx, cy, FAR + 4, NEAR - 6)
        canvas.line(x1, y1, x2, y2, cls="arrow", data_action=ACTION_NAMES[last.action])
    elif last.action in (CW, CCW):
        canvas.path(_arc(cx, cy, 15, last.action == CW), cls="arrow",
                    data_action=ACTION_NAMES[last.action], stroke_width=3)
    elif last.action == STACK:
        canvas.line(fx - R - 8, fy, cx + 14, cy, cls="arrow", data_action="stack")


def _card(canvas: Canvas, parent: ET.Element, x: float, y: float, kind: str, seat: int,
          value: int | None) -> None:
    w, h = 34.0, 44.0
    shown = "?" if value is None else TOKENS[value] if kind == "colour" else CORNERS[value]
    g = canvas.group(parent, cls=f"card-group {kind}",
                     data={"seat": str(seat + 1), "card": kind, "value": shown})
    if value is None:
        canvas.rect(x, y, w, h, cls="card facedown", parent=g, rx=4)
        canvas.text(x + w / 2, y + h / 2, "?", cls="card-text", parent=g, style="fill:#fff")
        return
    canvas.rect(x, y, w, h, cls="card", parent=g, rx=4)
    if kind == "colour":
        token(canvas, g, x + w / 2, y + h / 2, 13, value)
        return
    canvas.text(x + w / 2, y + 12, CORNERS[value], cls="card-text", parent=g, style=SMALL)
    for corner, (ox, oy) in enumerate(OFFSETS):
        sx = x + w / 2 - 9 + (0 if ox < 0 else 9)
        sy = y + 23 + (0 if oy < 0 else 9)
        canvas.rect(sx, sy, 8, 8, parent=g, fill="#222" if corner == value else "#fff",
                    stroke="#555", stroke_width=0.8)


def _width(text: str, px: float = 12.0) -> float:
    """A generous estimate of ``text``'s width in DejaVu Sans at ``px`` (capitals and
    m/w are wide, i/l/punctuation narrow)."""
    em = sum(0.8 if c.isupper() or c in "mwMW@%&" else 0.34 if c in "ijlfrt.,:;'()[]!| -"
             else 0.62 for c in text)
    return em * px


def _seat(canvas: Canvas, game: QuatrefoilGame, obs: Observation, seat: int, x: float,
          top: float, height: float, names: SeatNames, over: bool, moved: str) -> None:
    """One seat's column: its name (two lines at most), its cards, its signal, and
    whether it is you and whether it is to move (no one is, once the game is ``over``);
    ``moved`` is how far it moves on a wide window (``data-wide-at``)."""
    latest = obs.signals[-1] if obs.signals else None
    g = canvas.group(cls="seat", data={"seat": str(seat + 1), "wide-at": moved})
    canvas.rect(x, top, SEAT_W, height, cls="you" if seat == obs.seat else "tray", parent=g,
                rx=6)
    # 11 px for the estimate: DejaVu Sans is narrower than wrap's average character (the
    # weight is set here: a page's own .label rule must not make the name bold and wider)
    room = SEAT_W - 6
    for line, text in enumerate(wrap(seat_name(game, seat, names), room, 11, 2)):
        squeeze: dict[str, str | float] = {}
        if _width(text) > room:  # wide letters: drawn a little narrower, never out
            squeeze = {"textLength": room, "lengthAdjust": "spacingAndGlyphs"}
        canvas.text(x + 3, top + 15 + 14 * line, text, cls="label seat-name", parent=g,
                    data_seat_name=str(seat + 1), style=f"{SMALL};font-weight:normal",
                    **squeeze)
    cards = top + 36
    if not game.dual:  # Dual has no colour cards: the solution lies face up
        _card(canvas, g, x + 4, cards, "colour", seat, obs.colour_cards[seat])
    _card(canvas, g, x + 4 if game.dual else x + 43, cards, "position", seat,
          obs.position_cards[seat])
    y = cards + 62
    if latest is not None:
        up = latest[seat]
        sg = canvas.group(g, cls="signal-group", data={"seat": str(seat + 1),
                                                      "signal": "up" if up else "down"})
        canvas.circle(x + 13, y - 4, 8, cls="signal up" if up else "signal down", parent=sg)
        canvas.text(x + 26, y, "up" if up else "down", cls="signal-text", parent=sg,
                    style=SMALL)
        y += 16
    moving = obs.to_move == seat and not over
    notes = [w for w, on in (("you", seat == obs.seat), ("to move", moving)) if on]
    for line, note in enumerate(notes):  # one a line: a column is narrow
        canvas.text(x + 4, y + 14 * line, note, cls="label strong", parent=g)


def _legend(game: QuatrefoilGame) -> str:
    return ("Each seat: its position card (its own corner)" if game.dual
            else "Each seat: colour card, position card, signal")


#: on a wide window the seats stand two by two beside the board, this wide
BESIDE_W = 2 * SEAT_W + SEAT_GAP


def _beside_legend(game: QuatrefoilGame) -> list[str]:
    return wrap(_legend(game), BESIDE_W, 12, 3)


def _seats(canvas: Canvas, game: QuatrefoilGame, obs: Observation, y: float,
           names: SeatNames, over: bool, wide: tuple[float, float]) -> float:
    """The legend and the four seats side by side; returns the y below them. On a wide
    window (``wide``: the top left of a column beside the board) the legend's lines
    and the seats two by two stand there instead (render/svg/canvas.py, ``wide``)."""
    canvas.text(PAD, y + 12, _legend(game), cls="label narrow-only")
    lines = _beside_legend(game)
    for n, line in enumerate(lines):
        canvas.text(wide[0], wide[1] + 12 + 14 * n, line, cls="label wide-only")
    top = y + 20
    height = SEAT_H_DUAL if game.dual else SEAT_H
    for seat in range(4):
        x = PAD + seat * (SEAT_W + SEAT_GAP)
        wx = wide[0] + (seat % 2) * (SEAT_W + SEAT_GAP)
        wy = wide[1] + 14 * len(lines) + 6 + (seat // 2) * (height + SEAT_GAP)
        _seat(canvas, game, obs, seat, x, top, height, names, over,
              f"{fmt(wx - x)} {fmt(wy - top)}")
    return top + height


def _mini(canvas: Canvas, arrangement: Arrangement, x: float, y: float, label: str,
          parent: ET.Element | None = None) -> None:
    canvas.text(x, y + 30, label, cls="label strong", dominant_baseline="central",
                parent=parent)
    g = canvas.group(parent, cls="solution")
    left = x + 100  # clear of the label, bold on a page whose .label is bold
    for corner, (ox, oy) in enumerate(OFFSETS):
        token(canvas, g, left + ox * 0.4, y + 30 + oy * 0.4, 13, arrangement[corner],
              f"solution {CORNERS[corner]}")
    token(canvas, g, left + 62, y + 30, 13, arrangement[FREE], "solution free")
    canvas.text(left + 96, y + 30, "free", cls="coord", text_anchor="start", parent=parent)


def draw_quatrefoil(game: Game[Any, Any], view: View, *, last_move: Any | None,
                    outcome: Outcome | None, size: int | None,
                    names: SeatNames = None) -> str:
    assert isinstance(game, QuatrefoilGame)
    obs = view.observation
    assert isinstance(obs, Observation)
    counter = f"Actions so far: {obs.version}."
    if obs.variant == "nothing-to-hide" and obs.solution is not None:
        from fourfold.games.quatrefoil.solver import optimum

        counter += f" The fewest that win from the start: {optimum(obs.start, obs.solution)}."
    if obs.clock is not None:
        counter += f" Clock: {obs.clock} s."
    last = last_move if isinstance(last_move, Action) else None
    if last is not None:
        who = last.seat if last.seat is not None else (obs.history[-1][0] if obs.history else None)
        by = f" by {seat_name(game, who, names)}" if who is not None else ""
        counter += f" Last action: {ACTION_NAMES[last.action]}{by}."
    top = header_height(game, view, outcome, WIDTH, counter, names)
    ended = outcome or obs.outcome
    solved = ended is not None and ended.result in (Result.TEAM_WIN, Result.TEAM_LOSS)
    cy = top + TALL
    seats_top = cy + TALL + 4
    seats_bottom = seats_top + 20 + (SEAT_H_DUAL if game.dual else SEAT_H)
    height = seats_bottom + (60 if obs.solution is not None else 0) + (40 if solved else 0) + PAD
    viewer = "a spectator" if obs.seat is None else seat_name(game, obs.seat, names)
    canvas = Canvas(WIDTH, height, f"{title_of(game)}, as {viewer} sees it", size=size,
                    kind="quatrefoil")
    # on a wide window: the seats beside the board, and what was under them moves up
    beside = (WIDTH, top)
    seats_h = SEAT_H_DUAL if game.dual else SEAT_H
    right = top + 14 * len(_beside_legend(game)) + 6 + 2 * seats_h + SEAT_GAP
    lift = seats_bottom - seats_top
    canvas.wide(WIDTH + BESIDE_W + PAD, max(height - lift, right + PAD))
    header(canvas, game, view, outcome, counter, names)
    cx = PAD + REACH
    column = (cx + REACH + WIDTH - PAD) / 2  # the north card and the free token
    north = canvas.group(cls="north", data={"card": "north",
                                            "value": "?" if obs.north is None
                                            else TOKENS[obs.north]})
    nx, ny = column - 20, cy - FAR - D
    if obs.north is None:
        canvas.rect(nx, ny, 40, 54, cls="card facedown", parent=north, rx=5)
        canvas.text(nx + 20, ny + 27, "?", cls="card-text", parent=north, style="fill:#fff")
    else:
        canvas.rect(nx, ny, 40, 54, cls="card", parent=north, rx=5)
        token(canvas, north, nx + 20, ny + 27, 15, obs.north, "north")
    canvas.text(column, ny + 70, "north card", cls="coord")
    _quatrefoil(canvas, obs, cx, cy, (column, cy + 30), last, ended is not None)
    y = _seats(canvas, game, obs, seats_top, names, ended is not None, beside)
    under = canvas.group(cls="under-seats", data={"wide-at": f"0 {fmt(-lift)}"})
    if obs.solution is not None:
        _mini(canvas, obs.solution, PAD, y + 6, "Solution", under)
        y += 60
    if ended is not None and solved:
        good = ended.result is Result.TEAM_WIN
        canvas.rect(PAD, y + 6, WIDTH - 2 * PAD, 28, cls="banner good" if good else "banner bad",
                    rx=6, parent=under)
        canvas.text(WIDTH / 2, y + 20, "Solved: everyone wins" if good
                    else "Not solved: everyone loses", cls="banner-text", parent=under)
    return canvas.to_string()


DRAWER = draw_quatrefoil
