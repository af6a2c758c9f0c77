"""Ice Dao's *forced win within N* certificates, written on the compiled kernel.

The companion of ``proof_kernel`` (which writes *no win within N*): this writer walks a
*win* claim the way the checker will (``fourfold.solve.certificates``: at the
attacker's turn one chosen move, at the defender's every reply), on the kernel's
position with ``push``/``pop`` and no history, and chooses each attacker move with the
null-window test of ``proof_search``: a move that wins at once if there is one, else,
for d = 1, 2, ... up to the moves left, the first move (in the readable rules' order)
after which the attacker forces a win within d more moves. So every node takes a
quickest win, which never repeats a position (docs/solutions.md), and the tree stays
as small as this choice makes it.

Nothing here is trusted: the checker replays the certificate on the readable rules.
Resumable as ``proof_kernel``: the attacker's choices are kept by position in a journal
(SQLite); a piece stopped at its deadline saves them and the next piece replays them.
``python -m fourfold.games.icedao.proof_win SIDE MOVES JOURNAL OUT [--seconds S]
[--setup P]``.
"""

from __future__ import annotations

import time
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.games.icedao import kernel as k
from fourfold.games.icedao.proof_kernel import NODE_LIMIT, Journal, KernelWalk, _Deadline
from fourfold.games.icedao.proof_search import attacker_wins_within
from fourfold.solve.certificates import Certificate


class WinWalk(KernelWalk):
    """The walk of one *win* claim on the kernel (see the module's docstring)."""

    def _choose_win(self, n: int) -> int:
        """The attacker (to move, ``n`` moves left) picks a quickest winning move; its
        index in the legal moves."""
        key = self._key(n)
        known = self.known.get(key)
        if known is not None:
            return known
        legal = self.engine.legal()
        chosen = self._winning_at_once(legal, self.attacker)
        for d in range(1, n):
            if chosen >= 0:
                break
            for i, action in enumerate(legal):
                if self._push(action) < 0:
                    won, nodes = attacker_wins_within(self.engine, self.attacker, 2 * d,
                                                      NODE_LIMIT)
                    self.searches += 1
                    self.search_nodes += nodes
                else:
                    won = False
                self._pop()
                if won:
                    chosen = i
                    break
        if chosen < 0:
            raise FourfoldError(f"the attacker has no win within {n} moves at"
                                f" {self._words()}: the claim is false")
        return self._keep(key, chosen)

    def attacker_node(self, n: int) -> None:
        """The attacker to move with ``n`` moves left, the game going on."""
        node = (self._words(), n)
        if node in self.done:
            return
        self._tick()
        i = self._choose_win(n)
        self.choices.append(i)
        winner = self._push(self.engine.legal()[i])
        if winner < 0:
            if n == 1:
                raise FourfoldError("the attacker's last move does not win")
            for reply in self.engine.legal():
                if self._push(reply) >= 0:
                    raise FourfoldError(f"a defender reply ends the game at {self._words()}")
                self.attacker_node(n - 1)
                self._pop()
        elif winner != self.attacker:
            raise FourfoldError("the attacker's chosen move loses")
        self._pop()
        self.done.add(node)

    def root(self, state: Any, n: int) -> None:
        self.engine.load(state)
        self.st[k.S_KEYS] = 0
        if int(self.st[k.S_WINNER]) >= 0 or self.st[k.S_DRAW]:
            raise FourfoldError("the game is already over")
        if int(self.st[k.S_SIDE]) == self.attacker:
            self.attacker_node(n)
            return
        for reply in self.engine.legal():
            if self._push(reply) >= 0:
                raise FourfoldError("a defender reply ends the game")
            self.attacker_node(n)
            self._pop()


def write_win(game: Any, state: Any, attacker: int, moves: int,
              journal: Journal | None = None, seconds: float | None = None
              ) -> tuple[Certificate | None, WinWalk]:
    """The certificate of *``attacker`` forces a win within ``moves``* from ``state``, or
    ``None`` when ``seconds`` ran out first (the journal keeps the work)."""
    from fourfold.games.icedao.proof_hooks import PROOFS

    deadline = None if seconds is None else time.perf_counter() + seconds
    walk = WinWalk(game, attacker, journal, deadline, bound=False)
    state = PROOFS.forget(state)
    try:
        walk.root(state, moves)
    except _Deadline:
        return None, walk
    finally:
        if journal is not None:
            journal.flush()
    certificate = Certificate(game.name, game.info.variant, game.info.option_strings(),
                              game.format_position(state), "win", attacker, moves,
                              tuple(walk.choices))
    return certificate, walk


def main(argv: list[str] | None = None) -> int:
    """``python -m fourfold.games.icedao.proof_win SIDE MOVES JOURNAL OUT [--seconds S]
    [--setup P]``: one piece of *SIDE forces a win within MOVES*, resumable as
    ``proof_kernel``'s."""
    from fourfold.games.icedao.proof_kernel import piece_main

    return piece_main(argv, "win", "python -m fourfold.games.icedao.proof_win")


if __name__ == "__main__":
    raise SystemExit(main())
