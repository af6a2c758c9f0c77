"""The equally likely cases a Quatrefoil team figure averages over.

The rules deal a uniform solution (120), a uniform dealing of position cards (24) and
a uniform start other than the solution (119): 342,720 deals. The team policies here
and the optimum are unchanged by relabelling the tokens (every action is a permutation
of slots, whatever the tokens' colours) and, when the position cards are face up, by
relabelling the seats' cards accordingly; so, as for the public optimum
(``solve/quatrefoil_public.public_optimum``), fewer cases carry the same average:

* base (and Race the Clock's actions): one start, every solution but the start and
  every dealing: 119 x 24 = 2,856 cases;
* colour cards face up: one colouring (seat k holds colour k, north is token 4),
  every start and every dealing, less the 24 solved starts: 2,856 cases;
* position cards face up: one start, seat k holds corner k, every solution but the
  start: 119 cases;
* everything face up: one solution (the identity), seats on their own corners, every
  other start: 119 cases.

The ``optimal`` policy renames the tokens so that the start is the identity before it
decides, and the public optimum's policy compares exact fractions, so for them the
claim holds by construction (``tests/test_quatrefoil_team.py`` checks it on sampled
deals of the whole space). Today's ``quatrefoil`` bots break ties between
floating-point scores whose rounding depends on the tokens' numbers, so they are not
exactly symmetric: their exact figure needs ``every_deal()``, all 342,720 deals.
"""

from __future__ import annotations

from itertools import permutations

from fourfold.core.errors import FourfoldError
from fourfold.games.quatrefoil.arrangement import ALL_ARRANGEMENTS, Arrangement

FACE_UP = ("none", "colour", "position", "all")
IDENTITY: Arrangement = (0, 1, 2, 3, 4)
Positions = tuple[int, int, int, int]
#: A case: (start, solution, each seat's position card).
Case = tuple[Arrangement, Arrangement, Positions]
DEALINGS: tuple[Positions, ...] = tuple(
    (p[0], p[1], p[2], p[3]) for p in permutations(range(4))
)


def cases(face_up: str = "none") -> list[Case]:
    """Every case for one way of showing cards (see the module text)."""
    if face_up not in FACE_UP:
        raise FourfoldError(f"face_up is one of {', '.join(FACE_UP)}, not {face_up!r}")
    out: list[Case] = []
    if face_up == "none":
        for solution in ALL_ARRANGEMENTS:
            if solution != IDENTITY:
                out.extend((IDENTITY, solution, p) for p in DEALINGS)
    elif face_up == "colour":
        for start in ALL_ARRANGEMENTS:
            for p in DEALINGS:
                # seat k's colour is token k: the token k lies on corner p[k]
                sol = [4, 4, 4, 4, 4]
                for seat, corner in enumerate(p):
                    sol[corner] = seat
                coloured: Arrangement = (sol[0], sol[1], sol[2], sol[3], sol[4])
                if coloured != start:
                    out.append((start, coloured, p))
    elif face_up == "position":
        out.extend((IDENTITY, s, (0, 1, 2, 3)) for s in ALL_ARRANGEMENTS if s != IDENTITY)
    else:
        out.extend((s, IDENTITY, (0, 1, 2, 3)) for s in ALL_ARRANGEMENTS if s != IDENTITY)
    return out


def every_deal() -> list[Case]:
    """The rules' whole deal space: every start, every other solution, every dealing."""
    return [(start, solution, p) for start in ALL_ARRANGEMENTS for solution in ALL_ARRANGEMENTS
            if solution != start for p in DEALINGS]
