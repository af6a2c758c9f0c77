"""What a game gives the proof-number search and the certificate checker.

The search runs on the game's fast positions (any hashable value the game likes);
the certificates are written and checked on its readable states. ``ProofHooks``
joins the two; a game names it from its solver part (``GameSolvers.proofs``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from fourfold.core.extensions import resolve
from fourfold.core.game import Game


class Positions(Protocol):
    """A game's fast move generator over its own position values."""

    def key(self, position: Any) -> bytes:
        """A compact key naming the position and the side to move."""
        ...

    def side(self, position: Any) -> int:
        """The side to move."""
        ...

    def wins_at_once(self, position: Any) -> bool:
        """Whether the side to move has a move that wins at once (cheaper than
        ``successors``: the search asks it first)."""
        ...

    def successors(self, position: Any) -> list[tuple[Any, bool]]:
        """Every legal move's position, in the order of the readable rules'
        ``legal_moves``, with whether that move wins at once for the side that made it
        (an empty list: the side to move cannot move and loses)."""
        ...


@dataclass(frozen=True)
class ProofHooks:
    """A game's part in proof search and certificates.

    ``positions(game)`` builds the fast generator; ``position_of(game, state)`` turns a
    readable state into its fast position; ``forget(state)`` is the same position with
    no history (certificates are about positions, so the repetition rule is set aside
    and every game's docs say why a bound still holds with it); ``folder`` holds the
    game's committed certificates and their ``index.json``. ``bound`` (optional) is a
    lemma of the rules, named ``bound_name`` in the certificates that use it:
    ``bound(game, state, side)`` is the fewest moves ``side`` needs to win from the
    readable ``state``, so the checker accepts *no win within n* at once where it is
    more than n.
    """

    positions: Callable[[Game[Any, Any]], Positions]
    position_of: Callable[[Game[Any, Any], Any], Any]
    forget: Callable[[Any], Any]
    folder: Path
    bound: Callable[[Game[Any, Any], Any, int], int] | None = None
    bound_name: str = ""


def proof_hooks(game: Game[Any, Any]) -> ProofHooks | None:
    """The proof hooks a game's solver part names (``None``: it has none)."""
    from fourfold.solve.position import game_solvers

    solvers = game_solvers(game)
    reference = getattr(solvers, "proofs", None) if solvers is not None else None
    if reference is None:
        return None
    hooks: ProofHooks = resolve(reference)
    return hooks
