"""Ice Dao's *no forced win within N* certificates, written on the compiled kernel.

The df-pn of ``fourfold.solve.pns`` expands about a thousand nodes a second in
Python; the compiled alpha-beta (``games/icedao/kernel.py``, ``kernels/search.py``)
searches over a million. This writer walks a *no-win* claim the way the checker will
(``fourfold.solve.certificates``: at the attacker's turn every move, at the defender's
one reply), on the kernel's position with ``push``/``pop``, and picks each defender
reply with the kernel's search: a reply that wins at once for the defender, else one
after which a search of the remaining plies finds no forced win for the attacker
(``proof_search``: the kernel's alpha-beta with a null window around that question).

Nothing here is trusted: the certificate is accepted or refused by the checker on the
readable rules. (The kernel's search calls a repeated position along its own line a
draw; a quickest forced win never repeats a position, so the answer to *a win within
d plies?* is the same, and if a transposition ever made it wrong the checker would
refuse the certificate.) The walk keeps no history (the kernel's repetition rows are
emptied before every move), as the checker's positions have none.

Resumable: the defender's chosen replies are kept by position in a journal (an
SQLite file); a walk stopped at its deadline saves them and the next walk on the same
journal replays them without searching. ``python -m fourfold.games.icedao.proof_kernel``
runs pieces in the background.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.registry import load
from fourfold.games.icedao import kernel as k
from fourfold.games.icedao.kernel_engine import IceDaoEngine
from fourfold.games.icedao.proof_search import attacker_wins_within
from fourfold.solve.certificates import Certificate

NODE_LIMIT = 1 << 62
COMPARED = 4  # safe replies searched to pick the one with the smallest search
Words = tuple[int, int, int, int, int, int, int]


class _Deadline(Exception):
    pass


class Journal:
    """The defender's chosen replies by (position, attacker moves left), on disk."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path)
            self.db.execute("CREATE TABLE IF NOT EXISTS choice (key BLOB PRIMARY KEY,"
                            " i INTEGER NOT NULL) WITHOUT ROWID")
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY,"
                            " value TEXT NOT NULL)")
            self.db.commit()
            rows = self.db.execute("SELECT key, i FROM choice").fetchall()
        except sqlite3.Error as exc:
            raise FourfoldError(f"journal {self.path}: cannot open it ({exc})") from None
        self.choices: dict[bytes, int] = {bytes(key): int(i) for key, i in rows}
        self.new: dict[bytes, int] = {}

    def meta(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT name, value FROM meta").fetchall())

    def set_meta(self, **values: object) -> None:
        self.db.executemany("INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)",
                            ((name, str(v)) for name, v in values.items()))
        self.db.commit()

    def put(self, key: bytes, i: int) -> None:
        self.choices[key] = i
        self.new[key] = i
        if len(self.new) >= 2_000:
            self.flush()

    def flush(self) -> None:
        if self.new:
            self.db.executemany("INSERT OR REPLACE INTO choice (key, i) VALUES (?, ?)",
                                self.new.items())
            self.new.clear()
        self.db.commit()

    def close(self) -> None:
        self.flush()
        self.db.close()


class KernelWalk:
    """The walk of one *no-win* claim on the kernel (see the module's docstring)."""

    def __init__(self, game: Any, attacker: int, journal: Journal | None = None,
                 deadline: float | None = None, bound: bool = True) -> None:
        self.game = game
        self.attacker = attacker
        self.defender = 1 - attacker
        self.engine = IceDaoEngine(game, table_bits=20)
        self.st = self.engine.st
        self.bound = bound  # use the lemma (the certificate names it)
        self.journal = journal
        self.known: dict[bytes, int] = journal.choices if journal is not None else {}
        self.deadline = deadline
        self.line_masks = tuple(game.line_masks)
        self._needed: dict[int, int] = {}  # the lemma by the attacker's squares
        engine = self.engine
        self._args = (engine.t, engine.st, engine.hist, engine.keys)
        self.done: set[tuple[Words, int]] = set()
        self.killers: dict[int, dict[int, int]] = {}  # by moves left: reply -> times chosen
        self.choices: list[int] = []
        self.nodes = 0
        self.searches = 0
        self.search_nodes = 0

    # -- the kernel position -------------------------------------------------------------------

    def _words(self) -> Words:
        st = self.st
        return (int(st[0]), int(st[1]), int(st[2]), int(st[3]), int(st[4]), int(st[5]),
                int(st[k.S_SIDE]))

    def _push(self, action: int) -> int:
        """Play ``action`` with no history; the winner after it (-1: none)."""
        t, st, hist, keys = self._args
        st[k.S_KEYS] = 0
        k.push(t, st, hist, keys, action)
        return int(st[k.S_WINNER])

    def _pop(self) -> None:
        t, st, hist, _ = self._args
        k.pop(t, st, hist)

    def wins_within(self, moves: int) -> bool:
        """Whether the attacker forces a win within ``moves`` of its moves from here (the
        game going on; either side to move)."""
        attacking = int(self.st[k.S_SIDE]) == self.attacker
        legal = self.engine.legal()
        if not legal:  # the side to move has no piece on top: it loses
            return not attacking
        if attacking and moves == 1:
            return self.engine.mover_wins_now()
        plies = 2 * moves - (1 if attacking else 0)
        self.st[k.S_KEYS] = 0
        won, nodes = attacker_wins_within(self.engine, self.attacker, plies, NODE_LIMIT)
        self.searches += 1
        self.search_nodes += nodes
        return won

    def moves_needed(self) -> int:
        """The lemma of ``proof_bound`` on the kernel's bitboards: the fewest moves the
        attacker needs to win (1 when the defender has no small on the board)."""
        st, a = self.st, 3 * self.attacker
        if not st[k.S_BB + 3 * self.defender]:
            return 1
        held = int(st[k.S_BB + a]) | int(st[k.S_BB + a + 1]) | int(st[k.S_BB + a + 2])
        needed = self._needed.get(held)
        if needed is None:
            needed = min(4 - (held & mask).bit_count() for mask in self.line_masks)
            self._needed[held] = needed
        return needed

    def _cost(self, left: int, settled: bool) -> int:
        """After a defender's reply (the attacker to move, ``left`` moves): a guess at
        the size of its subtree in the certificate. Nothing for a node already walked or
        settled by the lemma (``settled``: the attacker needs more than ``left``; a
        defender's move leaves the attacker's squares as they are); with one move left,
        one node; else the attacker's moves after which the defender cannot win at once
        (the others end their line)."""
        if settled or (self._words(), left) in self.done:
            return -1
        if left == 1:
            return 0
        count = 0
        for action in self.engine.legal():
            if self._push(action) < 0 and not self.engine.mover_wins_now():
                count += 1
            self._pop()
        return count

    # -- the walk ------------------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
        # the clock is read at the first node and every 256th after it
        if self.deadline is not None and self.nodes & 255 == 1 \
                and time.perf_counter() > self.deadline:
            raise _Deadline

    def _key(self, left: int) -> bytes:
        """The journal's key of the node here with ``left`` moves."""
        return bytes(repr((self._words(), left)), "ascii")

    def _keep(self, key: bytes, chosen: int) -> int:
        """Keep a node's choice (in the journal, or in memory without one)."""
        if self.journal is not None:
            self.journal.put(key, chosen)
        else:
            self.known[key] = chosen
        return chosen

    def _winning_at_once(self, legal: list[int], side: int) -> int:
        """The index of the first move in ``legal`` that wins for ``side`` at once, or -1."""
        for i, action in enumerate(legal):
            winner = self._push(action)
            self._pop()
            if winner == side:
                return i
        return -1

    def _choose(self, left: int) -> int:
        """The defender (to move) picks a reply after which the attacker cannot win
        within ``left`` moves; its index in the legal moves."""
        key = self._key(left)
        known = self.known.get(key)
        if known is not None:
            return known
        legal = self.engine.legal()
        chosen = self._winning_at_once(legal, self.defender)
        if chosen < 0:
            # the replies whose subtree in the certificate looks smallest first (see
            # ``_cost``), then in order; the first one the search finds safe
            # (a node already walked; the replies chosen most often before, so that lines
            # transpose into walked nodes; the smallest guess)
            killers = self.killers.setdefault(left, {})
            settled = self.bound and self.moves_needed() > left
            costs = []
            for i, action in enumerate(legal):
                if self._push(action) < 0:
                    cost = self._cost(left, settled)
                    costs.append((cost >= 0, cost, -killers.get(action, 0), i))
                self._pop()
            fewest = -1
            compared = 0
            for free, _, _, i in sorted(costs):
                self._push(legal[i])
                before = self.search_nodes
                good = settled or not self.wins_within(left)
                self._pop()
                if not good:
                    continue
                # with two moves left or more, up to COMPARED safe replies are searched
                # and the one whose search was smallest (the table's transpositions
                # included) wins
                spent = self.search_nodes - before
                if chosen < 0 or spent < fewest:
                    chosen, fewest = i, spent
                compared += 1
                if left == 1 or not free or compared == COMPARED:
                    break
            if chosen >= 0:
                killers[legal[chosen]] = killers.get(legal[chosen], 0) + 1
        if chosen < 0:
            raise FourfoldError(f"the attacker wins within {left} moves after every reply"
                                f" at {self._words()}: the claim is false")
        return self._keep(key, chosen)

    def _reply(self, left: int) -> None:
        """The defender to move, the attacker with ``left`` moves after its reply."""
        i = self._choose(left)
        self.choices.append(i)
        winner = self._push(self.engine.legal()[i])
        if winner < 0:
            self.attacker_node(left)
        elif winner == self.attacker:
            raise FourfoldError("the defender's chosen reply loses")
        self._pop()

    def attacker_node(self, n: int) -> None:
        """The attacker to move with ``n`` moves left, the game going on."""
        node = (self._words(), n)
        if node in self.done:
            return
        self._tick()
        if self.bound and self.moves_needed() > n:
            self.done.add(node)
            return
        for action in self.engine.legal():
            winner = self._push(action)
            if winner == self.attacker:
                raise FourfoldError("the attacker wins at once: the claim is false")
            if winner < 0 and n > 1:
                self._reply(n - 1)
            self._pop()
        self.done.add(node)

    def root(self, state: Any, n: int) -> None:
        self.engine.load(state)
        self.st[k.S_KEYS] = 0
        if int(self.st[k.S_WINNER]) >= 0 or self.st[k.S_DRAW]:
            raise FourfoldError("the game is already over")
        if int(self.st[k.S_SIDE]) == self.attacker:
            self.attacker_node(n)
        else:
            self._reply(n)


def write_no_win(game: Any, state: Any, attacker: int, moves: int,
                 journal: Journal | None = None, seconds: float | None = None,
                 bound: bool = True) -> tuple[Certificate | None, KernelWalk]:
    """The certificate of *``attacker`` cannot force a win within ``moves``* from
    ``state``, or ``None`` when ``seconds`` ran out first (the journal keeps the work)."""
    from fourfold.games.icedao.proof_hooks import PROOFS

    deadline = None if seconds is None else time.perf_counter() + seconds
    walk = KernelWalk(game, attacker, journal, deadline, bound)
    state = PROOFS.forget(state)
    try:
        walk.root(state, moves)
    except _Deadline:
        return None, walk
    finally:
        if journal is not None:
            journal.flush()
    certificate = Certificate(game.name, game.info.variant, game.info.option_strings(),
                              game.format_position(state), "no-win", attacker, moves,
                              tuple(walk.choices), PROOFS.bound_name if bound else "")
    return certificate, walk


@dataclass(frozen=True)
class KernelPiece:
    """One piece of writing: a *no-win* claim, its journal, the certificate's path and
    the seconds it may take (a task for ``fourfold.distributed.run_tasks``, Dask too:
    pieces of different claims use different journals)."""

    attacker: int
    moves: int
    journal: str
    out: str
    seconds: float | None = None
    setup: str | None = None
    #: ``"no-win"`` (this module's writer) or ``"win"`` (``proof_win``'s)
    claim: str = "no-win"


@dataclass(frozen=True)
class KernelReport:
    status: str  # "written" or "open"
    nodes: int
    choices: int
    searches: int
    search_nodes: int
    seconds: float  # this piece's, wall
    cpu_seconds: float  # this piece's
    total_seconds: float  # every piece's on this journal, wall

    def describe(self) -> str:
        return (f"{self.status}: {self.nodes} attacker nodes, {self.choices} choices,"
                f" {self.searches} searches ({self.search_nodes} kernel nodes),"
                f" {self.seconds:.0f} s ({self.cpu_seconds:.0f} s CPU; total"
                f" {self.total_seconds:.0f} s)")


def run_kernel_piece(piece: KernelPiece) -> KernelReport:
    """Write ``piece``'s certificate, resuming from its journal, for at most its
    seconds; the certificate goes to ``piece.out`` once the walk is complete."""
    from fourfold.games.icedao.proof_win import write_win

    if piece.attacker not in (0, 1) or not 1 <= piece.moves <= 255:
        raise FourfoldError(f"side {piece.attacker} within {piece.moves}: give side 0 (Blue)"
                            " or 1 (Green) and 1 to 255 moves")
    if piece.claim not in ("no-win", "win"):
        raise FourfoldError(f"claim {piece.claim!r}: give no-win or win")
    writer = write_win if piece.claim == "win" else write_no_win
    game = load("icedao")
    state = game.initial_state() if piece.setup is None else game.parse_position(piece.setup)
    journal = Journal(piece.journal)
    try:
        wins = "wins " if piece.claim == "win" else ""  # the journals' claims as written
        claim = (f"{game.format_position(state)} side {piece.attacker} {wins}within"
                 f" {piece.moves}")
        if journal.meta().get("claim", claim) != claim:
            raise FourfoldError(f"journal {piece.journal} belongs to another claim:"
                                f" {journal.meta()['claim']}")
        journal.set_meta(claim=claim)
        start, cpu = time.perf_counter(), time.process_time()
        certificate, walk = writer(game, state, piece.attacker, piece.moves, journal,
                                   piece.seconds)
        spent, cpu = time.perf_counter() - start, time.process_time() - cpu
        total = float(journal.meta().get("seconds", 0.0)) + spent
        status = "open" if certificate is None else "written"
        journal.set_meta(seconds=round(total, 1), status=status)
    finally:
        journal.close()
    if certificate is not None:
        Path(piece.out).write_text(certificate.to_json())
    return KernelReport(status, walk.nodes, len(walk.choices), walk.searches,
                        walk.search_nodes, spent, cpu, total)


def main(argv: list[str] | None = None) -> int:
    """``python -m fourfold.games.icedao.proof_kernel SIDE MOVES JOURNAL OUT [--seconds S]
    [--setup P]``: write the certificate of *SIDE cannot force a win within MOVES* from
    the start (or ``--setup``) to OUT, or stop after S seconds with the journal saved
    (run it again to resume)."""
    return piece_main(argv, "no-win", "python -m fourfold.games.icedao.proof_kernel")


def piece_main(argv: list[str] | None, claim: str, prog: str) -> int:
    """The command line of one piece of a ``claim``'s writing (this module's, and
    ``proof_win``'s)."""
    p = argparse.ArgumentParser(prog=prog)
    p.add_argument("side", type=int)
    p.add_argument("moves", type=int)
    p.add_argument("journal")
    p.add_argument("out")
    p.add_argument("--seconds", type=float)
    p.add_argument("--setup")
    args = p.parse_args(argv)
    try:
        report = run_kernel_piece(KernelPiece(args.side, args.moves, args.journal, args.out,
                                              args.seconds, args.setup, claim))
    except FourfoldError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(report.describe(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
