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

from fourfold import __version__
from fourfold.cli.commands import COMMANDS
from fourfold.core.errors import FourfoldError

EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fourfold",
        description="Play, study and solve Folio, Ice Dao and Quatrefoil (and Quarto and Dao).",
    )
    parser.add_argument("--version", action="version", version=f"fourfold {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"fourfold.cli.commands.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
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


if __name__ == "__main__":
    sys.exit(main())
