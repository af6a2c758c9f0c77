"""Subcommands of ``fourfold``. Each module defines ``register(subparsers)``.

To add a command, write a module here and add its name to ``COMMANDS``.
"""

COMMANDS = ("rules", "perft", "play", "solve", "fit", "match", "tournament", "bench", "bots",
            "render", "analyze", "serve", "review",
            "explore", "puzzles", "puzzle")
