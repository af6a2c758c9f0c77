"""``fourfold rules [GAME] [--variant V]``: the rules, with every ruling marked."""

from __future__ import annotations

import argparse
from typing import Any

from fourfold.cli.numbers import text
from fourfold.core.errors import ConfigurationError
from fourfold.core.registry import game_names, get_spec
from fourfold.core.spec import GameSpec


def register(sub: Any) -> None:
    p = sub.add_parser("rules", help="print a game's rules (rulings marked) or list the games")
    p.add_argument("game", nargs="?", metavar="GAME", help="omit to list every game")
    p.add_argument("--variant", "-v", default=None, type=text("a variant name"),
                   help="show only this variant's section")
    p.set_defaults(run=run)


def describe_options(spec: GameSpec, variant: str | None) -> list[str]:
    lines = []
    variants = [spec.variant(variant)] if variant else spec.variants
    seen = set()
    for v in variants:
        for o in spec.options + v.options:
            if o.name in seen:
                continue
            seen.add(o.name)
            mark = " [RULING: replaces lost text]" if o.ruling else ""
            choices = f" ({' | '.join(o.choices)})" if o.choices else ""
            lines.append(f"  --option {o.name}=VALUE{choices}, default {o.format(o.default)}{mark}")
            lines.append(f"      {o.help}")
    return lines


def overview() -> str:
    lines = ["Games (fourfold rules GAME for the full rules):", ""]
    for name in game_names():
        spec = get_spec(name)
        lines.append(f"  {name:<11} {spec.summary}")
        for v in spec.variants:
            note = f"  [not playable: {v.unavailable}]" if v.unavailable else ""
            lines.append(f"      --variant {v.name:<20} {v.summary}{note}")
    return "\n".join(lines)


def rules_document(spec: GameSpec, variant: str | None = None) -> str:
    """The full text ``fourfold rules`` prints; ``docs/rules/`` holds the same text."""
    parts = [spec.rules_text(variant).rstrip(), "", "## Variants and options", "", "```"]
    for v in spec.variants:
        note = f"  [not playable: {v.unavailable}]" if v.unavailable else ""
        parts.append(f"--variant {v.name:<20} {v.summary}{note}")
    options = describe_options(spec, variant)
    if options:
        parts.append("")
        parts.extend(line.strip() if line.startswith("  --") else line for line in options)
    parts.append("```")
    return "\n".join(parts) + "\n"


def run(args: argparse.Namespace) -> int:
    if args.game is None:
        if args.variant is not None:
            raise ConfigurationError(f"--variant {args.variant} needs a GAME: fourfold rules"
                                     f" GAME --variant {args.variant}")
        print(overview())
        return 0
    spec = get_spec(args.game)
    variant = spec.variant(args.variant).name if args.variant else None
    print(rules_document(spec, variant), end="")
    return 0
