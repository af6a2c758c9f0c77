"""Shortest Quatrefoil solutions by breadth-first search over the 120 arrangements.

The ten moving actions (8 pushes, 2 twists) are permutations of the five token slots,
so every arrangement has ten neighbours and the whole graph has 120 nodes. A solution
is a shortest action path from the start to the solution arrangement, then ``stack``.
Every action has an inverse (``W>NW``/``E>NE``, ``cw``/``ccw``, ...), so distances are
symmetric; the table of all 120x120 distances is computed once, on first use.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from fourfold.games.quatrefoil.arrangement import (
    ACTION_NAMES,
    ALL_ARRANGEMENTS,
    INDEX,
    MOVING_ACTIONS,
    NEXT,
    STACK,
    Arrangement,
)


def _bfs(source: int) -> tuple[list[int], list[int], list[int]]:
    """Distances from ``source``, and each node's parent and the action reaching it."""
    n = len(ALL_ARRANGEMENTS)
    dist = [-1] * n
    parent = [-1] * n
    via = [-1] * n
    dist[source] = 0
    queue = deque([source])
    while queue:
        node = queue.popleft()
        for action in MOVING_ACTIONS:
            nxt = NEXT[node][action]
            if dist[nxt] < 0:
                dist[nxt] = dist[node] + 1
                parent[nxt] = node
                via[nxt] = action
                queue.append(nxt)
    return dist, parent, via


@lru_cache(maxsize=1)
def distance_table() -> tuple[tuple[int, ...], ...]:
    """``distance_table()[i][j]``: fewest moving actions from arrangement ``i`` to ``j``."""
    return tuple(tuple(_bfs(i)[0]) for i in range(len(ALL_ARRANGEMENTS)))


def distance(start: Arrangement, goal: Arrangement) -> int:
    """Fewest pushes and twists from ``start`` to ``goal`` (stack not counted)."""
    return distance_table()[INDEX[start]][INDEX[goal]]


def optimum(start: Arrangement, solution: Arrangement) -> int:
    """Fewest actions that win from ``start``: the moves, plus the final ``stack``."""
    return distance(start, solution) + 1


def solve(start: Arrangement, solution: Arrangement) -> list[int]:
    """A shortest winning action sequence (action numbers), ending in ``stack``.

    Among shortest sequences this is the one BFS finds first, trying actions in
    notation order (``W>NW`` first), so the answer is deterministic.
    """
    _, parent, via = _bfs(INDEX[start])
    node = INDEX[solution]
    actions: list[int] = []
    while node != INDEX[start]:
        actions.append(via[node])
        node = parent[node]
    actions.reverse()
    return [*actions, STACK]


def shortest_first_actions(arrangement: Arrangement, goal: Arrangement) -> list[int]:
    """Every moving action that starts some shortest path from ``arrangement`` to ``goal``."""
    table = distance_table()
    here = INDEX[arrangement]
    target = INDEX[goal]
    d = table[here][target]
    return [a for a in MOVING_ACTIONS if table[NEXT[here][a]][target] == d - 1]


def diameter() -> int:
    """The largest distance between two arrangements."""
    return max(max(row) for row in distance_table())


def action_names(actions: list[int]) -> list[str]:
    return [ACTION_NAMES[a] for a in actions]
