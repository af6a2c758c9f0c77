"""Resumable pieces of proof-number search, as tasks for ``run_tasks`` (Dask too).

A piece is one claim (*this side forces a win within N moves from this position*)
searched for at most ``seconds`` on the table file ``table``; the table is the
journal: the next piece with the same file resumes from it, and its ``meta`` keeps
the claim (a piece given another claim for the same file is refused), the nodes and
seconds so far and the status. Pieces of different claims use different files, so
they can run at once on any executor.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.registry import load
from fourfold.solve.pns.dfpn import Claim, DfPn, Status
from fourfold.solve.pns.hooks import proof_hooks
from fourfold.solve.pns.table import DiskTable


@dataclass(frozen=True)
class Piece:
    """One piece of search: everything it depends on, so it runs anywhere."""

    game: str
    position: str
    attacker: int
    moves: int
    table: str
    seconds: float | None
    variant: str | None = None
    options: tuple[tuple[str, str], ...] = field(default=())


@dataclass(frozen=True)
class PieceReport:
    status: str
    nodes: int  # this piece's
    seconds: float  # this piece's
    total_nodes: int
    total_seconds: float
    entries: int


def _game(piece: Piece) -> Any:
    return load(piece.game, piece.variant, **dict(piece.options))


def claim_text(piece: Piece) -> str:
    return f"{piece.game} {piece.variant} {sorted(piece.options)} {piece.position}" \
           f" side {piece.attacker} within {piece.moves}"


def run_piece(piece: Piece) -> PieceReport:
    """Search ``piece`` for at most its seconds, resuming from its table file."""
    game = _game(piece)
    if not 0 <= piece.attacker < game.num_players:
        raise FourfoldError(f"side {piece.attacker}: {game.info.label()} has seats 0 to"
                            f" {game.num_players - 1}")
    if not 1 <= piece.moves <= 255:
        raise FourfoldError(f"moves {piece.moves}: give 1 to 255 moves of the attacker")
    hooks = proof_hooks(game)
    if hooks is None:
        raise FourfoldError(f"{game.info.label()} has no proof hooks (GameSolvers.proofs)")
    table = DiskTable(piece.table)
    try:
        meta = table.meta()
        claim = claim_text(piece)
        if meta.get("claim", claim) != claim:
            raise FourfoldError(f"proof table {piece.table} belongs to another claim:"
                                f" {meta['claim']}")
        if meta.get("status") in (Status.PROVEN.value, Status.DISPROVEN.value):
            return PieceReport(meta["status"], 0, 0.0, int(meta["nodes"]),
                               float(meta["seconds"]), table.size())
        state = game.parse_position(piece.position)
        search = DfPn(hooks.positions(game), table, Claim(piece.attacker, piece.moves))
        start = time.perf_counter()
        status = search.run(hooks.position_of(game, state), piece.seconds)
        spent = time.perf_counter() - start
        nodes = int(meta.get("nodes", 0)) + search.nodes
        seconds = float(meta.get("seconds", 0.0)) + spent
        table.set_meta(claim=claim, status=status.value, nodes=nodes, seconds=round(seconds, 1))
        return PieceReport(status.value, search.nodes, spent, nodes, seconds, table.size())
    finally:
        table.close()
