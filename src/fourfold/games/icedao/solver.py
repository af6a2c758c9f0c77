"""Ice Dao: proof search for bounded forced wins, and the number of positions.

From the start Blue wins, the quickest forced win taking exactly 11 plies: the stored
proof certificates prove it (``solver_stored``; every other position is searched). This
module's search answers a narrower question exactly:
*can the side to move force a win within N of its own moves?* (a win on its
N-th move at the latest, that is within ``2N - 1`` plies), and the mirror
question, *can the opponent force a win within N moves whatever the side to
move does?* (a forced loss within ``2N`` plies).

Search. An AND/OR depth-first search with iterative deepening on N: at the
attacker's turn some move must win at once (or leave the defender with no piece
to move), or lead to a position where after every defender reply (``pass``
included) the attacker can again force a win within N - 1 moves. A defender
reply that wins at once, or that reaches a position which would be drawn,
refutes the attacker's move.
A transposition table keyed by (position, N) keeps the smallest N proven to
win and the largest N proven to fail for each position.

Repetition, precisely. The game draws when a position (board and side to move)
occurs for the third time. A bounded forced win never needs to repeat a
position: if the attacker always plays a move that keeps the quickest forced
win, the number of moves left falls by one each turn, so no position recurs on
the way. Hence the answer is the same with or without the repetition rule along
the line, and the search does not track the line's own repetitions (which keeps
the table valid). What the game's history *can* change is a position that has
already occurred twice before the root: reaching it again draws at once. Such
positions are given to the search as drawn (a failure for whichever side is
trying to win), so the answers are exact for the given history.

A ``pass`` leaves the board as it is and hands over the turn; the position
(with the other side to move) is a new position for the repetition count.

Counting positions: ``count_positions`` gives the exact number of stack
configurations of the full set (each size independently: two Blue and two
Green pieces of that size on four different squares; sizes never conflict
because a stack is always larger-under-smaller), the exact number of those in
which one given side has four in a line (by enumerating that side's 300^3
placements), hence the exact number of positions a position string may
describe (the side to move has no line). How many of those have *no* line for
either side (the game still going) is estimated by Monte Carlo with a 95%
interval (``estimate_open_positions``). Reachability from the start is not
considered: these are upper bounds on the positions a game can reach.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.outcome import Result
from fourfold.games.icedao.game import IceDaoGame
from fourfold.games.icedao.pieces import colour, size
from fourfold.games.icedao.state import IceDaoState
from fourfold.games.sliding.geometry import NUM_DIRECTIONS
from fourfold.solve.position import MoveValue, Solution, Value, ended_solution, sort_moves

SQUARES = 25
SIZES = 3
#: the deepest N tried when no time limit is given
DEFAULT_MAX_MOVES = 3

# A square's stack is coded by who holds each size slot: 0 empty, 1 Blue, 2 Green;
# code = large + 3 * medium + 9 * small (27 codes, 0 = empty square).
_SLOT = (9, 3, 1)  # weight of the small, medium and large slot


def _slot(code: int, s: int) -> int:
    return code // _SLOT[s] % 3


def _top_size(code: int) -> int:
    """Size of the top (smallest) piece, 3 for an empty square."""
    for s in range(SIZES):
        if _slot(code, s):
            return s
    return SIZES


TOP_SIZE = tuple(_top_size(c) for c in range(27))
TOP_COLOUR = tuple(_slot(c, TOP_SIZE[c]) - 1 if TOP_SIZE[c] < SIZES else -1 for c in range(27))
WITHOUT_TOP = tuple(c - _SLOT[TOP_SIZE[c]] * _slot(c, TOP_SIZE[c]) if TOP_SIZE[c] < SIZES else c
                    for c in range(27))
HOLDS = tuple(tuple(any(_slot(c, s) == side + 1 for s in range(SIZES)) for side in (0, 1))
              for c in range(27))


def stack_code(stack: tuple[int, ...]) -> int:
    return sum(_SLOT[size(p)] * (colour(p) + 1) for p in stack)


Board = tuple[int, ...]
Key = tuple[Board, int]


class _Timeout(Exception):
    pass


class ProofSearch:
    """Bounded forced-win search over one game's geometry, with a shared table."""

    def __init__(self, game: IceDaoGame, forbidden: frozenset[Key] = frozenset(),
                 deadline: float | None = None) -> None:
        self.game = game
        self.rays = tuple(tuple(game.board.rays[sq][d] for d in range(NUM_DIRECTIONS))
                          for sq in range(SQUARES))
        self.lines_through = tuple(tuple(game.line_masks[i] for i in game.lines_through[sq])
                                   for sq in range(SQUARES))
        self.forbidden = forbidden
        self.deadline = deadline
        self.won: dict[Key, int] = {}  # smallest N proven to win
        self.failed: dict[Key, int] = {}  # largest N proven not to win
        self.nodes = 0

    # -- positions ------------------------------------------------------------------------
    @staticmethod
    def key_of(state: IceDaoState) -> Key:
        return tuple(stack_code(s) for s in state.board), state.to_play

    def moves(self, board: Board, side: int) -> Iterator[tuple[Board | None, int, int]]:
        """``(new board, origin, target)`` per slide, then ``(None, -1, -1)`` for a pass."""
        can_pass = False
        for s in range(SQUARES):
            code = board[s]
            if TOP_COLOUR[code] != side:
                continue
            z = TOP_SIZE[code]
            for ray in self.rays[s]:
                t = s
                for q in ray:
                    if TOP_SIZE[board[q]] <= z:
                        break
                    t = q
                if t == s:
                    can_pass = True
                    continue
                new = list(board)
                new[s] = WITHOUT_TOP[code]
                new[t] = board[t] + _SLOT[z] * (side + 1)
                yield tuple(new), s, t
        if can_pass:
            yield None, -1, -1

    def wins_now(self, board: Board, side: int, target: int) -> bool:
        """Whether ``side`` has four in a line through ``target`` (where it just moved)."""
        mask = 0
        for sq in range(SQUARES):
            if HOLDS[board[sq]][side]:
                mask |= 1 << sq
        return any(mask & line == line for line in self.lines_through[target])

    def stuck(self, board: Board, side: int) -> bool:
        return all(TOP_COLOUR[c] != side for c in board)

    def _tick(self) -> None:
        self.nodes += 1
        if self.deadline is not None and self.nodes & 255 == 0 \
                and time.perf_counter() > self.deadline:
            raise _Timeout

    # -- the search ----------------------------------------------------------------------
    def win_within(self, board: Board, side: int, n: int) -> bool:
        """Whether ``side``, to move, can force a win within ``n`` of its moves."""
        if n <= 0:
            return False
        key = (board, side)
        if self.won.get(key, n + 1) <= n:
            return True
        if self.failed.get(key, 0) >= n:
            return False
        self._tick()
        children = []
        for new, _, target in self.moves(board, side):
            if new is None:
                children.append((board, -1))
                continue
            if self.wins_now(new, side, target) or self.stuck(new, 1 - side):
                self.won[key] = 1
                return True
            children.append((new, target))
        if n > 1:
            # moves onto lines first: they are the likely threats
            children.sort(key=lambda c: -self._pressure(c[0], side, c[1]))
            for new, _ in children:
                if (new, 1 - side) in self.forbidden:
                    continue
                if self.all_lose(new, 1 - side, n - 1):
                    self.won[key] = n
                    return True
        self.failed[key] = max(self.failed.get(key, 0), n)
        return False

    def all_lose(self, board: Board, side: int, n: int) -> bool:
        """Whether every move of ``side`` (to move) lets the other side force a win
        within ``n`` of its moves (``side`` has a move: it is never stuck here)."""
        replies = []
        for new, _, target in self.moves(board, side):
            if new is None:
                new = board
            elif self.wins_now(new, side, target) or self.stuck(new, 1 - side):
                return False
            replies.append(new)
        for new in replies:
            if (new, 1 - side) in self.forbidden or not self.win_within(new, 1 - side, n):
                return False
        return True

    def _pressure(self, board: Board, side: int, target: int) -> int:
        if target < 0:
            return -1
        mask = 0
        for sq in range(SQUARES):
            if HOLDS[board[sq]][side]:
                mask |= 1 << sq
        return max((mask & line).bit_count() for line in self.lines_through[target])


