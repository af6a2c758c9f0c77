"""Static descriptions of games: variants, options and metadata.

A ``GameSpec`` is what the registry stores and what ``fourfold rules`` and the
CLI's menus read; a ``GameInfo`` is the resolved metadata of one configured
game instance (which variant, which option values).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from fourfold.core.errors import ConfigurationError
from fourfold.core.extensions import Extensions, discover
from fourfold.core.rulestext import rules_from

if TYPE_CHECKING:
    from fourfold.core.game import Game


class Utility(Enum):
    """As in OpenSpiel: zero-sum games, or cooperative ones where all share one result."""

    ZERO_SUM = "zero-sum"
    COOPERATIVE = "cooperative"


def option_key(name: str) -> str:
    """Option names are written with hyphens; Python callers may use underscores."""
    return name.strip().lower().replace("_", "-")


@dataclass(frozen=True)
class OptionSpec:
    """One named option.

    ``parse`` turns a user's value (a string from the CLI, or a Python value)
    into the canonical value, raising ``ValueError`` with the reason when it is
    not valid; ``format`` writes the canonical value back as a string, so that
    records and menus can show it. ``ruling`` marks options that replace text
    lost from the original rules.
    """

    name: str
    default: Any
    help: str
    parse: Callable[[Any], Any]
    format: Callable[[Any], str] = str
    choices: tuple[str, ...] = ()
    ruling: bool = False

    def coerce(self, value: Any) -> Any:
        try:
            return self.parse(value)
        except ValueError as exc:
            # a ChoiceParser's reason already lists them
            listed = isinstance(self.parse, ChoiceParser)
            hint = f" (choices: {', '.join(self.choices)})" if self.choices and not listed else ""
            raise ConfigurationError(
                f"bad value {value!r} for option {self.name!r}: {exc}{hint}"
            ) from None


def choice_option(
    name: str, choices: tuple[str, ...], default: str, help: str, *, ruling: bool = False
) -> OptionSpec:
    """An option whose value is one of a few words."""
    return OptionSpec(name, default, help, ChoiceParser(choices), choices=choices, ruling=ruling)


@dataclass(frozen=True)
class ChoiceParser:
    """Parse one of a few words (a value, not a closure, so that a spec pickles)."""

    choices: tuple[str, ...]

    def __call__(self, value: Any) -> str:
        text = str(value).strip().lower()
        if text not in self.choices:
            raise ValueError(f"must be one of {', '.join(self.choices)}")
        return text


def parse_bool(value: Any) -> bool:
    """``true``/``false`` (and ``1``/``0``, ``yes``/``no``, ``on``/``off``) as a bool."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError("must be true or false")


def format_bool(value: Any) -> str:
    return "true" if value else "false"


def bool_option(name: str, default: bool, help: str) -> OptionSpec:
    return OptionSpec(
        name, default, help, parse_bool, format=format_bool, choices=("true", "false"),
    )


@dataclass(frozen=True)
class VariantSpec:
    """A variant of a game. An unplayable one says why in ``unavailable``.

    A variant with a folder of its own (``package``) takes the parts found there by
    convention over its game's; ``extensions`` names parts over both (``core.extensions``).
    After construction ``extensions`` holds the variant's whole bundle: those it names,
    over those of its folder."""

    name: str
    summary: str
    options: tuple[OptionSpec, ...] = ()
    unavailable: str | None = None
    #: parts of this variant that differ from its game's (``core.extensions``)
    extensions: Extensions = field(default_factory=Extensions)
    #: the variant's own folder, whose parts are found by convention (``None``: none)
    package: str | None = None

    def __post_init__(self) -> None:
        if self.package is not None:
            object.__setattr__(self, "extensions", self.extensions.over(discover(self.package)))


#: the variant of a game that declares none
STANDARD = VariantSpec("standard", "the classic game")


def _rules_of_package(variant: str | None) -> str:
    """``GameSpec.rules_text`` not given: replaced by its package's ``rules.md``."""
    raise ConfigurationError("this game has no rules text")


