"""A game's parts beyond its rules, as one bundle that the generic layers ask.

A game folder (``fourfold/games/<game>/``, or a plugin's package) holds everything
about its game: rules and views, notation, its text presenter and SVG drawer, its
wire codec, its observation encoder for envs, its kernel and solver hooks, its
default bots, its terminal controls and its browser controller. Generic code (render,
wire, envs, ai, cli, server, solve, analysis) reaches a game's parts only through
``part(game, name)``; it never names a game.

A part is found by convention, the way a Django app's ``models`` are: the game's
folder holds it in a module of a fixed name, under a fixed attribute (``CONVENTIONS``;
the game's presenter is ``<package>.text:PRESENTER``, its drawer ``<package>.svg:DRAWER``
...). ``discover(package)`` lists the parts a folder holds by looking for those modules'
files, without importing them. A game names a part only to share one from another
folder or to override the convention: ``Extensions(terminal="package.module:ATTRIBUTE")``
(``GameSpec.extensions``, a variant's ``VariantSpec.extensions``).

Each part is a reference ``"package.module:attribute"``, imported the first time a
layer asks for it. So loading a game's rules never imports its drawings, bots or
kernels: the rules import no UI, AI, network or storage code.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import pkgutil
from dataclasses import dataclass, field, fields, replace
from importlib import resources
from typing import TYPE_CHECKING, Any, TypeVar

from fourfold.core.errors import ConfigurationError

if TYPE_CHECKING:
    from fourfold.core.game import Game


def _found_in(module: str, attribute: str | None = None) -> Any:
    """A part's field, with where a game folder holds it by convention: ``attribute`` of
    the module ``module``, or, with no attribute, the file ``module`` itself."""
    return field(default=None, metadata={"module": module, "attribute": attribute})


@dataclass(frozen=True)
class Extensions:
    """Where each of a game's parts lives (``None``: the game has no such part).

    What each reference must point at is described by the layer that asks for it:
    the comment of each field names that layer's protocol, and its default place in a
    game's folder (``CONVENTIONS``).
    """

    #: ``fourfold.render.Presenter``: text boards and move explanations
    presenter: str | None = _found_in("text", "PRESENTER")
    #: ``fourfold.render.svg.Drawer``: the SVG picture of a view
    drawer: str | None = _found_in("svg", "DRAWER")
    #: ``fourfold.wire.codec.BoardCodec``: the JSON board of a view, and moves as values
    codec: str | None = _found_in("wire", "CODEC")
    #: ``fourfold.envs.observe.Observation``: RL environments' tensors of a view (the
    #: encoder), the episode cap, and optionally compiled kernels and a dealer
    observation: str | None = _found_in("observe", "OBSERVATION")
    #: ``fourfold.kernels``: a callable ``(game) -> Engine | None``, the game's compiled
    #: engine for search and playouts (``None``: this configuration has no kernel)
    kernel: str | None = _found_in("kernel_engine", "ENGINE")
    #: ``fourfold.solve.position.GameSolvers``: the game's solvers (``fourfold solve``,
    #: hints, perfect play), in a light module that imports a solver only when it runs
    solver: str | None = _found_in("solver_hooks", "SOLVERS")
    #: ``fourfold.ai.game_bots.GameBots``: the game's own bots, the bot of each level, the
    #: bots too slow for it, the strongest level's exact endgame and the hint's bot
    bots: str | None = _found_in("bots", "BOTS")
    #: ``fourfold.cli.play.rules.PlayRules``: the terminal's commands and session runner
    terminal: str | None = _found_in("terminal", "RULES")
    #: the browser controller: ``"package:file.js"``, a JavaScript module in that package's
    #: folder whose default export is ``(kit) => controller`` (``fourfold.server.web.
    #: controllers``; ``None``: the generic controller, one button per legal move)
    browser: str | None = _found_in("browser.js")
    #: ``fourfold`` sub-commands of the game's own: a tuple of ``register(subparsers)``
    #: functions, each adding one ``argparse`` sub-parser whose ``run(args)`` returns the
    #: exit status (read at every start of the command line: keep the module light)
    commands: str | None = _found_in("commands", "COMMANDS")
    #: ``fourfold.analysis.report.facts.ReportFacts``: state-space count, board sites,
    #: a cooperative deal's optimum
    report: str | None = _found_in("report", "REPORT")
    #: ``fourfold.puzzles.hooks.PuzzleHooks``: the game's own puzzle certification (for a
    #: bounded solver) and the motifs of its puzzles' themes
    puzzles: str | None = _found_in("puzzle_hooks", "PUZZLES")

    def over(self, base: Extensions) -> Extensions:
        """These parts where set, else ``base``'s (a variant's parts over its game's)."""
        return replace(base, **{
            f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)
        })

    def names(self) -> tuple[str, ...]:
        """The parts this bundle provides."""
        return tuple(f.name for f in fields(self) if getattr(self, f.name))


