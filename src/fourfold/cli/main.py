"""Entry point of the ``fourfold`` command.

Every subcommand lives in its own module in ``fourfold.cli.commands`` and
registers an argparse sub-parser whose ``run(args) -> int`` does the work.
Errors the package raises on purpose (``FourfoldError``) are printed as one
clear line and exit with status 2: a user never sees a traceback for bad input.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from fourfold import __version__
from fourfold.cli.commands import COMMANDS, game_commands
from fourfold.core.errors import FourfoldError

EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line (with where to read more), not the usage
    block followed by the error. Sub-commands use the same class."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see `{self.prog} --help`)\n")

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        """As argparse, but arguments no parser knows are refused by the sub-command
        they were given to (``fourfold solve dao: unrecognized arguments: ...``)."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            _chosen(self, parsed).error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed


def _chosen(parser: argparse.ArgumentParser, parsed: argparse.Namespace
            ) -> argparse.ArgumentParser:
    """The deepest sub-command parser that ``parsed`` went through."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            name = getattr(parsed, action.dest, None)
            chosen = action.choices.get(name) if isinstance(name, str) else None
            if isinstance(chosen, argparse.ArgumentParser):
                return _chosen(chosen, parsed)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="fourfold",
        description="Play, study and solve Folio, Ice Dao and Quatrefoil (and Quarto and Dao).",
    )
    parser.add_argument("--version", action="version", version=f"fourfold {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"fourfold.cli.commands.{name}").register(sub)
    for register in game_commands():
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
    except FourfoldError as exc:  # a plugin game that cannot be loaded, for one
        print(f"fourfold: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help, --version, or a bad argument (one line printed)
        return done.code if isinstance(done.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    if argv is None:  # the command itself (not a caller passing its own arguments)
        from fourfold.cli.compile_notice import install

        install()  # one line on stderr if this run compiles numba kernels
    try:
        result: int = args.run(args)
        return result
    except FourfoldError as exc:
        print(f"fourfold {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # the system refused something mid-run: disk full, a lost file
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"fourfold {args.command}: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
