"""Heavy jobs as independent seeded tasks: in this process, on local processes or on Dask.

``run_tasks(fn, tasks, scheduler=..., workers=..., journal=...)`` is the one entry
point (``runner``) that matches, tournaments, ``analyze`` reports and split solves
share; ``executors`` runs the tasks (this process, a local process pool, a Dask
cluster); ``journal`` keeps finished tasks so a stopped job resumes; ``split`` cuts
a Quarto or Folio solve into subtree tasks. docs/distributed.md says how to start a
cluster and point ``fourfold`` at it.
"""

from fourfold.distributed.executors import (
    DaskCluster,
    Executor,
    InProcess,
    LocalProcesses,
    executor_for,
)
from fourfold.distributed.journal import Journal, JournalError
from fourfold.distributed.runner import Store, run_tasks

__all__ = [
    "DaskCluster",
    "Executor",
    "InProcess",
    "Journal",
    "JournalError",
    "LocalProcesses",
    "Store",
    "executor_for",
    "run_tasks",
]
