"""Depth-first proof-number search (df-pn, Nagai 2002) for a bounded forced win.

The claim: *the attacker, whose moves these are, forces a win within N of its own
moves from the root* (the side to move at the root may be either side). A node is a
position with the attacker's moves left. At the attacker's turn (an OR node) a move
that wins at once proves it, and with one move left nothing else does; otherwise
each move leads to the defender's turn with one move fewer. At the defender's turn
(an AND node) a move that wins at once for the defender disproves it, and every
reply must leave a position the attacker still wins. The moves left fall by one
every two plies, so the nodes form a graph without cycles.

Proof numbers count the leaves still to prove (disproof numbers: to disprove); a
node's entry is stored under its position's key and its moves left. Proven nodes
have ``(0, INF)``, disproven ``(INF, 0)``. The search works within thresholds and
returns to the parent as soon as a number reaches one (the multiple-iterative-
deepening of df-pn), so only the path lives on the stack and the table carries
everything else: stopping at a deadline loses nothing stored, and a new search on
the same table resumes where the last stopped.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.solve.pns.hooks import Positions
from fourfold.solve.pns.table import DiskTable

INF = 1 << 40


class Status(enum.Enum):
    PROVEN = "proven"
    DISPROVEN = "disproven"
    OPEN = "open"


@dataclass(frozen=True)
class Claim:
    """``attacker`` forces a win within ``moves`` of its own moves."""

    attacker: int
    moves: int


class _Stop(Exception):
    pass


def node_key(positions: Positions, position: Any, moves: int) -> bytes:
    return positions.key(position) + bytes((moves,))


class DfPn:
    """One claim's df-pn on one table; ``run`` searches until done or a deadline."""

    def __init__(self, positions: Positions, table: DiskTable, claim: Claim) -> None:
        if not 1 <= claim.moves <= 255:
            raise FourfoldError(f"moves must be 1..255, not {claim.moves}")
        self.positions = positions
        self.table = table
        self.claim = claim
        self.nodes = 0
        self.deadline: float | None = None

    def run(self, root: Any, seconds: float | None = None) -> Status:
        """Search from ``root`` until the claim is proven or disproven, or ``seconds``
        have passed (``Status.OPEN``); the table keeps the work either way."""
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        key = node_key(self.positions, root, self.claim.moves)
        try:
            while True:
                pn, dn = self._entry(key)
                if pn == 0:
                    return Status.PROVEN
                if dn == 0:
                    return Status.DISPROVEN
                self._mid(root, self.claim.moves, key, INF, INF)
        except _Stop:
            return Status.OPEN
        finally:
            self.table.flush()

    def _entry(self, key: bytes) -> tuple[int, int]:
        return self.table.get(key) or (1, 1)

    def _children(self, position: Any, moves: int) -> list[tuple[Any, int, bytes]] | bool:
        """The node's children ``(position, moves left, key)``, or ``True``/``False``
        when the node is proven/disproven on its own."""
        attacking = self.positions.side(position) == self.claim.attacker
        if self.positions.wins_at_once(position):
            return attacking
        if attacking and moves == 1:
            return False
        successors = self.positions.successors(position)
        if not successors:  # the side to move cannot move: it loses
            return not attacking
        if attacking:
            moves -= 1
        return [(child, moves, node_key(self.positions, child, moves)) for child, _ in successors]

    def _mid(self, position: Any, moves: int, key: bytes, th_pn: int, th_dn: int) -> None:
        self.nodes += 1
        if self.deadline is not None and self.nodes & 1023 == 0 \
                and time.perf_counter() > self.deadline:
            raise _Stop
        children = self._children(position, moves)
        if children is True:
            self.table.put(key, 0, INF)
            return
        if children is False:
            self.table.put(key, INF, 0)
            return
        assert isinstance(children, list)
        attacking = self.positions.side(position) == self.claim.attacker
        while True:
            best = -1
            best_pn = best_dn = INF
            second = INF
            total = 0
            for i, (_, _, child_key) in enumerate(children):
                cpn, cdn = self._entry(child_key)
                # an OR node minimises proof numbers and adds disproof numbers; AND: dual
                mine, other = (cpn, cdn) if attacking else (cdn, cpn)
                total = min(INF, total + other)
                if mine < (best_pn if attacking else best_dn):
                    second = best_pn if attacking else best_dn
                    best, best_pn, best_dn = i, cpn, cdn
                elif mine < second:
                    second = mine
            pn, dn = (best_pn, total) if attacking else (total, best_dn)
            if pn >= th_pn or dn >= th_dn:
                self.table.put(key, pn, dn)
                return
            child, child_moves, child_key = children[best]
            if attacking:
                c_pn = min(th_pn, second + 1)
                c_dn = min(INF, th_dn - dn + best_dn)
            else:
                c_dn = min(th_dn, second + 1)
                c_pn = min(INF, th_pn - pn + best_pn)
            self._mid(child, child_moves, child_key, c_pn, c_dn)