@dataclass(frozen=True, kw_only=True)
class GameSpec:
    """Everything the registry knows about a game before it is configured.

    A game declares what is its own; the rest follows from its folder, ``package``
    (``__name__`` in the package's ``__init__``), the way a Django app's label follows
    from its name:

    - ``name``: the folder's name (``fourfold.games.dao``: ``dao``); ``title``: the name
      capitalised (``Dao``);
    - ``rules_text``: the folder's ``rules.md`` (``core.rulestext``);
    - ``variants``: one, ``standard``; ``options``: none;
    - ``num_players``, ``utility``, ``perfect_information``: two players, zero-sum, every
      seat sees everything;
    - ``extensions``: each part the folder holds by convention (``core.extensions``), then
      each one found in the folders it ``shares``, in order; the parts it names itself
      come over those. After construction ``extensions`` holds the whole bundle.
    """

    name: str = ""
    title: str = ""
    summary: str
    package: str | None = None
    factory: Callable[[GameInfo], Game[Any, Any]]
    variants: tuple[VariantSpec, ...] = (STANDARD,)
    options: tuple[OptionSpec, ...] = ()
    num_players: int = 2
    utility: Utility = Utility.ZERO_SUM
    perfect_information: bool = True
    rules_text: Callable[[str | None], str] = _rules_of_package
    aliases: tuple[str, ...] = ()
    #: folders of shared machinery whose parts this game uses where its own has none
    #: (Dao and Ice Dao share ``fourfold.games.sliding``'s terminal controls)
    shares: tuple[str, ...] = ()
    #: the game's parts beyond its rules: drawings, codec, bots... (``core.extensions``)
    extensions: Extensions = field(default_factory=Extensions)

    def __post_init__(self) -> None:
        if not self.name:
            if self.package is None:
                raise ConfigurationError("a GameSpec needs a name or a package to take it from")
            object.__setattr__(self, "name", self.package.rpartition(".")[2])
        if not self.title:
            object.__setattr__(self, "title", self.name.title())
        if self.rules_text is _rules_of_package:
            if self.package is None:
                raise ConfigurationError(
                    f"game {self.name!r} has no rules text: give its package (whose rules.md"
                    " is read) or rules_text")
            object.__setattr__(self, "rules_text", rules_from(self.package))
        bundle = self.extensions
        for folder in (self.package, *self.shares):
            if folder is not None:
                bundle = bundle.over(discover(folder))
        object.__setattr__(self, "extensions", bundle)

    def __reduce__(self) -> str | tuple[Any, ...]:
        """A registered spec pickles as its name and unpickles as the registry's own spec
        (its parsers and factory are functions of the game's package, not data)."""
        from fourfold.core import registry

        if registry.is_registered(self):
            return (registry.get_spec, (self.name,))
        return super().__reduce__()

    @property
    def default_variant(self) -> str:
        return self.variants[0].name

    def variant(self, name: str | None) -> VariantSpec:
        if name is None:
            return self.variants[0]
        wanted = name.strip().lower()
        for v in self.variants:
            if v.name == wanted:
                if v.unavailable:
                    raise ConfigurationError(
                        f"{self.name} variant {v.name!r} cannot be played: {v.unavailable}"
                    )
                return v
        raise ConfigurationError(
            f"unknown {self.name} variant {name!r}; valid variants: "
            + ", ".join(v.name for v in self.variants if not v.unavailable)
        )

    def extensions_for(self, variant: str | None) -> Extensions:
        """The parts of one variant: the variant's own over the game's."""
        return self.variant(variant).extensions.over(self.extensions)

    def options_for(self, variant: str | None) -> tuple[OptionSpec, ...]:
        return self.options + self.variant(variant).options

    def resolve(self, variant: str | None, options: Mapping[str, Any]) -> GameInfo:
        """Check variant and options, filling defaults; raise ``ConfigurationError``."""
        v = self.variant(variant)
        specs = {o.name: o for o in self.options + v.options}
        values = {name: spec.default for name, spec in specs.items()}
        for raw_key, raw_value in options.items():
            key = option_key(raw_key)
            if key not in specs:
                valid = ", ".join(sorted(specs)) or "none"
                raise ConfigurationError(
                    f"unknown option {raw_key!r} for {self.name} {v.name}; valid options: {valid}"
                )
            values[key] = specs[key].coerce(raw_value)
        return GameInfo(self, v.name, values)


@dataclass(frozen=True)
class GameInfo:
    """The metadata of one configured game (OpenSpiel's ``GameType`` plus parameters)."""

    spec: GameSpec
    variant: str
    options: dict[str, Any] = field(hash=False)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def num_players(self) -> int:
        return self.spec.num_players

    def option_strings(self) -> dict[str, str]:
        specs = {o.name: o for o in self.spec.options_for(self.variant)}
        return {k: specs[k].format(v) for k, v in self.options.items()}

    def non_default_options(self) -> dict[str, str]:
        specs = {o.name: o for o in self.spec.options_for(self.variant)}
        return {
            k: specs[k].format(v) for k, v in self.options.items() if v != specs[k].default
        }

    def label(self) -> str:
        """``folio (fixed-grid, line-rule=same-colour-or-size)`` for titles and logs."""
        extras = [self.variant] + [f"{k}={v}" for k, v in self.non_default_options().items()]
        return f"{self.spec.name} ({', '.join(extras)})"
