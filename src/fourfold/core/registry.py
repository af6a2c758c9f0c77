"""The one registry of games: ``fourfold.load(name, variant=..., **options)``."""

from __future__ import annotations

import importlib
from typing import Any

from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game
from fourfold.core.spec import GameSpec

_SPECS: dict[str, GameSpec] = {}
_ALIASES: dict[str, str] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game; each game package calls this once, at import."""
    if spec.name in _SPECS:
        raise ValueError(f"game {spec.name!r} is already registered")
    _SPECS[spec.name] = spec
    for alias in spec.aliases:
        _ALIASES[alias] = spec.name
    return spec


def _ensure_loaded() -> None:
    importlib.import_module("fourfold.games")


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
    """A configured game. Unknown games, variants and options are refused with the valid ones."""
    spec = get_spec(name)
    info = spec.resolve(variant, options)
    return spec.factory(info)
