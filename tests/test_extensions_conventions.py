"""A game folder's parts are found by convention (``core.extensions``): each part in the
module of its name, without importing it; a spec names a part only to share or override
one; a module that is there without its attribute is refused naming module, attribute
and part."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
import zipfile
from collections.abc import Callable
from itertools import count
from pathlib import Path
from typing import Any

import pytest

import fourfold
from fourfold.core.errors import ConfigurationError
from fourfold.core.extensions import CONVENTIONS, Extensions, discover, part, resolve
from fourfold.core.game import Game
from fourfold.core.registry import game_names, get_spec
from fourfold.core.spec import GameInfo, GameSpec, Utility, VariantSpec

QUARTO = fourfold.get_spec("quarto")
_FOLDERS = count()
#: a module that fails the test if anything imports it
TRIPWIRE = "raise RuntimeError('a part module was imported')\n"


@pytest.fixture
def make_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    """``make_folder(text="...", ...)``: a package on ``sys.path`` holding a module (or,
    for a name with a dot, a file) of each name given, with that text; its name."""
    monkeypatch.syspath_prepend(str(tmp_path))

    def make(**files: str) -> str:
        package = f"conventional_game_{next(_FOLDERS)}"
        folder = tmp_path / package
        folder.mkdir()
        (folder / "__init__.py").write_text("")
        for name, text in files.items():
            (folder / (name if "." in name else f"{name}.py")).write_text(text)
        return package

    return make


def game_of(spec: GameSpec, variant: str | None = None) -> Game[Any, Any]:
    return spec.factory(spec.resolve(variant, {}))


def test_the_table_covers_every_part_once() -> None:
    assert set(CONVENTIONS) == set(Extensions().__dataclass_fields__)
    places = list(CONVENTIONS.values())
    assert len(set(places)) == len(places)
    assert CONVENTIONS["presenter"] == ("text", "PRESENTER")
    assert CONVENTIONS["drawer"] == ("svg", "DRAWER")
    assert CONVENTIONS["browser"] == ("browser.js", None)


def test_a_folder_without_part_modules_has_no_parts(make_folder: Callable[..., str]) -> None:
    assert discover(make_folder(game="", notes="")) == Extensions()


@pytest.mark.parametrize("part_name", sorted(CONVENTIONS))
def test_each_part_is_found_by_its_module_alone(make_folder: Callable[..., str],
                                               part_name: str) -> None:
    module, attribute = CONVENTIONS[part_name]
    package = make_folder(**{module: TRIPWIRE})
    bundle = discover(package)
    assert bundle.names() == (part_name,)
    expected = f"{package}:{module}" if attribute is None else f"{package}.{module}:{attribute}"
    assert getattr(bundle, part_name) == expected
    assert not any(m.startswith(f"{package}.") for m in sys.modules)


def test_a_part_module_may_be_a_package(make_folder: Callable[..., str]) -> None:
    package = make_folder()
    found = importlib.util.find_spec(package)
    assert found is not None and found.submodule_search_locations is not None
    sub = Path(found.submodule_search_locations[0])
    (sub / "bots").mkdir()
    (sub / "bots" / "__init__.py").write_text(TRIPWIRE)
    assert discover(package) == Extensions(bots=f"{package}.bots:BOTS")


def test_a_package_in_a_zip_file_is_searched_too(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "zipped_games.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped_game/__init__.py", "")
        z.writestr("zipped_game/text.py", TRIPWIRE)
        z.writestr("zipped_game/browser.js", "export default (kit) => ({});\n")
        z.writestr("zipped_game/notes.py", "")
    monkeypatch.syspath_prepend(str(archive))
    assert discover("zipped_game") == Extensions(presenter="zipped_game.text:PRESENTER",
                                                 browser="zipped_game:browser.js")
    monkeypatch.delitem(sys.modules, "zipped_game")


def test_a_module_without_its_attribute_is_refused_naming_module_attribute_and_part(
        make_folder: Callable[..., str]) -> None:
    package = make_folder(text="PRESENT = None\n", svg="def draw(*args, **kw):\n    return ''\n")
    spec = GameSpec(name="bare-conventions", summary="test", package=package,
                    factory=QUARTO.factory, rules_text=QUARTO.rules_text)
    assert spec.extensions == Extensions(presenter=f"{package}.text:PRESENTER",
                                         drawer=f"{package}.svg:DRAWER")
    game = game_of(spec)
    for name, module, attribute in (("presenter", "text", "PRESENTER"),
                                    ("drawer", "svg", "DRAWER")):
        with pytest.raises(ConfigurationError) as refused:
            part(game, name)
        said = str(refused.value)
        assert f"'{package}.{module}'" in said and f"'{attribute}'" in said, said
        assert f"the {name} part" in said and f"{module}.py" in said, said
        assert len(said.splitlines()) == 1


def test_a_module_that_cannot_be_imported_is_refused_by_name(
        make_folder: Callable[..., str]) -> None:
    package = make_folder(wire="import no_such_module_anywhere\n")
    with pytest.raises(ConfigurationError, match=rf"cannot import '{package}\.wire'"):
        resolve(discover(package).codec or "")


def test_a_spec_takes_its_name_title_rules_and_parts_from_its_package(
        make_folder: Callable[..., str]) -> None:
    package = make_folder(text="PRESENTER = 'mine'\n", **{"rules.md": "# Mine\n\nRules.\n"})
    spec = GameSpec(package=package, summary="test", factory=QUARTO.factory)
    assert spec.name == package and spec.title == package.title()
    assert spec.rules_text(None) == "# Mine\n\nRules.\n"
    assert [v.name for v in spec.variants] == ["standard"]
    assert (spec.num_players, spec.utility, spec.perfect_information) == (
        2, Utility.ZERO_SUM, True)
    assert part(game_of(spec), "presenter") == "mine"


def test_named_parts_come_over_the_folder_and_shared_folders_after_it(
        make_folder: Callable[..., str]) -> None:
    shared = make_folder(text="PRESENTER = 'shared'\n", wire="CODEC = 'shared'\n",
                         bots="BOTS = 'shared'\n")
    later = make_folder(wire="CODEC = 'later'\n", report="REPORT = 'later'\n")
    own = make_folder(text="PRESENTER = 'own'\n")
    spec = GameSpec(name="layered", summary="test", package=own, shares=(shared, later),
                    factory=QUARTO.factory, rules_text=QUARTO.rules_text,
                    extensions=Extensions(bots=f"{later}.report:REPORT"))
    game = game_of(spec)
    assert part(game, "presenter") == "own"      # its own folder first
    assert part(game, "codec") == "shared"       # then each shared folder in order
    assert part(game, "report") == "later"
    assert part(game, "bots") == "later"         # a named part over every folder
    assert part(game, "drawer") is None          # in none of them: no such part


def test_a_variant_with_a_folder_takes_its_parts_over_its_games(
        make_folder: Callable[..., str]) -> None:
    game_folder = make_folder(text="PRESENTER = 'game'\n", wire="CODEC = 'game'\n",
                              report="REPORT = 'game'\n")
    variant_folder = make_folder(text="PRESENTER = 'variant'\n", wire="CODEC = 'variant'\n")
    spec = GameSpec(
        name="variants", summary="test", package=game_folder, factory=QUARTO.factory,
        rules_text=QUARTO.rules_text,
        variants=(VariantSpec("standard", "plain"),
                  VariantSpec("other", "its own folder", package=variant_folder,
                              extensions=Extensions(codec=f"{game_folder}.report:REPORT"))))
    plain, other = game_of(spec), game_of(spec, "other")
    assert [part(plain, p) for p in ("presenter", "codec", "report")] == ["game"] * 3
    assert part(other, "presenter") == "variant"
    assert part(other, "codec") == "game"        # named in the variant: over its folder
    assert part(other, "report") == "game"       # not in its folder: the game's


def test_a_spec_without_a_package_has_only_the_parts_it_names() -> None:
    spec = GameSpec(name="named-only", summary="test", factory=QUARTO.factory,
                    rules_text=QUARTO.rules_text,
                    extensions=Extensions(codec="fourfold.games.placement.wire:CODEC"))
    assert spec.extensions.names() == ("codec",)


def test_bad_packages_and_missing_declarations_are_refused_clearly(
        make_folder: Callable[..., str], tmp_path: Path) -> None:
    (tmp_path / "lone_module_game.py").write_text("")
    for package, why in (("no_such_game_package", "there is no such package"),
                         ("lone_module_game", "it is a module, not a package")):
        with pytest.raises(ConfigurationError, match=f"'{package}': {why}"):
            GameSpec(package=package, summary="test", factory=QUARTO.factory)
    with pytest.raises(ConfigurationError, match="needs a name or a package"):
        GameSpec(summary="test", factory=QUARTO.factory, rules_text=QUARTO.rules_text)
    with pytest.raises(ConfigurationError, match="'nameless' has no rules text"):
        GameSpec(name="nameless", summary="test", factory=QUARTO.factory)
    package = make_folder()
    with pytest.raises(ConfigurationError, match="no such package"):
        GameSpec(package=package, summary="test", factory=QUARTO.factory,
                 shares=("no_such_shared_folder",))


def _playable(spec: GameSpec) -> list[str]:
    return [v.name for v in spec.variants if not v.unavailable]


@pytest.mark.parametrize("name", game_names())
def test_every_part_of_every_built_in_game_resolves(name: str) -> None:
    from importlib import resources

    spec = get_spec(name)
    for variant in _playable(spec):
        bundle = spec.extensions_for(variant)
        for part_name in bundle.names():
            reference = getattr(bundle, part_name)
            if CONVENTIONS[part_name][1] is None:
                package, _, file = reference.partition(":")
                assert resources.files(package).joinpath(file).is_file(), reference
            else:
                assert resolve(reference) is not None, reference


def test_the_built_in_games_declare_only_what_is_their_own() -> None:
    """Each built-in spec's parts are found in its folder, or in a folder it shares; the
    few it names are shared from another folder's differently named attribute."""
    for name in game_names():
        spec = get_spec(name)
        if spec.package is None or not spec.package.startswith("fourfold.games."):
            continue
        found = Extensions()
        for folder in reversed((spec.package, *spec.shares)):
            found = discover(folder).over(found)
        named = [p for p in spec.extensions.names()
                 if getattr(spec.extensions, p) != getattr(found, p)]
        for p in named:
            module, attribute = CONVENTIONS[p]
            assert not getattr(spec.extensions, p).endswith(f".{module}:{attribute}"), (
                f"{name} names its {p} part where the convention would find it")


def test_registering_the_games_imports_none_of_their_part_modules() -> None:
    """Discovery looks for the files: loading every game imports no part module (the rules
    import no UI, AI, kernel or network code)."""
    script = textwrap.dedent("""
        import sys
        from fourfold.core.extensions import CONVENTIONS
        from fourfold.core.registry import game_names, get_spec, load
        for name in game_names():
            for v in get_spec(name).variants:
                if not v.unavailable:
                    load(name, v.name)
        parts = {module for module, attribute in CONVENTIONS.values() if attribute}
        print(sorted(m for m in sys.modules if m.startswith('fourfold.games.')
                     and m.rsplit('.', 1)[1] in parts))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_specs_built_by_convention_still_configure_and_pickle() -> None:
    import pickle

    info: GameInfo = get_spec("dao").resolve(None, {})
    assert info.spec.name == "dao" and info.spec.title == "Dao"
    assert pickle.loads(pickle.dumps(info.spec)) is info.spec
