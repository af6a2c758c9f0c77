"""SVG of Quatrefoil, drawn from one seat's ``Observation`` (or a spectator's).

Left: the north card above the quatrefoil (four lobes, one token each), the free
token beside it, and a small arrow head outside each lobe for each of the eight
pushes (``data-action="W>NW"``...). Right: the four seats with their colour and
position cards (face-down cards are hatched with a ``?``) and their signals (a
filled lamp is up, a hollow one down; none in Dual), then the solution when it is
known. The observation is all this module reads, so a spectator's picture during
play holds no face-down card. The last action is an arrow (a push), a turning arrow
(a twist) or an arrow from the free token (a stack); a finished game rings each
corner: a solid ring when its token is right, a cross when wrong.
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
from fourfold.render.svg.canvas import Canvas, is_light
from fourfold.render.svg.common import PAD, header, header_height, title_of

#: Blue, green, purple, red, yellow (the letter is always drawn on the token too).
TOKEN_FILLS = ("#1f6fd1", "#2a9d3f", "#8e44ad", "#d62828", "#f2c500")
WIDTH = 720.0
BODY = 400.0
D = 50.0  # offset of a corner token from the quatrefoil's centre
LOBE = 58.0
R = 30.0
OFFSETS = ((-D, -D), (D, -D), (-D, D), (D, D))  # NW NE SW SE
SIDES = {"W": (-1, 0), "E": (1, 0), "N": (0, -1), "S": (0, 1)}
ROW = 72.0


def token(canvas: Canvas, parent: ET.Element | None, cx: float, cy: float, r: float,
          t: int, where: str | None = None) -> ET.Element:
    """A token: a disc of its colour with its letter (``data-token``, ``data-corner``)."""
    data = {"token": TOKENS[t]}
    if where is not None:
        data["corner"] = where
    g = canvas.group(parent, cls="token-group", data=data,
                     tip=f"{TOKEN_NAMES[t]}" + (f" on {where}" if where else ""))
    canvas.circle(cx, cy, r, cls="token", parent=g, fill=TOKEN_FILLS[t])
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


def _quatrefoil(canvas: Canvas, obs: Observation, cx: float, cy: float,
                last: Action | None) -> None:
    shape = canvas.group(cls="quatrefoil-shape")
    for ox, oy in OFFSETS:
        canvas.circle(cx + ox, cy + oy, LOBE, cls="quatrefoil", parent=shape)
    canvas.rect(cx - D, cy - D, 2 * D, 2 * D, parent=shape, fill="#efe6d0")
    for ox, oy in OFFSETS:  # hide the inner outlines: one shape of four lobes
        canvas.circle(cx + ox, cy + oy, LOBE - 1.5, parent=shape, fill="#efe6d0")
    for action in range(len(PUSHES)):
        x1, y1, x2, y2 = _push_path(action, cx, cy, LOBE + 26, LOBE + 8)
        name = ACTION_NAMES[action]
        g = canvas.group(cls="push", data={"action": name}, tip=f"push {name}")
        dx, dy = (x2 - x1) / 18, (y2 - y1) / 18
        canvas.polyline([(x2, y2), (x1 - dy * 8, y1 + dx * 8), (x1 + dy * 8, y1 - dx * 8)],
                        closed=True, parent=g, fill="#8c7b59", opacity=0.35)
    a = obs.arrangement
    for corner, (ox, oy) in enumerate(OFFSETS):
        label_x = cx + ox * 2.2  # outside the lobe's outline, clear of the push arrows
        label_y = cy + oy * 2.2
        canvas.text(label_x, label_y, CORNERS[corner], cls="coord")
        token(canvas, None, cx + ox, cy + oy, R, a[corner], CORNERS[corner])
    fx, fy = cx + 185, cy
    canvas.circle(fx, fy, R + 6, cls="slot")
    token(canvas, None, fx, fy, R, a[FREE], "free")
    canvas.text(fx, fy + R + 20, "free token", cls="coord")
    if obs.outcome is not None and obs.solution is not None:
        for corner, (ox, oy) in enumerate(OFFSETS):
            x, y = cx + ox, cy + oy
            if a[corner] == obs.solution[corner]:
                canvas.circle(x, y, R + 5, cls="correct")
            else:
                k = R * 0.75
                canvas.line(x - k, y - k, x + k, y + k, cls="wrong")
                canvas.line(x - k, y + k, x + k, y - k, cls="wrong")
    if last is None:
        return
    if last.action < len(PUSHES):
        x1, y1, x2, y2 = _push_path(last.action, cx, cy, LOBE + 70, LOBE + 12)
        canvas.line(x1, y1, x2, y2, cls="arrow", data_action=ACTION_NAMES[last.action])
        ox, oy = OFFSETS[PUSHES[last.action][1]]
        canvas.circle(cx + ox, cy + oy, R + 4, cls="last")
    elif last.action in (CW, CCW):
        canvas.path(_arc(cx, cy, 17, last.action == CW), cls="arrow",
                    data_action=ACTION_NAMES[last.action], stroke_width=3)
    elif last.action == STACK:
        canvas.line(fx - R - 8, fy, cx + 14, cy, cls="arrow", data_action="stack")


def _card(canvas: Canvas, parent: ET.Element, x: float, y: float, kind: str, seat: int,
          value: int | None) -> None:
    w, h = 40.0, 54.0
    shown = "?" if value is None else TOKENS[value] if kind == "colour" else CORNERS[value]
    g = canvas.group(parent, cls=f"card-group {kind}",
                     data={"seat": str(seat + 1), "card": kind, "value": shown})
    if value is None:
        canvas.rect(x, y, w, h, cls="card facedown", parent=g, rx=5)
        canvas.text(x + w / 2, y + h / 2, "?", cls="card-text", parent=g, style="fill:#fff")
        return
    canvas.rect(x, y, w, h, cls="card", parent=g, rx=5)
    if kind == "colour":
        token(canvas, g, x + w / 2, y + h / 2, 14, value)
        return
    canvas.text(x + w / 2, y + 15, CORNERS[value], cls="card-text", parent=g, font_size=12)
    for corner, (ox, oy) in enumerate(OFFSETS):
        sx = x + w / 2 - 11 + (0 if ox < 0 else 11)
        sy = y + 26 + (0 if oy < 0 else 11)
        canvas.rect(sx, sy, 10, 10, parent=g, fill="#222" if corner == value else "#fff",
                    stroke="#555", stroke_width=0.8)


def _seats(canvas: Canvas, game: QuatrefoilGame, obs: Observation, x: float, y: float) -> float:
    latest = obs.signals[-1] if obs.signals else None
    canvas.text(x + 96, y - 8, "colour", cls="label", text_anchor="middle")
    canvas.text(x + 146, y - 8, "position", cls="label", text_anchor="middle")
    if latest is not None:
        canvas.text(x + 214, y - 8, "signal", cls="label", text_anchor="middle")
    for seat in range(4):
        top = y + seat * ROW
        g = canvas.group(cls="seat", data={"seat": str(seat + 1)})
        cls = "you" if seat == obs.seat else "tray"
        canvas.rect(x, top, 270, ROW - 8, cls=cls, parent=g, rx=8)
        name = game.player_name(seat)
        canvas.text(x + 10, top + 22, name, cls="label strong", parent=g)
        notes = [w for w, on in (("you", seat == obs.seat), ("to move", obs.to_move == seat))
                 if on]
        for line, note in enumerate(notes):  # one a line: both together are wider than the name
            canvas.text(x + 10, top + 38 + 15 * line, note, cls="label", parent=g)
        if game.dual:
            canvas.text(x + 96, top + ROW / 2, "—", cls="label", parent=g, text_anchor="middle")
        else:
            _card(canvas, g, x + 76, top + 5, "colour", seat, obs.colour_cards[seat])
        _card(canvas, g, x + 126, top + 5, "position", seat, obs.position_cards[seat])
        if latest is not None:
            up = latest[seat]
            sg = canvas.group(g, cls="signal-group", data={"seat": str(seat + 1),
                                                          "signal": "up" if up else "down"})
            canvas.circle(x + 214, top + 24, 11, cls="signal up" if up else "signal down",
                          parent=sg)
            canvas.text(x + 214, top + 52, "up: in place" if up else "down", cls="signal-text",
                        parent=sg, text_anchor="middle")
    return y + 4 * ROW


def _mini(canvas: Canvas, arrangement: Arrangement, x: float, y: float, label: str) -> None:
    canvas.text(x, y, label, cls="label strong")
    g = canvas.group(cls="solution")
    for corner, (ox, oy) in enumerate(OFFSETS):
        token(canvas, g, x + 30 + ox * 0.28, y + 40 + oy * 0.28, 13, arrangement[corner],
              f"solution {CORNERS[corner]}")
    token(canvas, g, x + 90, y + 40, 13, arrangement[FREE], "solution free")
    canvas.text(x + 90, y + 66, "free", cls="coord")


def draw_quatrefoil(game: Game[Any, Any], view: View, *, last_move: Any | None,
                    outcome: Outcome | None, size: int | None) -> str:
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
        by = f" by {game.player_name(who)}" if who is not None else ""
        counter += f" Last action: {ACTION_NAMES[last.action]}{by}."
    top = header_height(game, view, outcome, WIDTH, counter)
    height = top + BODY + 30
    viewer = "a spectator" if obs.seat is None else game.player_name(obs.seat)
    canvas = Canvas(WIDTH, height, f"{title_of(game)}, as {viewer} sees it", size=size,
                    kind="quatrefoil")
    header(canvas, game, view, outcome, counter)
    cx, cy = 170.0, top + 210
    north = canvas.group(cls="north", data={"card": "north",
                                            "value": "?" if obs.north is None
                                            else TOKENS[obs.north]})
    nx, ny = cx - 22, cy - D - LOBE - 92
    if obs.north is None:
        canvas.rect(nx, ny, 44, 58, cls="card facedown", parent=north, rx=5)
        canvas.text(nx + 22, ny + 29, "?", cls="card-text", parent=north, style="fill:#fff")
    else:
        canvas.rect(nx, ny, 44, 58, cls="card", parent=north, rx=5)
        token(canvas, north, nx + 22, ny + 29, 15, obs.north, "north")
    canvas.text(nx + 58, ny + 34, "north card", cls="label")
    ended = outcome or obs.outcome
    _quatrefoil(canvas, obs, cx, cy, last)
    if ended is not None and ended.result in (Result.TEAM_WIN, Result.TEAM_LOSS):
        good = ended.result is Result.TEAM_WIN
        canvas.rect(PAD, height - 40, 380, 28, cls="banner good" if good else "banner bad", rx=6)
        canvas.text(PAD + 190, height - 26, "Solved: everyone wins" if good
                    else "Not solved: everyone loses", cls="banner-text")
    right = 430.0
    y = _seats(canvas, game, obs, right, top + 26)
    if obs.solution is not None:
        _mini(canvas, obs.solution, right, y + 18, "Solution")
    return canvas.to_string()


#: the drawer part of the game's bundle (``core.extensions``)
DRAWER = draw_quatrefoil
