"""``fourfold analyze GAME``: the designer's report (docs/analyze.md).

Plays seeded games with the bots at several levels (tasks of the one task runner: on
every core, ``--workers N`` processes or a Dask cluster) and writes one
self-contained HTML page (``-o FILE``) or prints the figures as JSON (``--json``).
``--compare K=V1,V2`` runs the report for each value of an option (or ``variant``)
and puts them side by side. ``--cache FILE`` keeps every finished game, so an
interrupted run resumes where it stopped.

Here ``-o`` is the output file, as in the issue that asked for the command; game
options are given with ``--option`` in full.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from fourfold.analysis.match import DEFAULT_MAX_PLIES
from fourfold.analysis.report import Config, Settings, analyze, parse_levels, render, to_json
from fourfold.analysis.report.analyze import DEFAULT_PACE, DEFAULT_PLAYOUTS, plan
from fourfold.analysis.report.games import read_cache
from fourfold.cli.common import add_game_arguments, parse_options
from fourfold.cli.numbers import integer, path, real, scheduler_address, seconds, text
from fourfold.cli.paths import check_writable, read_text, write_text
from fourfold.core.errors import ConfigurationError
from fourfold.core.registry import get_spec
from fourfold.distributed.executors import cores, executor_for


def register(sub: Any) -> None:
    p = sub.add_parser("analyze", help="designer's report: balance, length, drama, ladder ...")
    add_game_arguments(p, setup=False, short_option=False)
    p.add_argument("--compare", default=None, metavar="K=V1,V2",
                   help="side by side for each value of option K (or K=variant)")
    p.add_argument("--games", type=integer(least=1), default=100, metavar="N",
                   help="games per group: per level, per pair of levels (100)")
    p.add_argument("--levels", default=None, metavar="L1,L2,...", type=text("bot levels"),
                   help="bots weakest first: level numbers or bot names (default: level1..5; "
                        "for cooperative games every bot that plays it)")
    p.add_argument("--workers", type=integer(least=1), default=None, metavar="N",
                   help="local worker processes (default: one per core; 1: in this process)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", type=scheduler_address,
                   help="play the games on this Dask cluster (tcp://host:8786); the same"
                        " seed gives the same report wherever they are played")
    p.add_argument("--seed", type=integer(), default=0, metavar="S", help="seed (0)")
    p.add_argument("--playouts", type=integer(least=0), default=DEFAULT_PLAYOUTS, metavar="K",
                   help=f"evaluator playouts per position ({DEFAULT_PLAYOUTS}; 0: no drama)")
    p.add_argument("--max-plies", type=integer(least=1), default=DEFAULT_MAX_PLIES, metavar="N",
                   help=f"count a game still going after N plies as a draw ({DEFAULT_MAX_PLIES})")
    p.add_argument("--solve-seconds", type=seconds(zero=True), default=10.0, metavar="SEC",
                   help="time for the solver on the start (10; 0: do not run it)")
    p.add_argument("--pace", type=real(above=0, most=3_600, unit="seconds"),
                   default=DEFAULT_PACE, metavar="SEC",
                   help=f"seconds per ply (per action in a cooperative game) for the playing "
                        f"time in minutes ({DEFAULT_PACE:g}; an assumption shown on the page)")
    p.add_argument("--cache", type=path("a file name"), default=None, metavar="FILE",
                   help="keep finished games in FILE (JSON lines) and reuse them: resumable")
    p.add_argument("-o", "--output", type=path("a file name"), default=None, metavar="FILE",
                   help="write the HTML report to FILE (default: GAME-report.html)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(run=run)


def parse_compare(text: str, game: str, variant: str | None,
                  options: dict[str, str]) -> tuple[str, list[str]]:
    """``K=V1,V2[,...]``: the key (an option name or ``variant``) and its values."""
    key, sep, rest = text.partition("=")
    key = key.strip().lower().replace("_", "-")
    values = [v.strip() for v in rest.split(",")]
    if not sep or not key:
        raise ConfigurationError(f"--compare {text!r} is not of the form K=V1,V2")
    if len(values) < 2 or any(not v for v in values):
        raise ConfigurationError(f"--compare {text!r} needs two or more values separated by "
                                 "commas, none empty")
    if len(set(values)) != len(values):
        raise ConfigurationError(f"--compare {text!r} names a value twice")
    if key == "variant" and variant is not None:
        raise ConfigurationError("--compare variant=... and --variant cannot both be given")
    if key in {k.strip().lower().replace("_", "-") for k in options}:
        raise ConfigurationError(f"--compare {key}=... and --option {key}=... cannot both "
                                 "be given")
    spec = get_spec(game)
    for value in values:  # refuses unknown variants, options and values, with the valid ones
        if key == "variant":
            spec.resolve(value, options)
        else:
            spec.resolve(variant, {**options, key: value})
    return key, values


def configs_from(args: argparse.Namespace) -> tuple[list[Config], tuple[str, list[str]] | None]:
    options = parse_options(args.option)
    spec = get_spec(args.game)
    spec.resolve(args.variant, options)
    name = spec.name
    if args.compare is None:
        return [Config(name, args.variant, tuple(sorted(options.items())))], None
    key, values = parse_compare(args.compare, name, args.variant, options)
    configs = []
    for value in values:
        if key == "variant":
            configs.append(Config(name, value, tuple(sorted(options.items()))))
        else:
            configs.append(Config(name, args.variant,
                                  tuple(sorted({**options, key: value}.items()))))
    return configs, (key, values)


def run(args: argparse.Namespace) -> int:
    if args.output is not None and "=" in args.output.name and ".htm" not in args.output.name:
        raise ConfigurationError(f"-o is the report file here, not a game option: use "
                                 f"--option {args.output}")
    configs, compare = configs_from(args)
    output = args.output or (None if args.json else Path(f"{configs[0].game}-report.html"))
    if output is not None:
        check_writable(output, "the report")
    if args.cache is not None:
        check_cache(args.cache)
    executor_for(args.scheduler, args.workers)  # refuses --workers with --scheduler
    settings = Settings(
        games=args.games, levels=parse_levels(args.levels),
        workers=cores() if args.workers is None else args.workers,
        seed=args.seed, playouts=args.playouts, max_plies=args.max_plies,
        solve_seconds=args.solve_seconds, cache=args.cache, scheduler=args.scheduler,
        pace=args.pace,
        command="fourfold analyze " + " ".join(shlex.quote(a) for a in sys.argv[2:])
        if len(sys.argv) > 1 and sys.argv[1] == "analyze" else "fourfold analyze " + args.game,
    )
    total = sum(len(plan(c, settings)) for c in configs)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=Console(stderr=True), transient=True)
    with progress:
        task = progress.add_task("games", total=total)

        def on_done(trace: Any) -> None:
            progress.update(task, advance=1, description=trace.group)

        reports = analyze(configs, settings, on_done)
    if args.json:
        out: dict[str, Any] = {"reports": to_json(reports)}
        if compare is not None:
            out["compare"] = {"key": compare[0], "values": compare[1]}
        print(json.dumps(out))
    if output is not None:
        page = render(reports, {"command": settings.command}, compare)
        write_text(output, page, "the report")
        if not args.json:
            Console(stderr=True).print(f"report written to {output}")
    return 0


def check_cache(path: Path) -> None:
    """Before any game: the cache must be a text file of traces (or new) that can grow."""
    check_writable(path, "the cache")
    if path.exists():
        read_text(path, "the cache")
        read_cache(path)  # a file that is not a trace cache is refused now, with its line
