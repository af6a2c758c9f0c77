"""Certificates from a finished proof-number search: the choices read from its table.

``certify`` walks the claim with the readable rules (``fourfold.solve.certificates``)
and, where a side must choose, takes the first move the table proves good: for
``win``, an attacker move that wins at once or reaches a proven node; for
``no-win``, a defender reply that wins at once or reaches a disproven node.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.outcome import Result
from fourfold.solve.certificates import Certificate, write
from fourfold.solve.pns.dfpn import node_key
from fourfold.solve.pns.hooks import ProofHooks
from fourfold.solve.pns.table import DiskTable


def certify(game: Game[Any, Any], hooks: ProofHooks, table: DiskTable, state: Any,
            attacker: int, moves: int, proven: bool) -> Certificate:
    """The certificate of a claim the search on ``table`` settled: ``proven`` (a win for
    ``attacker`` within ``moves``) or disproven (no such win)."""
    positions = hooks.positions(game)
    chooser = attacker if proven else 1 - attacker

    def choose(at: Any, legal: list[Any], left: int) -> int:
        # the fast successors come in the order of the readable legal moves (the hooks
        # promise it; a broken promise gives a certificate the checker refuses)
        successors = positions.successors(hooks.position_of(game, at))
        if len(successors) == len(legal):
            for i, (child, won) in enumerate(successors):
                if won:
                    return i
                entry = table.get(node_key(positions, child, left))
                if entry is not None and entry[0 if proven else 1] == 0:
                    return i
        for i, move in enumerate(legal):
            child = hooks.forget(game.next_state(at, move))
            outcome = game.outcome(child)
            if outcome is not None:
                if outcome.result is not Result.DRAW and outcome.winner == chooser:
                    return i
                continue
            entry = table.get(node_key(positions, hooks.position_of(game, child), left))
            if entry is not None and entry[0 if proven else 1] == 0:
                return i
        raise FourfoldError(f"the table proves no choice at {game.format_position(at)}"
                            f" ({left} attacker moves left)")

    return write(game, state, "win" if proven else "no-win", attacker, moves, choose)
