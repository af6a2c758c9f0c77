"""Boards of Quatrefoil: the observation of one seat (or a spectator), card by card.

A face-down card is ``null``. ``solution`` is ``null`` unless the variant shows it
(Nothing to Hide, Dual) or the game is over. ``signals[i]`` are the four seats'
signals after ``i`` actions (``null`` in Dual). ``clock`` is the timer's length in
seconds (the time left travels in events, as ``clocks``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fourfold.games.quatrefoil.arrangement import (
    ACTION_NAMES,
    CORNERS,
    STACK,
    TOKENS,
    Arrangement,
    act,
    arrangement_error,
    format_arrangement,
    parse_arrangement_text,
)
from fourfold.games.quatrefoil.game import SEATS, QuatrefoilGame
from fourfold.games.quatrefoil.state import Observation
from fourfold.wire.codec import AnyGame, BoardCodec, served
from fourfold.wire.errors import (
    JsonDict,
    WireError,
    array,
    boolean,
    exact_keys,
    integer,
    join,
    obj,
    opt_integer,
    string,
)
from fourfold.wire.outcomes import outcome_from_json

SLOTS = (*CORNERS, "free")
MAX_ACTIONS = 100_000
BOARD_KEYS = ("arrangement", "tokens", "start", "colour_cards", "position_cards", "north",
              "solution", "signals", "history", "version", "to_move", "clock")


def _game(game: AnyGame) -> QuatrefoilGame:
    return served(game, QuatrefoilGame, "Quatrefoil")


def _token(value: int | None) -> str | None:
    return None if value is None else TOKENS[value]


def _arrangement(value: Arrangement | None) -> str | None:
    return None if value is None else format_arrangement(value)


def encode(game: AnyGame, obs: Any) -> JsonDict:
    _game(game)
    assert isinstance(obs, Observation)
    return {
        "arrangement": format_arrangement(obs.arrangement),
        "tokens": {slot: TOKENS[t] for slot, t in zip(SLOTS, obs.arrangement, strict=True)},
        "start": format_arrangement(obs.start),
        "colour_cards": [_token(c) for c in obs.colour_cards],
        "position_cards": [None if c is None else CORNERS[c] for c in obs.position_cards],
        "north": _token(obs.north),
        "solution": _arrangement(obs.solution),
        "signals": None if obs.signals is None else [list(s) for s in obs.signals],
        "history": [{"seat": seat, "action": ACTION_NAMES[a]} for seat, a in obs.history],
        "version": obs.version,
        "to_move": obs.to_move,
        "clock": obs.clock,
    }


def _read_arrangement(value: Any, where: str) -> Arrangement:
    text = string(value, where, 16)
    error = arrangement_error(text)
    if error is not None:
        raise WireError(error[0], where)
    return parse_arrangement_text(text)


def _read_cards(value: Any, names: str | tuple[str, ...], where: str) -> tuple[
        int | None, int | None, int | None, int | None]:
    choices = tuple(names)
    items = array(value, where, SEATS)
    if len(items) != SEATS:
        raise WireError(f"expected {SEATS} cards, got {len(items)}", where)
    cards: list[int | None] = []
    for i, item in enumerate(items):
        if item is None:
            cards.append(None)
            continue
        name = string(item, join(where, i), 4)
        if name not in choices:
            raise WireError(f"{name!r} is not one of {', '.join(choices)}", join(where, i))
        cards.append(choices.index(name))
    return cards[0], cards[1], cards[2], cards[3]


def decode(game: AnyGame, data: Mapping[str, Any], viewer: int | None) -> Observation:
    """The observation a board describes (the caller re-encodes it to check the rest)."""
    g = _game(game)
    where = "board"
    board = obj(data["board"], where)
    exact_keys(board, BOARD_KEYS, where)
    start = _read_arrangement(board["start"], join(where, "start"))
    raw_history = array(board["history"], join(where, "history"), MAX_ACTIONS)
    history: list[tuple[int, int]] = []
    arrangement = start
    for i, item in enumerate(raw_history):
        at = join(join(where, "history"), i)
        entry = obj(item, at)
        exact_keys(entry, ("seat", "action"), at)
        seat = integer(entry["seat"], join(at, "seat"), 0, SEATS - 1)
        name = string(entry["action"], join(at, "action"), 8)
        if name not in ACTION_NAMES:
            raise WireError(f"{name!r} is not an action", join(at, "action"))
        action = ACTION_NAMES.index(name)
        history.append((seat, action))
        arrangement = act(arrangement, action)
    signals: tuple[tuple[bool, bool, bool, bool], ...] | None = None
    if board["signals"] is not None:
        rows = array(board["signals"], join(where, "signals"), MAX_ACTIONS + 1)
        read: list[tuple[bool, bool, bool, bool]] = []
        for i, row in enumerate(rows):
            at = join(join(where, "signals"), i)
            cells = array(row, at, SEATS)
            if len(cells) != SEATS:
                raise WireError(f"expected {SEATS} signals, got {len(cells)}", at)
            b = [boolean(c, join(at, k)) for k, c in enumerate(cells)]
            read.append((b[0], b[1], b[2], b[3]))
        signals = tuple(read)
    solution = (None if board["solution"] is None
                else _read_arrangement(board["solution"], join(where, "solution")))
    north_cards = _read_cards([board["north"], None, None, None], TOKENS,
                              join(where, "north"))
    return Observation(
        seat=viewer,
        variant=g.info.variant,
        colour_cards=_read_cards(board["colour_cards"], TOKENS, join(where, "colour_cards")),
        position_cards=_read_cards(board["position_cards"], CORNERS,
                                   join(where, "position_cards")),
        north=north_cards[0],
        solution=solution,
        start=start,
        arrangement=arrangement,
        history=tuple(history),
        signals=signals,
        to_move=opt_integer(board["to_move"], join(where, "to_move"), 0, SEATS - 1),
        clock=opt_integer(board["clock"], join(where, "clock"), 1, 24 * 3600),
        # the rules end a game only with a stack; any other ending was declared from
        # outside the moves, and the view carries it (``View.declared``), not the board
        outcome=(outcome_from_json(data["outcome"], "outcome")
                 if history and history[-1][1] == STACK else None),
    )


def parts(game: AnyGame, obs: Any, move: Any) -> JsonDict:
    """An action as ``{"name": NAME}`` (``N>NW``, ``cw``, ``ccw``, ``stack``)."""
    return {"name": ACTION_NAMES[move.action]}


#: the ``codec`` part of Quatrefoil's extension bundle
CODEC = BoardCodec(encode, decode=decode, parts=parts)
