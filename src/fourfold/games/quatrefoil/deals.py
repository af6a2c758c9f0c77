"""Every Quatrefoil deal as a number, and the signals each shows: what the seat bots
(``bots_seat``) and the team policy (``solver_team.policy``) reason over.

A deal is the solution arrangement plus which seat holds which position card:
120 x 24 = 2,880 deals, numbered solution first (``DEALS[d]`` is ``(solution index,
position cards of seats 1..4)``). Under a deal, seat ``k``'s signal is up on an
arrangement when the corner of its position card holds the token that belongs there.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import permutations

from fourfold.games.quatrefoil.arrangement import ALL_ARRANGEMENTS

#: Every deal as (solution index, position cards of seats 1..4).
DEALS: tuple[tuple[int, tuple[int, int, int, int]], ...] = tuple(
    (s, (p[0], p[1], p[2], p[3]))
    for s in range(len(ALL_ARRANGEMENTS)) for p in permutations(range(4))
)


@lru_cache(maxsize=1)
def _correct_masks() -> tuple[tuple[int, ...], ...]:
    """``[i][s]``: bit ``c`` set when arrangement ``i`` has solution ``s``'s token on corner c."""
    return tuple(
        tuple(
            sum(1 << c for c in range(4) if a[c] == s[c]) for s in ALL_ARRANGEMENTS
        )
        for a in ALL_ARRANGEMENTS
    )


def signal_pattern(arrangement: int, deal: int) -> int:
    """The four signals (bit ``k`` for seat ``k``) at ``arrangement`` under ``deal``."""
    s, p = DEALS[deal]
    m = _correct_masks()[arrangement][s]
    return (m >> p[0] & 1) | (m >> p[1] & 1) << 1 | (m >> p[2] & 1) << 2 | (m >> p[3] & 1) << 3


@cache
def signal_patterns(arrangement: int) -> tuple[int, ...]:
    """Per deal, the signal pattern shown on ``arrangement``."""
    return tuple(signal_pattern(arrangement, d) for d in range(len(DEALS)))
