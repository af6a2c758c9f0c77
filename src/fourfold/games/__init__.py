"""One package per game; importing this package registers every game.

Each game package exposes the same surface (``SPEC``, its ``Game`` subclass,
its state and move types) and calls ``fourfold.core.registry.register`` once.
"""

import importlib

GAME_PACKAGES = ("folio", "quarto", "quatrefoil", "icedao", "dao")

for _name in GAME_PACKAGES:
    importlib.import_module(f"fourfold.games.{_name}")