# -- solving a position -----------------------------------------------------------------------

def _forbidden(state: IceDaoState) -> frozenset[Key]:
    """Positions already seen twice (the current one included): a return draws."""
    seen: dict[str, int] = {}
    for k in (*state.history, state.key):
        seen[k] = seen.get(k, 0) + 1
    twice = {k for k, n in seen.items() if n >= 2}
    if not twice:
        return frozenset()
    # keys are the state's repetition keys: rebuild the positions they name
    out = set()
    for k in twice:
        out.add(_key_from_repetition_key(k))
    return frozenset(out)


def _key_from_repetition_key(text: str) -> Key:
    from fourfold.games.icedao.pieces import STACK_CODE

    by_char = {ch: stack for stack, ch in STACK_CODE.items()}
    board = tuple(stack_code(by_char[ch]) for ch in text[:-1])
    return board, int(text[-1])


def _as_icedao(game: Game[Any, Any]) -> IceDaoGame:
    if not isinstance(game, IceDaoGame):
        raise FourfoldError(f"the Ice Dao solver cannot solve {game.name}")
    return game


@dataclass(frozen=True)
class Proof:
    """The answer of ``prove``: the side to move wins or loses within ``moves`` of the
    winner's moves (``value`` is ``None`` when neither was proven up to ``searched``)."""

    value: Value | None
    moves: int
    searched: int
    nodes: int
    seconds: float