#: where a game folder holds each part: part -> (module, attribute); a part whose
#: attribute is ``None`` is a file of the folder (the browser controller)
CONVENTIONS: dict[str, tuple[str, str | None]] = {
    f.name: (f.metadata["module"], f.metadata["attribute"]) for f in fields(Extensions)
}


def discover(package: str) -> Extensions:
    """The parts ``package``'s folder holds by convention (``CONVENTIONS``).

    A part is there when its module is (``text.py``, or a ``text/`` package) or, for a
    file part, when the file is. Nothing is imported but ``package`` itself: whether the
    module holds the attribute is checked when a layer first asks for the part."""
    folders = _folders(package)
    if all(os.path.isdir(f) for f in folders):
        files = {n for f in folders for n in os.listdir(f)}
        modules = {n.split(".")[0] for n in files if n.endswith(_MODULE_ENDINGS)} | {
            n for f in folders for n in files
            if "." not in n and os.path.isfile(os.path.join(f, n, "__init__.py"))}
    else:  # a package in a zip file: the general listings
        modules = {m.name for m in pkgutil.iter_modules(folders)}
        files = {file for file, attribute in CONVENTIONS.values()
                 if attribute is None and resources.files(package).joinpath(file).is_file()}
    found: dict[str, str] = {}
    for name, (module, attribute) in CONVENTIONS.items():
        if attribute is None:
            if module in files:
                found[name] = f"{package}:{module}"
        elif module in modules:
            found[name] = f"{package}.{module}:{attribute}"
    return Extensions(**found)


#: how a module's file name ends (``.py``, ``.pyc``, a compiled extension's endings)
_MODULE_ENDINGS = tuple(importlib.machinery.all_suffixes())


def _folders(package: str) -> list[str]:
    """Where ``package``'s modules are; ``ConfigurationError`` if it is not a package."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError) as exc:
        raise ConfigurationError(
            f"cannot look for game parts in {package!r}: {exc}") from None
    if spec is None:
        raise ConfigurationError(
            f"cannot look for game parts in {package!r}: there is no such package")
    if spec.submodule_search_locations is None:
        raise ConfigurationError(
            f"cannot look for game parts in {package!r}: it is a module, not a package"
            " (a game's parts are modules in its package's folder)")
    return list(spec.submodule_search_locations)


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
        raise ConfigurationError(_no_attribute(reference, module_name, attribute)) from None
    _RESOLVED[reference] = found
    return found


def _no_attribute(reference: str, module_name: str, attribute: str) -> str:
    """What a reference to a missing attribute says: where a convention found the module,
    which part it is and how to give that part."""
    said = f"extension reference {reference!r}: the module {module_name!r} has no {attribute!r}"
    file = module_name.rpartition(".")[2]
    for name, convention in CONVENTIONS.items():
        if convention == (file, attribute):
            said += (f" (the {name} part: a game folder's {file}.py holds it as {attribute};"
                     f" define {attribute} there, or name another in"
                     f" Extensions({name}='package.module:attribute'))")
    return said


def extensions_of(game: Game[Any, Any]) -> Extensions:
    """The bundle of a configured game: its variant's parts over its game's."""
    return game.info.spec.extensions_for(game.info.variant)


def reference(game: Game[Any, Any], name: str) -> str | None:
    """The reference of one part of a configured game, or ``None`` if it has none."""
    bundle = extensions_of(game)
    if name not in CONVENTIONS:
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
