"""Tokens, corners, arrangements and the eleven actions (RULES.md §3 and §4).

An arrangement is a tuple of five token numbers: the tokens on NW, NE, SW and SE,
then the free token. Every action except ``stack`` is a fixed permutation of those
five slots, so the 120 arrangements and 10 moving actions form a small graph that
the engine, the solver and the bots all share.
"""

from __future__ import annotations

from itertools import permutations

TOKENS = "BGPRY"
TOKEN_NAMES = ("blue", "green", "purple", "red", "yellow")
CORNERS = ("NW", "NE", "SW", "SE")
NW, NE, SW, SE, FREE = 0, 1, 2, 3, 4

Arrangement = tuple[int, int, int, int, int]

#: Push actions: (notation, corner the free token enters, the other corner of that line).
#: The token on the entering corner moves to the other corner; the token there is ejected.
PUSHES: tuple[tuple[str, int, int], ...] = (
    ("W>NW", NW, NE),
    ("N>NW", NW, SW),
    ("E>NE", NE, NW),
    ("N>NE", NE, SE),
    ("W>SW", SW, SE),
    ("S>SW", SW, NW),
    ("E>SE", SE, SW),
    ("S>SE", SE, NE),
)
CW = len(PUSHES)
CCW = CW + 1
STACK = CCW + 1
ACTION_NAMES: tuple[str, ...] = (*(p[0] for p in PUSHES), "cw", "ccw", "stack")
NUM_ACTIONS = len(ACTION_NAMES)
#: The actions that change the arrangement (all but ``stack``).
MOVING_ACTIONS = tuple(range(STACK))


def _push_source(enter: int, other: int) -> tuple[int, ...]:
    source = list(range(5))
    source[enter] = FREE
    source[other] = enter
    source[FREE] = other
    return tuple(source)


def _twist_source(clockwise: bool) -> tuple[int, ...]:
    # Clockwise: NW -> NE -> SE -> SW -> NW, so NE takes what NW held, and so on.
    if clockwise:
        return (SW, NW, SE, NE, FREE)
    return (NE, SE, NW, SW, FREE)


#: ``SOURCES[a][slot]`` is the slot whose token ends on ``slot`` after action ``a``.
SOURCES: tuple[tuple[int, ...], ...] = (
    *(_push_source(enter, other) for _, enter, other in PUSHES),
    _twist_source(True),
    _twist_source(False),
)

ALL_ARRANGEMENTS: tuple[Arrangement, ...] = tuple(
    (p[0], p[1], p[2], p[3], p[4]) for p in permutations(range(5))
)
INDEX: dict[Arrangement, int] = {a: i for i, a in enumerate(ALL_ARRANGEMENTS)}


def act(arrangement: Arrangement, action: int) -> Arrangement:
    """The arrangement after a moving action (``stack`` leaves it as it is)."""
    if action == STACK:
        return arrangement
    s = SOURCES[action]
    a = arrangement
    return (a[s[0]], a[s[1]], a[s[2]], a[s[3]], a[s[4]])


def push_corner(action: int) -> int | None:
    """The corner a push ends on (where the free token enters), or ``None`` for others."""
    return PUSHES[action][1] if action < CW else None


#: ``NEXT[i][a]`` is the index of the arrangement after moving action ``a`` from index ``i``.
NEXT: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX[act(arr, a)] for a in MOVING_ACTIONS) for arr in ALL_ARRANGEMENTS
)


def format_arrangement(arrangement: Arrangement) -> str:
    return "".join(TOKENS[t] for t in arrangement[:4]) + "/" + TOKENS[arrangement[4]]


def arrangement_error(text: str) -> tuple[str, int | None] | None:
    """Why ``text`` is not an arrangement (reason, 0-based index), or ``None``."""
    if len(text) != 6 or text[4:5] != "/":
        return (
            "an arrangement is the tokens on NW NE SW SE, a slash and the free token,"
            " e.g. RGBY/P",
            None,
        )
    seen: set[str] = set()
    for i, ch in enumerate(text[:4] + text[5]):
        where = i if i < 4 else 5
        if ch.upper() not in TOKENS:
            return f"{ch!r} is not a token (tokens: {', '.join(TOKENS)})", where
        if ch.upper() in seen:
            return f"token {ch.upper()} appears twice", where
        seen.add(ch.upper())
    return None


def parse_arrangement_text(text: str) -> Arrangement:
    """Read ``RGBY/P``; raise ``ValueError`` with the reason (callers wrap it)."""
    error = arrangement_error(text)
    if error is not None:
        raise ValueError(error[0])
    t = text.upper()
    a, b, c, d, f = (TOKENS.index(ch) for ch in (t[0], t[1], t[2], t[3], t[5]))
    return (a, b, c, d, f)


def correct_corners(arrangement: Arrangement, solution: Arrangement) -> int:
    """How many of the four quatrefoil corners hold their correct token."""
    return sum(arrangement[c] == solution[c] for c in range(4))


def parse_action_name(text: str) -> int | None:
    """The action number of ``W>NW``, ``cw``, ``stack``... (case-insensitive), or ``None``."""
    wanted = text.strip().lower()
    for i, name in enumerate(ACTION_NAMES):
        if name.lower() == wanted:
            return i
    return None
