"""Arguments shared by the commands that take a game: GAME, --variant, --option, --setup."""

from __future__ import annotations

import argparse
from typing import Any

from fourfold.cli.numbers import text
from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game
from fourfold.core.registry import load


def add_game_arguments(parser: argparse.ArgumentParser, *, setup: bool = True,
                       short_option: bool = True) -> None:
    """GAME, ``--variant`` and ``--option`` (``-o`` too unless ``short_option`` is off, for
    a command whose ``-o`` is its output file), and ``--setup`` when ``setup``."""
    parser.add_argument("game", metavar="GAME", help="folio, quarto, ... (see `fourfold rules`)")
    parser.add_argument("--variant", "-v", default=None, type=text("a variant name"),
                        help="variant name (default: the first)")
    parser.add_argument(
        *(("--option", "-o") if short_option else ("--option",)), action="append", default=[],
        metavar="K=V", help="a game option, e.g. line-rule=same-colour-or-size (repeatable)",
    )
    if setup:
        parser.add_argument("--setup", default=None, metavar="POSITION",
                            type=text("a position string"),
                            help="start from this position string instead of the usual start")


def parse_options(items: list[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigurationError(f"--option {item!r} is not of the form NAME=VALUE")
        options[key.strip()] = value.strip()
    return options


def game_from_args(args: argparse.Namespace) -> tuple[Game[Any, Any], Any]:
    """The configured game and its start state (from ``--setup`` when given)."""
    game = load(args.game, args.variant, **parse_options(args.option))
    setup = getattr(args, "setup", None)
    start = game.parse_position(setup) if setup else game.initial_state()
    return game, start


