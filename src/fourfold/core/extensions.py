"""A game's parts beyond its rules, as one bundle that the generic layers ask.

A game folder (``fourfold/games/<game>/``, or a plugin's package) holds everything
about its game: rules and views, notation, its text presenter and SVG drawer, its
wire codec, its observation encoder for envs, its kernel and solver hooks, its
default bots, its terminal controls and its browser controller. The game's
``GameSpec`` names them in one ``Extensions`` value; a variant may override some
parts (``VariantSpec.extensions``). Generic code (render, wire, envs, ai, cli,
server, solve, analysis) reaches a game's parts only through ``part(game, name)``;
it never names a game.

Each part is a reference ``"package.module:attribute"``, imported the first time a
layer asks for it. So loading a game's rules never imports its drawings, bots or
kernels: the rules import no UI, AI, network or storage code.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, TypeVar

from fourfold.core.errors import ConfigurationError

if TYPE_CHECKING:
    from fourfold.core.game import Game


@dataclass(frozen=True)
class Extensions:
    """Where each of a game's parts lives (``None``: the game has no such part).

    What each reference must point at is described by the layer that asks for it:
    the docstring of each field names that layer's protocol.
    """

    #: ``fourfold.render.Presenter``: text boards and move explanations
    presenter: str | None = None
    #: ``fourfold.render.svg.Drawer``: the SVG picture of a view
    drawer: str | None = None
    #: ``fourfold.wire.codec.BoardCodec``: the JSON board of a view, and moves as values
    codec: str | None = None
    #: ``fourfold.envs.observe.Observation``: RL environments' tensors of a view (the
    #: encoder), the episode cap, and optionally compiled kernels and a dealer
    observation: str | None = None
    #: ``fourfold.kernels``: a callable ``(game) -> Engine | None``, the game's compiled
    #: engine for search and playouts (``None``: this configuration has no kernel)
    kernel: str | None = None
    #: ``fourfold.solve.position.GameSolvers``: the game's solvers (``fourfold solve``,
    #: hints, perfect play), in a light module that imports a solver only when it runs
    solver: str | None = None
    #: ``fourfold.ai.game_bots.GameBots``: the game's own bots, the bot of each level, the
    #: bots too slow for it, the strongest level's exact endgame and the hint's bot
    bots: str | None = None
    #: ``fourfold.cli.play.rules.PlayRules``: the terminal's commands and session runner
    terminal: str | None = None
    #: the browser controller: ``"package:file.js"``, a JavaScript module in that package's
    #: folder whose default export is ``(kit) => controller`` (``fourfold.server.web.
    #: controllers``; ``None``: the generic controller, one button per legal move)
    browser: str | None = None
    #: ``fourfold`` sub-commands of the game's own: a tuple of ``register(subparsers)``
    #: functions, each adding one ``argparse`` sub-parser whose ``run(args)`` returns the
    #: exit status (read at every start of the command line: keep the module light)
    commands: str | None = None
    #: ``fourfold.analysis.report.facts.ReportFacts``: state-space count, board sites,
    #: a cooperative deal's optimum
    report: str | None = None

    def over(self, base: Extensions) -> Extensions:
        """These parts where set, else ``base``'s (a variant's parts over its game's)."""
        return replace(base, **{
            f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)
        })

    def names(self) -> tuple[str, ...]:
        """The parts this bundle provides."""
        return tuple(f.name for f in fields(self) if getattr(self, f.name))


_RESOLVED: dict[str, Any] = {}


def resolve(reference: str) -> Any:
    """The object a ``"package.module:attribute"`` reference names (imported once)."""
    found = _RESOLVED.get(reference)
    if found is not None:
        return found
    module_name, sep, attribute = reference.partition(":")
    if not sep or not module_name or not attribute:
        raise ConfigurationError(
            f"bad extension reference {reference!r}: write it as 'package.module:attribute'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigurationError(
            f"extension reference {reference!r}: cannot import {module_name!r} ({exc})"
        ) from None
    try:
        found = getattr(module, attribute)
    except AttributeError:
        raise ConfigurationError(
            f"extension reference {reference!r}: {module_name!r} has no {attribute!r}"
        ) from None
    _RESOLVED[reference] = found
    return found


def extensions_of(game: Game[Any, Any]) -> Extensions:
    """The bundle of a configured game: its variant's parts over its game's."""
    return game.info.spec.extensions_for(game.info.variant)


def reference(game: Game[Any, Any], name: str) -> str | None:
    """The reference of one part of a configured game, or ``None`` if it has none."""
    bundle = extensions_of(game)
    if name not in {f.name for f in fields(bundle)}:
        raise ValueError(f"no extension part named {name!r}")
    value: str | None = getattr(bundle, name)
    return value


def part(game: Game[Any, Any], name: str) -> Any | None:
    """One part of a configured game (``None`` if the game has no such part)."""
    ref = reference(game, name)
    return None if ref is None else resolve(ref)


T = TypeVar("T")


def typed_part(game: Game[Any, Any], name: str, kind: type[T], default: T) -> T:
    """One part of a configured game, checked to be a ``kind`` (``default`` if the game has
    no such part); ``ConfigurationError`` naming the reference if it is something else."""
    found = part(game, name)
    if found is None:
        return default
    if not isinstance(found, kind):
        raise ConfigurationError(
            f"the {name} part of {game.info.label()} ({reference(game, name)!r}) is a"
            f" {type(found).__name__}, not a {kind.__module__}.{kind.__qualname__}")
    return found
