"""Ice Dao's ``proofs`` hooks: proof-number search and certificates (``fourfold.solve.pns``).

Light on purpose: the fast positions are imported by the first search. The committed
certificates are in ``proofs/`` beside this file, listed by ``proofs/index.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fourfold.core.game import Game
from fourfold.games.icedao.proof_bound import NAME, moves_needed
from fourfold.games.icedao.state import IceDaoState
from fourfold.solve.pns.hooks import Positions, ProofHooks


def _positions(game: Game[Any, Any]) -> Positions:
    from fourfold.games.icedao.proof_positions import positions

    return positions(game)


def _position_of(game: Game[Any, Any], state: Any) -> Any:
    from fourfold.games.icedao.proof_positions import position_of

    return position_of(game, state)


def _forget(state: IceDaoState) -> IceDaoState:
    """The same position with no history (the repetition rule set aside)."""
    return IceDaoState(state.board, state.to_play, state.line)


PROOFS = ProofHooks(_positions, _position_of, _forget, Path(__file__).parent / "proofs",
                    moves_needed, NAME)
