"""Heavy jobs on a Dask cluster: independent seeded tasks, journaled, in task order.

``run_tasks(fn, tasks, scheduler=..., workers=..., journal=...)`` is the one entry
point (``runner``); ``journal`` keeps finished tasks so a stopped job resumes;
``games`` splits matches and tournaments into one task per game; ``split`` cuts a
Quarto or Folio solve into subtree tasks. docs/distributed.md says how to start a
cluster and point ``fourfold`` at it.
"""

from fourfold.distributed.journal import Journal, JournalError
from fourfold.distributed.runner import cluster_client, run_tasks

__all__ = ["Journal", "JournalError", "cluster_client", "run_tasks"]
