"""Subcommands of ``fourfold``. Each module defines ``register(subparsers)``.

To add a command, write a module here and add its name to ``COMMANDS``. A game adds its
own commands through the ``commands`` part of its extension bundle (``game_commands``).
"""

from collections.abc import Callable
from typing import Any

COMMANDS = ("rules", "perft", "play", "solve", "match", "tournament", "bench", "bots",
            "render", "analyze", "serve", "review",
            "explore", "puzzles", "puzzle")


def game_commands() -> list[Callable[[Any], None]]:
    """The ``register`` functions of every registered game's own sub-commands (its bundle's
    ``commands`` part, or a variant's), each once."""
    from fourfold.core.extensions import resolve
    from fourfold.core.registry import game_names, get_spec

    found: list[Callable[[Any], None]] = []
    for name in game_names():
        spec = get_spec(name)
        for bundle in (spec.extensions, *(v.extensions for v in spec.variants)):
            if bundle.commands:
                found += [c for c in resolve(bundle.commands) if c not in found]
    return found
