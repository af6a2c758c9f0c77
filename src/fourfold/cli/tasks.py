"""``--scheduler`` and ``--workers``: where a command's tasks run (the one task runner).

``match``, ``tournament`` and ``solve --split`` take the same two flags, read by
``fourfold.distributed.executors.executor_for`` (docs/distributed.md).
"""

from __future__ import annotations

import argparse

from fourfold.cli.numbers import integer, scheduler_address
from fourfold.distributed.executors import Executor, executor_for


def add_task_arguments(p: argparse.ArgumentParser | argparse._ArgumentGroup, tasks: str,
                       per_core: bool) -> None:
    """The two flags; ``tasks`` names what runs ("the games"); without either flag it runs
    on one local process per core (``per_core``) or in this process."""
    default = "default: one per core; 0 or 1" if per_core else "0, 1 or no flag"
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", type=scheduler_address,
                   help=f"run {tasks} on the Dask cluster of this scheduler,"
                        " e.g. tcp://10.0.0.5:8786 (docs/distributed.md)")
    p.add_argument("--workers", type=integer(least=0), default=None, metavar="N",
                   help=f"run {tasks} on N local worker processes ({default}: in this process)")


def executor_from(args: argparse.Namespace, default: Executor | None = None) -> Executor:
    """Where ``--scheduler`` and ``--workers`` say the tasks run (checked); ``default``
    when neither is given (``None``: one local worker process per core)."""
    if args.scheduler is None and args.workers is None and default is not None:
        return default
    return executor_for(args.scheduler, args.workers)
