"""Gymnasium ids for every game and variant: ``gymnasium.make("fourfold/Quarto-v0")``.

One id per playable (game, variant) of the registry, named from the game's title and the
variant's name: the default variant is the bare title (``fourfold/Quatrefoil-v0``), every
other variant adds its name in CamelCase (``fourfold/Folio-FixedGrid-v0``,
``fourfold/Quatrefoil-Dual-v0``). A variant the registry marks unavailable gets no id.

``import fourfold.envs`` registers them when Gymnasium is installed. Gymnasium 1.x has no
plugin entry points (gym 0.26's ``gymnasium.envs`` entry-point group was removed in 1.0),
so without that import use Gymnasium's module prefix, which imports the module first:
``gymnasium.make("fourfold.envs:fourfold/Quarto-v0")``.

The keyword arguments of ``gymnasium.make`` go to ``fourfold.envs.gym_env``: ``opponent``,
``seat``, ``illegal_penalty``, ``max_steps``, ``render_mode`` and the game's own options
(``max_plies=50``...). Only the names are registered here; the env module is imported when
an env is made.
"""

from __future__ import annotations

import importlib.util
import re

import fourfold

NAMESPACE = "fourfold"
VERSION = 0
ENTRY_POINT = "fourfold.envs.gym:gym_env"


def _camel(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", text))


def env_ids() -> dict[str, tuple[str, str]]:
    """Every Gymnasium id, mapped to its ``(game, variant)``, in registry order."""
    ids: dict[str, tuple[str, str]] = {}
    for name in fourfold.game_names():
        spec = fourfold.get_spec(name)
        for variant in spec.variants:
            if variant.unavailable is not None:
                continue
            suffix = "" if variant.name == spec.default_variant else "-" + _camel(variant.name)
            ids[f"{NAMESPACE}/{_camel(spec.title)}{suffix}-v{VERSION}"] = (name, variant.name)
    return ids


def register_gymnasium_envs() -> list[str]:
    """Register every id with Gymnasium (again is harmless); none if it is not installed."""
    if importlib.util.find_spec("gymnasium") is None:
        return []
    from gymnasium.envs.registration import register, registry

    ids = env_ids()
    for env_id, (game, variant) in ids.items():
        if env_id not in registry:
            register(id=env_id, entry_point=ENTRY_POINT,
                     kwargs={"game": game, "variant": variant})
    return list(ids)
