"""Rules texts shipped with each game and printed by ``fourfold rules``.

Each game keeps its rules as Markdown beside its code (``rules.md``). A section
whose heading is ``## Variant: NAME`` belongs to one variant; everything else
is common. Rulings (decisions where the original text is silent or lost) are
written as paragraphs starting ``**Ruling`` so that they stand out, and the
docs in ``docs/rules/`` are generated from the same files.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

VARIANT_HEADING = "## Variant: "


def load_rules(package: str, filename: str = "rules.md") -> str:
    return resources.files(package).joinpath(filename).read_text(encoding="utf-8")


def select_variant(text: str, variant: str | None) -> str:
    """The common text plus the section of ``variant`` (all sections when ``None``)."""
    if variant is None:
        return text
    kept: list[str] = []
    keep = True
    for line in text.splitlines():
        if line.startswith("## "):
            keep = not line.startswith(VARIANT_HEADING) or (
                line[len(VARIANT_HEADING):].strip().lower() == variant
            )
        if keep:
            kept.append(line)
    return "\n".join(kept).rstrip() + "\n"


@dataclass(frozen=True)
class RulesText:
    """A ``GameSpec.rules_text`` reading ``rules.md`` from a game package.

    A module-level value rather than a closure, so that whatever holds it pickles."""

    package: str

    def __call__(self, variant: str | None) -> str:
        return select_variant(load_rules(self.package), variant)


def rules_from(package: str) -> RulesText:
    """A ``GameSpec.rules_text`` reading ``rules.md`` from a game package."""
    return RulesText(package)
