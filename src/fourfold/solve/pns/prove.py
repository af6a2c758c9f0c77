"""Prove or disprove one claim with df-pn and write its certificate (small claims)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.solve.certificates import Certificate
from fourfold.solve.pns.certify import certify
from fourfold.solve.pns.dfpn import Claim, DfPn, Status
from fourfold.solve.pns.hooks import proof_hooks
from fourfold.solve.pns.table import DiskTable


def settle(game: Game[Any, Any], state: Any, attacker: int, moves: int,
           table: str | Path | None = None, seconds: float | None = None
           ) -> tuple[Status, Certificate | None]:
    """Search the claim *``attacker`` forces a win within ``moves``* from ``state`` on
    ``table`` (a temporary file if ``None``) and certify the answer if there is one."""
    hooks = proof_hooks(game)
    if hooks is None:
        raise FourfoldError(f"{game.info.label()} has no proof hooks")
    with tempfile.TemporaryDirectory() as folder:
        disk = DiskTable(table if table is not None else Path(folder) / "table.sqlite")
        try:
            search = DfPn(hooks.positions(game), disk, Claim(attacker, moves))
            status = search.run(hooks.position_of(game, hooks.forget(state)), seconds)
            if status is Status.OPEN:
                return status, None
            return status, certify(game, hooks, disk, state, attacker, moves,
                                   status is Status.PROVEN)
        finally:
            disk.close()
