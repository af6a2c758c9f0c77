"""Where the browser finds each game's controller, and the fingerprint of the app's files.

A game's browser controller is a JavaScript module in the game's own folder, named by
the ``browser`` part of its extension bundle (``fourfold.core.extensions``) as
``"package:file.js"``: the file ``file.js`` in the folder of the Python package
``package`` (e.g. ``"fourfold.games.sliding:browser.js"``). A variant may name another
(``VariantSpec(extensions=Extensions(browser=...))``). A game without one is played with
the generic controller (one button per legal move, from the choices its events carry).

The page learns the controller's URL from ``/api/games`` (each variant's ``browser``)
and from every screen it is sent. The module is served at
``/ui/<build>/pkg/<package path>/<file>``: the URL mirrors the package's path, so a
controller may import a file of another game folder that some game names (a family's
shared controller) with an ordinary relative import. Only ``.js`` files of packages
that a registered game names are served.

What the module must export is written in ``static/controllers.js`` (and docs/browser.md):
a default function ``(kit) => {decorate(svg, screen, ctx), controls(screen, ctx), reset()}``.

``build_id()`` fingerprints every file the app may load (its static files and the games'
controllers), so that their URLs (``/ui/<build>/...``) may be cached for good.
"""

from __future__ import annotations

import hashlib
import importlib.util
from functools import lru_cache
from pathlib import Path

from fourfold.core.errors import ConfigurationError
from fourfold.core.registry import game_names, get_spec
from fourfold.core.spec import GameSpec

STATIC = Path(__file__).resolve().parent / "static"


def _split(reference: str) -> tuple[str, str]:
    package, sep, file = reference.partition(":")
    if not sep or not package or not file.endswith(".js") or "/" in file or "\\" in file \
            or file.startswith("."):
        raise ConfigurationError(
            f"bad browser controller {reference!r}: write it as 'package:file.js' (a .js file"
            " in the package's folder)")
    return package, file


@lru_cache(maxsize=256)
def package_folder(package: str) -> Path:
    """The folder of a Python package (where its controller files live)."""
    try:
        found = importlib.util.find_spec(package)
    except (ImportError, ValueError) as exc:
        raise ConfigurationError(f"browser controller: cannot find package {package!r} ({exc})"
                                 ) from None
    if found is None or not found.submodule_search_locations:
        raise ConfigurationError(f"browser controller: {package!r} is not a package folder")
    return Path(next(iter(found.submodule_search_locations))).resolve()


def controller_file(reference: str) -> tuple[str, Path]:
    """The package and the file a ``"package:file.js"`` reference names (it must exist)."""
    package, file = _split(reference)
    path = package_folder(package) / file
    if not path.is_file():
        raise ConfigurationError(f"browser controller {reference!r}: there is no {file} in"
                                 f" {package_folder(package)}")
    return package, path


def _references(spec: GameSpec) -> set[str]:
    found = {spec.extensions.browser} | {v.extensions.browser for v in spec.variants}
    return {r for r in found if r}


def controller_url(spec: GameSpec, variant: str | None) -> str | None:
    """The URL of one variant's controller module, or ``None``: the generic controller."""
    reference = spec.extensions_for(variant).browser
    if reference is None:
        return None
    package, path = controller_file(reference)
    return f"/ui/{build_id()}/pkg/{package.replace('.', '/')}/{path.name}"


def served_packages() -> dict[str, Path]:
    """The package folders whose ``.js`` files may be served: those some game names."""
    packages = {}
    for name in game_names():
        for reference in _references(get_spec(name)):
            package, _ = controller_file(reference)
            packages[package] = package_folder(package)
    return packages


def served_file(path: str) -> Path | None:
    """The file at ``pkg/<path>`` (``fourfold/games/sliding/browser.js``), or ``None``."""
    folder, _, name = path.rpartition("/")
    if not name.endswith(".js") or name.startswith(".") or not folder:
        return None
    root = served_packages().get(folder.replace("/", "."))
    if root is None:
        return None
    file = root / name
    return file if file.is_file() else None


@lru_cache(maxsize=1)
def build_id() -> str:
    """A short hash of every static file and every served controller file."""
    digest = hashlib.sha256()
    files = sorted(p for p in STATIC.iterdir() if p.is_file())
    for root in sorted(served_packages().values()):
        files += sorted(root.glob("*.js"))
    for file in files:
        digest.update(str(file.name).encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()[:12]


__all__ = ["build_id", "controller_url", "served_file", "served_packages"]