def prove(game: Game[Any, Any], state: IceDaoState, max_moves: int,
          seconds: float | None = None) -> Proof:
    """Iterative deepening on N = 1..``max_moves``: a forced win within N moves for the
    side to move, or a forced loss (the opponent forces a win within N), whichever is
    proven first. Stops early (with what it has) when ``seconds`` run out."""
    icedao = _as_icedao(game)
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    search = ProofSearch(icedao, _forbidden(state), deadline)
    board, side = search.key_of(state)
    searched = 0
    try:
        for n in range(1, max_moves + 1):
            if search.win_within(board, side, n):
                return Proof(Value.WIN, n, n, search.nodes, time.perf_counter() - start)
            if search.all_lose(board, side, n):
                return Proof(Value.LOSS, n, n, search.nodes, time.perf_counter() - start)
            searched = n
    except _Timeout:
        pass
    return Proof(None, 0, searched, search.nodes, time.perf_counter() - start)


def solve_within(game: Game[Any, Any], state: IceDaoState, max_moves: int,
                 seconds: float | None = None) -> Solution | None:
    """A ``Solution`` when the side to move is proven to win or lose within ``max_moves``
    moves of the winner (and ``seconds``); ``None`` otherwise.

    Distances are in plies: a win on the N-th own move is ``2N - 1`` plies away, a loss
    to the opponent's N-th move ``2N``. Each move is then classified with the same
    bound: proven won or lost (with its distance) or ``Value.UNKNOWN``.
    """
    icedao = _as_icedao(game)
    ended = ended_solution(game, state, state.to_play)
    if ended is not None:
        return ended
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    proof = prove(game, state, max_moves, seconds)
    if proof.value is None:
        return None
    bound = proof.moves
    search = ProofSearch(icedao, _forbidden(state), deadline)
    distance = 2 * bound - 1 if proof.value is Value.WIN else 2 * bound
    moves = []
    for move in game.legal_moves(state):
        child = game.next_state(state, move)
        moves.append(MoveValue(move, *_move_value(game, search, child, bound)))
    return Solution(proof.value, distance, sort_moves(moves), proof.nodes + search.nodes,
                    time.perf_counter() - start)


def _move_value(game: Game[Any, Any], search: ProofSearch, child: IceDaoState,
                bound: int) -> tuple[Value, int | None]:
    """The value of the move that led to ``child``, for the player who made it."""
    outcome = game.outcome(child)
    if outcome is not None:
        if outcome.result is Result.DRAW:
            return Value.DRAW, 1
        return (Value.WIN if outcome.winner != child.to_play else Value.LOSS), 1
    board, side = search.key_of(child)
    if (board, side) in search.forbidden:
        return Value.DRAW, 1
    try:
        for n in range(1, bound + 1):
            if search.win_within(board, side, n):
                return Value.LOSS, 2 * n
            if n < bound and search.all_lose(board, side, n):
                return Value.WIN, 2 * n + 1
    except _Timeout:
        pass
    return Value.UNKNOWN, None


def solve(game: Game[Any, Any], state: Any, seconds: float | None = None) -> Solution | None:
    """The solver entry: what the stored proof certificates prove (``solver_stored``: the
    start's value, and each move's value or bound), combined with ``solve_within`` with
    iterative deepening up to the time limit (or, with no limit, up to
    ``DEFAULT_MAX_MOVES``), whose exact values beat the certificates' bounds. No search
    when the certificates leave it nothing to add (the start)."""
    from fourfold.games.icedao import solver_stored

    icedao = _as_icedao(game)
    ended = ended_solution(game, state, state.to_play)
    if ended is not None:
        return ended
    stored = solver_stored.stored_solution(icedao, state, _forbidden(state), ProofSearch.key_of)
    if stored is not None and solver_stored.settled(stored):
        return stored
    max_moves = DEFAULT_MAX_MOVES if seconds is None else 50
    found = solve_within(game, state, max_moves, seconds)
    return solver_stored.combine(icedao, state, stored, found)


# -- counting positions -----------------------------------------------------------------------

def _line_masks() -> np.ndarray:
    from fourfold.core.registry import load

    game = load("icedao")
    assert isinstance(game, IceDaoGame)
    return np.array(game.line_masks, dtype=np.int64)


