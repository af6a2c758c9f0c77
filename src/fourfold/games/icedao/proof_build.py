"""Ice Dao's committed certificates: how they are made (``proofs/``, docs/solutions.md).

``python -m fourfold.games.icedao.proof_build diagrams`` proves the three
reconstructed diagrams' claims with df-pn and writes their certificates;
``python -m fourfold.games.icedao.proof_build table FILE SIDE MOVES NAME`` writes the
certificate of a start claim that pieces of search settled on FILE (see
``python -m fourfold.solve.pns``); ``python -m fourfold.games.icedao.proof_build index``
rewrites ``proofs/index.json`` after a certificate file is added by hand (as the
kernel writer's, ``python -m fourfold.games.icedao.proof_kernel``). All three rewrite
the index.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.registry import load
from fourfold.games.icedao.proof_hooks import PROOFS
from fourfold.solve.certificates import Certificate
from fourfold.solve.pns.certify import certify
from fourfold.solve.pns.dfpn import Status
from fourfold.solve.pns.prove import settle
from fourfold.solve.pns.stored import write_index
from fourfold.solve.pns.table import DiskTable

BLUE, GREEN = 0, 1

#: the reconstructed diagrams of docs/solutions.md, Green to move
DIAGRAMS = {
    "diagram1": ".,.,Bm,Gm,Bl/Gs,.,.,.,Gs/Gl,.,.,.,Gl/Bm,Bl,.,Bs,./.,.,Bs,.,Gm G",
    "diagram2": ".,.,Bs,Gm,Bm/Gs,.,.,.,Gs/Gl,.,.,.,Gl/Bm,Bl,.,Bs,./.,.,Bl,.,Gm G",
    "diagram3": "Gl,.,Bm,Bs,./.,.,.,.,Gl/Gs,.,.,.,./Bl,Bs,.,Bl,./Gs,Gm,Bm,.,Gm G",
}

#: (diagram, Green's move first or None, attacker, moves, expected status)
DIAGRAM_CLAIMS: tuple[tuple[str, str | None, int, int, Status], ...] = (
    # 1: whatever Green does, Blue wins on her next move
    ("diagram1", None, BLUE, 1, Status.PROVEN),
    # 2: Green wins within 3 moves, not within 2: a3-d3 (the certificate's) is a quickest win
    ("diagram2", None, GREEN, 3, Status.PROVEN),
    ("diagram2", None, GREEN, 2, Status.DISPROVEN),
    # 3: Blue wins within 3 whatever Green does; after the pin a3-c5 not within 2
    ("diagram3", None, BLUE, 3, Status.PROVEN),
    ("diagram3", "a3-c5", BLUE, 2, Status.DISPROVEN),
)


def _write(name: str, certificates: list[Certificate]) -> None:
    items = [json.loads(c.to_json()) for c in certificates]
    (PROOFS.folder / f"{name}.json").write_text(
        json.dumps(items[0] if len(items) == 1 else items, indent=1) + "\n")


def diagrams() -> None:
    game = load("icedao")
    made: dict[str, list[Certificate]] = {}
    for name, first, attacker, moves, expected in DIAGRAM_CLAIMS:
        state = game.parse_position(DIAGRAMS[name])
        if first is not None:
            state = PROOFS.forget(game.play(state, first))
        status, certificate = settle(game, state, attacker, moves)
        if status is not expected or certificate is None:
            raise FourfoldError(f"{name} {first or ''}: {status.value}, not {expected.value}")
        made.setdefault(name, []).append(certificate)
    # 3: each of Green's other moves loses at once: Blue wins within 1 move after it
    state = game.parse_position(DIAGRAMS["diagram3"])
    for move in game.legal_moves(state):
        if game.format_move(state, move) == "a3-c5":
            continue
        after = PROOFS.forget(game.next_state(state, move))
        status, certificate = settle(game, after, BLUE, 1)
        if status is not Status.PROVEN or certificate is None:
            raise FourfoldError(f"diagram3 {game.format_move(state, move)}: {status.value}")
        made["diagram3"].append(certificate)
    for name, certificates in made.items():
        _write(name, certificates)
    write_index(PROOFS)


def from_table(path: str, side: int, moves: int, name: str) -> None:
    game = load("icedao")
    state = game.initial_state()
    table = DiskTable(path)
    try:
        status = table.meta().get("status")
        if status not in (Status.PROVEN.value, Status.DISPROVEN.value):
            raise FourfoldError(f"{path}: the claim is not settled (status {status})")
        certificate = certify(game, PROOFS, table, state, side, moves,
                              status == Status.PROVEN.value)
    finally:
        table.close()
    _write(name, [certificate])
    write_index(PROOFS)


def main(argv: list[str]) -> int:
    try:
        if argv[:1] == ["diagrams"]:
            diagrams()
        elif argv[:1] == ["table"] and len(argv) == 5:
            from_table(argv[1], int(argv[2]), int(argv[3]), argv[4])
        elif argv == ["index"]:
            write_index(PROOFS)
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except FourfoldError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))


__all__: list[Any] = []
