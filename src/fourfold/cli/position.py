"""The position a command works on (``fourfold solve``, ``fourfold explore``): the start
of a configured game, a position string of it, or the end of a recorded game.

    GAME [--variant V] [--option K=V] [FLAG POSITION | --record FILE [--game N]]

A record gives its own variant and options (and the history that repetition rules
read), so ``--variant`` and ``--option`` go without it, and a record of another game is
refused in one line.
"""

from __future__ import annotations

import argparse
from typing import Any

from fourfold.cli.common import parse_options
from fourfold.cli.numbers import path, text
from fourfold.cli.paths import read_text
from fourfold.cli.records import add_game_number_argument, check_no_game_number, replay
from fourfold.core.errors import ConfigurationError


def add_position_arguments(p: argparse.ArgumentParser, flag: str, metavar: str,
                           verb: str) -> None:
    """``--variant``, ``--option``, and ``flag`` (a position string, stored under its
    name) or ``--record FILE [--game N]``; ``verb`` says what the command does to it."""
    p.add_argument("--variant", "-v", default=None, type=text("a variant name"),
                   help="variant name (default: the first)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="K=V",
                   help="a game option (repeatable)")
    where = p.add_mutually_exclusive_group()
    where.add_argument(flag, default=None, metavar=metavar, type=text("a position string"),
                       help=f"{verb} this position string (default: the start)")
    where.add_argument("--record", type=path("a file name"), default=None, metavar="FILE",
                       help=f"{verb} the position at the end of this game record")
    add_game_number_argument(p)


def chosen_position(args: argparse.Namespace, game_name: str,
                    position: str | None) -> tuple[Any, Any]:
    """The configured game and its state: ``position`` (the string given with the flag of
    ``add_position_arguments``), the start, or the end of ``--record`` (with its history)."""
    from fourfold.core.registry import get_spec, load

    name = get_spec(game_name).name
    if args.record is None:
        check_no_game_number(args, "--record")
        game = load(name, args.variant, **parse_options(args.option))
        return game, game.parse_position(position) if position else game.initial_state()
    if args.variant is not None or args.option:
        raise ConfigurationError("--record gives the variant and options; drop --variant and"
                                 " --option")
    match = replay(args.record, args.game_number, read_text(args.record, "the record"))
    if match.game.name != name:
        raise ConfigurationError(f"{args.record} is a game of {match.game.name}, not {name}")
    return match.game, match.state