@dataclass(frozen=True)
class PositionCount:
    """Exact counts (see the module docstring)."""

    configurations: int  # stack configurations of all 12 pieces
    with_line_one_side: int  # configurations where a given side has four in a line
    legal: int  # (configuration, side to move) with no line for the side to move


def count_positions() -> PositionCount:
    lines = _line_masks()
    pairs = np.array([(1 << a) | (1 << b) for a in range(SQUARES) for b in range(a + 1, SQUARES)],
                     dtype=np.int64)  # 300
    two_of_rest = math.comb(SQUARES - 2, 2)  # the other side's pair, per size: 253
    per_size = len(pairs) * two_of_rest
    configurations = per_size ** SIZES
    inner = (pairs[:, None] | pairs[None, :]).ravel()
    one_side = 0
    for a in pairs:
        mask = inner | a
        hit = np.zeros(len(mask), dtype=bool)
        for line in lines:
            hit |= (mask & line) == line
        one_side += int(hit.sum())
    with_line = one_side * two_of_rest ** SIZES
    return PositionCount(configurations, with_line, 2 * (configurations - with_line))


@dataclass(frozen=True)
class Estimate:
    fraction: float
    low: float
    high: float
    samples: int


def estimate_open_positions(samples: int, seed: int = 2026) -> Estimate:
    """The fraction of configurations with no line for either side (Wilson 95% interval),
    from ``samples`` uniform random configurations."""
    lines = _line_masks()
    rng = np.random.default_rng(seed)
    blue = np.zeros(samples, dtype=np.int64)
    green = np.zeros(samples, dtype=np.int64)
    for _ in range(SIZES):
        squares = np.argsort(rng.random((samples, SQUARES)), axis=1)[:, :4]
        bits = np.left_shift(np.int64(1), squares.astype(np.int64))
        blue |= bits[:, 0] | bits[:, 1]
        green |= bits[:, 2] | bits[:, 3]
    line_b = np.zeros(samples, dtype=bool)
    line_g = np.zeros(samples, dtype=bool)
    for line in lines:
        line_b |= (blue & line) == line
        line_g |= (green & line) == line
    hits = int((~line_b & ~line_g).sum())
    p = hits / samples
    z = 1.959963984540054
    denom = 1 + z * z / samples
    centre = (p + z * z / (2 * samples)) / denom
    half = z * math.sqrt(p * (1 - p) / samples + z * z / (4 * samples * samples)) / denom
    return Estimate(p, centre - half, centre + half, samples)


def random_position(game: IceDaoGame, rng: random.Random) -> IceDaoState:
    """A uniformly random configuration of the full set with a random side to move and
    no line for the side to move (for tests and benchmarks)."""
    while True:
        stacks: list[list[int]] = [[] for _ in range(SQUARES)]
        for s in (2, 1, 0):  # larger first, so stacks build bottom up
            squares = rng.sample(range(SQUARES), 4)
            for i, sq in enumerate(squares):
                stacks[sq].append(3 * (i // 2) + s)
        layout = ["".join(("BG"[p // 3] + "sml"[p % 3]) for p in st) for st in stacks]
        from fourfold.games.sliding.positions import format_layout

        text = format_layout(game.board, layout, "BG"[rng.randrange(2)])
        try:
            return game.parse_position(text)
        except FourfoldError:
            continue


__all__ = ["Proof", "ProofSearch", "count_positions", "estimate_open_positions", "prove",
           "solve", "solve_within"]


def main() -> None:
    """``python -m fourfold.games.icedao.solver [SAMPLES]``: the position counts of
    docs/solutions.md."""
    import sys

    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
    start = time.perf_counter()
    count = count_positions()
    counted = time.perf_counter() - start
    print(f"stack configurations of the full set: {count.configurations:,}")
    print(f"  with four in a line for one given side: {count.with_line_one_side:,}"
          f" ({count.with_line_one_side / count.configurations:.4%})")
    print(f"positions (configuration, side to move) with no line for the side to move:"
          f" {count.legal:,}  [exact, {counted:.1f} s]")
    start = time.perf_counter()
    est = estimate_open_positions(samples)
    scale = 2 * count.configurations
    print(f"with no line for either side (game going on): {est.fraction:.4%}"
          f" [95% interval {est.low:.4%} .. {est.high:.4%}], about {est.fraction * scale:.4g}"
          f" [{est.low * scale:.4g} .. {est.high * scale:.4g}]  [Monte Carlo, {est.samples:,}"
          f" samples, seed 2026, {time.perf_counter() - start:.1f} s]")


if __name__ == "__main__":
    main()
