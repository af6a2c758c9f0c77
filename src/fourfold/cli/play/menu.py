"""The numbered menus of ``fourfold play`` without a GAME: a game, then a variant.

Both come from the registry, so a new game appears here by registering.
Variants that cannot be played are listed with the reason and refused if
chosen. ``q`` or the end of input leaves the menu.
"""

from __future__ import annotations

from collections.abc import Sequence

from fourfold.cli.play.terminal import Terminal
from fourfold.core.registry import game_names, get_spec
from fourfold.core.spec import GameSpec, VariantSpec


def pick(terminal: Terminal, prompt: str, names: Sequence[str]) -> int | None:
    """Ask until the answer is a number 1..n or one of ``names``; ``None`` to leave."""
    while True:
        answer = terminal.ask(prompt)
        if answer is None:
            return None
        text = answer.strip().lower()
        if text in ("q", "quit", "exit"):
            return None
        if text.isdigit() and 1 <= int(text) <= len(names):
            return int(text) - 1
        if text in names:
            return list(names).index(text)
        terminal.say(f"Type a number from 1 to {len(names)} (or a name), or q to leave.")


def choose_game(terminal: Terminal) -> GameSpec | None:
    specs = [get_spec(name) for name in game_names()]
    terminal.say("Games:")
    for i, spec in enumerate(specs, start=1):
        terminal.say(f"  {i}. {spec.title:<12} {spec.summary}")
    index = pick(terminal, "Game> ", [s.name for s in specs])
    return None if index is None else specs[index]


def choose_variant(terminal: Terminal, spec: GameSpec) -> VariantSpec | None:
    if len(spec.variants) == 1:
        return spec.variants[0]
    terminal.say(f"{spec.title} variants:")
    for i, v in enumerate(spec.variants, start=1):
        note = f"  [not playable: {v.unavailable}]" if v.unavailable else ""
        terminal.say(f"  {i}. {v.name:<20} {v.summary}{note}")
    names = [v.name for v in spec.variants]
    while True:
        index = pick(terminal, "Variant> ", names)
        if index is None:
            return None
        chosen = spec.variants[index]
        if not chosen.unavailable:
            return chosen
        terminal.say(f"{chosen.name} cannot be played: {chosen.unavailable}. Choose another.")


def choose(terminal: Terminal) -> tuple[str, str] | None:
    """The game and variant names chosen, or ``None`` if the user left."""
    spec = choose_game(terminal)
    if spec is None:
        return None
    variant = choose_variant(terminal, spec)
    if variant is None:
        return None
    return spec.name, variant.name
