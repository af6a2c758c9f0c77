"""The one registry of games: ``fourfold.load(name, variant=..., **options)``."""

from __future__ import annotations

import importlib
import os
from importlib.metadata import entry_points
from typing import Any

from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game
from fourfold.core.spec import GameSpec

_SPECS: dict[str, GameSpec] = {}
_ALIASES: dict[str, str] = {}
#: configured games by (name, variant, option strings); at most ``GAMES_KEPT``
_GAMES: dict[tuple[str, str, tuple[tuple[str, str], ...]], Game[Any, Any]] = {}
GAMES_KEPT = 512


def register(spec: GameSpec) -> GameSpec:
    """Add a game; each game package calls this once, at import."""
    if spec.name in _SPECS:
        raise ValueError(f"game {spec.name!r} is already registered")
    _SPECS[spec.name] = spec
    for alias in spec.aliases:
        _ALIASES[alias] = spec.name
    return spec


def unregister(name: str) -> None:
    """Remove a game added with ``register`` (tests of plugin games; a plugin reloaded)."""
    spec = _SPECS.pop(name)
    for alias in spec.aliases:
        _ALIASES.pop(alias, None)
    for key in [k for k in _GAMES if k[0] == name]:
        del _GAMES[key]


def is_registered(spec: GameSpec) -> bool:
    """Whether ``spec`` is the very spec the registry holds under its name."""
    return _SPECS.get(spec.name) is spec


def reload(name: str, variant: str, options: dict[str, str]) -> Game[Any, Any]:
    """The configured game of a pickle: the same configuration, through ``load``."""
    return load(name, variant, **options)


#: the entry-point group through which an installed package adds games
ENTRY_POINT_GROUP = "fourfold.games"
#: an environment variable naming more game modules to import (comma-separated), for a
#: game not installed as a package (``FOURFOLD_GAMES=mygames.toy fourfold serve``)
GAMES_VARIABLE = "FOURFOLD_GAMES"
_PLUGINS_LOADED = False


def _ensure_loaded() -> None:
    """Import the built-in games, then every plugin game (entry points, ``FOURFOLD_GAMES``)."""
    global _PLUGINS_LOADED
    importlib.import_module("fourfold.games")
    if _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED = True
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        _load_plugin(entry.value, f"entry point {entry.name!r}")
    for name in os.environ.get(GAMES_VARIABLE, "").split(","):
        if name.strip():
            _load_plugin(name.strip(), GAMES_VARIABLE)


def _load_plugin(reference: str, source: str) -> None:
    """Register the ``GameSpec`` a plugin names: ``package.module:SPEC``, or a module whose
    ``SPEC`` it is (a module may also register itself on import). A broken one is refused
    with its name and where it was named."""
    module_name, _, attribute = reference.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigurationError(
            f"cannot load the game module {module_name!r} named by {source}: {exc}") from None
    spec = getattr(module, attribute or "SPEC", None)
    if not isinstance(spec, GameSpec):
        raise ConfigurationError(
            f"{reference!r}, named by {source}, is not a game: it names no GameSpec"
            f" ({attribute or 'SPEC'} is missing or of another kind)")
    if not is_registered(spec):
        register(spec)


def game_names() -> list[str]:
    """Registered games, in registration order."""
    _ensure_loaded()
    return list(_SPECS)


def get_spec(name: str) -> GameSpec:
    _ensure_loaded()
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _SPECS:
        raise ConfigurationError(
            f"unknown game {name!r}; valid games: {', '.join(_SPECS)}"
        )
    return _SPECS[key]


def load(name: str, variant: str | None = None, **options: Any) -> Game[Any, Any]:
    """A configured game. Unknown games, variants and options are refused with the valid ones.

    A configured game is an immutable value, so each configuration is made once and
    shared (a server holds thousands of tables of a few configurations, and a game
    keeps the moves it has written)."""
    spec = get_spec(name)
    info = spec.resolve(variant, options)
    key = (spec.name, info.variant, tuple(sorted(info.option_strings().items())))
    game = _GAMES.get(key)
    if game is None:
        game = spec.factory(info)
        if len(_GAMES) < GAMES_KEPT:
            game = _GAMES.setdefault(key, game)
    return game
