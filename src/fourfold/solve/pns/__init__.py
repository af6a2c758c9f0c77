"""Depth-first proof-number search (df-pn) for bounded forced wins, on a disk table.

Generic: a game takes part through its ``ProofHooks`` (``fourfold.solve.pns.hooks``),
named by its solver part (``GameSolvers.proofs``); nothing here names a game.

* ``hooks``: what a game gives (a fast move generator, its positions' keys, how a
  readable state maps to a fast position and forgets its history);
* ``table``: the transposition table, a dictionary in front of an SQLite file, so a
  search stops after S seconds and resumes where it was;
* ``dfpn``: the search itself, for the claim *side X forces a win within N moves*;
* ``pieces``: one resumable piece of search as a task for ``run_tasks`` (Dask too),
  and ``python -m fourfold.solve.pns`` to run pieces in the background;
* ``stored``: the bounds a game's committed certificates prove, read at once.
"""

from fourfold.solve.pns.dfpn import Claim, DfPn, Status
from fourfold.solve.pns.hooks import ProofHooks, proof_hooks
from fourfold.solve.pns.table import DiskTable

__all__ = ["Claim", "DfPn", "DiskTable", "ProofHooks", "Status", "proof_hooks"]
