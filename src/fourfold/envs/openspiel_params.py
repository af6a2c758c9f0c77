"""A variant's options as typed OpenSpiel game parameters, and back.

OpenSpiel reads a game string's values by their look (``120`` is an int, ``0.2`` a
double, ``true`` a bool, anything else a string) and refuses a value whose type differs
from the parameter's default, so every parameter takes the type its values are written
in: booleans, whole numbers and decimals as such, words as strings (with ``+`` for the
commas of a list, since game strings split parameters at commas). An option that may be
``none`` and is otherwise a whole number (the sliding games' ``max-plies``) is an int
parameter where ``0`` means none. Then ``serialize_game_and_state`` and pickling, which
write the game string and load it back, give the same game.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.errors import ConfigurationError
from fourfold.core.spec import GameSpec, OptionSpec

NONE = "none"


def param_name(option: OptionSpec) -> str:
    return option.name.replace("-", "_")


def param_type(option: OptionSpec) -> type:
    default = option.default
    if isinstance(default, (bool, int, float)):
        return type(default)
    if default is None:
        try:
            whole = isinstance(option.parse(1), int)
        except (ValueError, TypeError):
            whole = False
        if whole:
            return int
    return str


def to_param(option: OptionSpec, value: Any) -> Any:
    """An option's canonical value as the parameter OpenSpiel stores."""
    kind = param_type(option)
    if kind is str:
        return NONE if value is None else option.format(value).replace(",", "+")
    if value is None:
        return 0
    return kind(value)


def from_param(option: OptionSpec, param: Any) -> Any:
    """A parameter back as the option's value (its own parser then checks it)."""
    if param_type(option) is int and option.default is None and param == 0:
        return None
    if param == NONE:
        return None
    return param


def specification(spec: GameSpec, variant: str) -> dict[str, Any]:
    """The parameters of a variant with their defaults (``max_steps`` is added by the caller)."""
    return {param_name(o): to_param(o, o.default) for o in spec.options_for(variant)}


def options_from(spec: GameSpec, variant: str, params: dict[str, Any]) -> dict[str, Any]:
    """The game's options from OpenSpiel parameters (unknown names are refused)."""
    options = {param_name(o): o for o in spec.options_for(variant)}
    out = {}
    for key, param in params.items():
        if key == "max_steps":
            continue
        if key not in options:
            valid = ", ".join(sorted([*options, "max_steps"]))
            raise ConfigurationError(
                f"unknown parameter {key!r} for {spec.name} {variant}; valid: {valid}")
        out[options[key].name] = from_param(options[key], param)
    return out


def params_of(spec: GameSpec, variant: str, values: dict[str, Any]) -> dict[str, Any]:
    """The OpenSpiel parameters of a configured game's option values."""
    options = {o.name: o for o in spec.options_for(variant)}
    return {param_name(options[k]): to_param(options[k], v) for k, v in values.items()}
