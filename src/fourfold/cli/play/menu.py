"""The numbered menus of ``fourfold play`` without a GAME: the game, its variant, the
opponent (another person here, or a bot and its level) and who moves first (or, in
games of more players, which seat the person takes).

Everything comes from the registries (games, variants, bots, the terminal's play
rules), so a new game or bot appears here by registering. Variants that cannot be
played are listed with the reason and refused if chosen. ``q`` or the end of input
leaves the menu.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from fourfold.ai import bot_names, make_bot
from fourfold.ai.levels import LEVELS, level_of
from fourfold.cli.commands.bots import describe as describe_bot
from fourfold.cli.play.console import Console
from fourfold.cli.play.rules import rules_for
from fourfold.cli.play.setup import HUMAN, PlayRequest
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.registry import game_names, get_spec, load
from fourfold.core.spec import GameSpec, VariantSpec


def pick(console: Console, prompt: str, names: Sequence[str],
         default: int | None = None) -> int | None:
    """Ask until the answer is a number 1..n or one of ``names`` (or empty, for the
    ``default``; without one, an empty line asks again, as at a game's prompt); ``None``
    to leave."""
    while True:
        answer = console.ask(prompt)
        if answer is None:
            return None
        text = answer.strip().lower()
        if text in ("q", "quit", "exit"):
            return None
        if not text:
            if default is not None:
                return default
            continue
        if text.isdigit() and 1 <= int(text) <= len(names):
            return int(text) - 1
        if text in names:
            return list(names).index(text)
        console.say(f"{answer.strip()[:40]!r} is not on the list: type a number from 1 to"
                    f" {len(names)} or a name ({', '.join(names)}), or q to leave.")


def choose_game(console: Console) -> GameSpec | None:
    specs = [get_spec(name) for name in game_names()]
    console.say("Games:")
    for i, spec in enumerate(specs, start=1):
        console.say(f"  {i}. {spec.title:<12} {spec.summary}")
    index = pick(console, "Game> ", [s.name for s in specs])
    return None if index is None else specs[index]


def choose_variant(console: Console, spec: GameSpec) -> VariantSpec | None:
    if len(spec.variants) == 1:
        return spec.variants[0]
    console.say(f"{spec.title} variants:")
    for i, v in enumerate(spec.variants, start=1):
        note = f"  [not playable: {v.unavailable}]" if v.unavailable else ""
        console.say(f"  {i}. {v.name:<20} {v.summary}{note}")
    names = [v.name for v in spec.variants]
    while True:
        index = pick(console, "Variant> ", names)
        if index is None:
            return None
        chosen = spec.variants[index]
        if not chosen.unavailable:
            return chosen
        console.say(f"{chosen.name} cannot be played: {chosen.unavailable}. Choose another.")


def opponents(game: Game[Any, Any]) -> list[tuple[str, str]]:
    """(name, description) of every opponent this game can have at the terminal: a
    person (where allowed), then the levels, then the other bots."""
    rules = rules_for(game)
    found: list[tuple[str, str]] = []
    if rules.no_hot_seat is None and game.num_players == 2:
        found.append((HUMAN, "another person at this terminal"))
    levels = [f"level{n}" for n in LEVELS]
    usual = [] if rules.opponent in bot_names()[:1] else [rules.opponent]
    for name in [*usual, *levels, *bot_names()]:
        if name in (n for n, _ in found):
            continue
        try:
            make_bot(name, game, 1 % game.num_players, 0)
        except FourfoldError:
            continue
        if name in levels:
            text = level_of(game, int(name[5:])).describe()
        else:  # what `fourfold bots` says of it
            text = describe_bot(name) or "a bot"
            if name == rules.opponent:  # team-mates, in a game of more than two
                text += (" (the usual opponent here)" if game.num_players == 2
                         else " (the usual choice here)")
        found.append((name, text))
    return found


def choose_opponent(console: Console, game: Game[Any, Any]) -> str | None:
    choices = opponents(game)
    rules = rules_for(game)
    console.say("Opponent:" if game.num_players == 2 else "The other seats are played by:")
    for i, (name, text) in enumerate(choices, start=1):
        console.say(f"  {i}. {name:<11} {text}")
    names = [name for name, _ in choices]
    default = names.index(rules.opponent) if rules.opponent in names else 0
    asked = "Opponent" if game.num_players == 2 else "Bots"
    index = pick(console, f"{asked} [{names[default]}]> ", names, default)
    return None if index is None else names[index]


def choose_seat(console: Console, game: Game[Any, Any], vs: str) -> int | None:
    """The person's seat, 1-based (who moves first, in a two-player game)."""
    n = game.num_players
    if vs == HUMAN or n < 2:
        return 1
    if n == 2:
        # the first seat does not always move first (a game may open with the second
        # seat's move): say who opens, so that "me" never surprises
        opener = game.to_move(game.initial_state())
        first, second = (game.player_name(p) for p in range(2))
        opens = "" if opener is None else f" ({game.player_name(opener)} moves first)"
        console.say(f"Which seat is yours{opens}?")
        console.say(f"  1. me as {first}, {vs} as {second}")
        console.say(f"  2. {vs} as {first}, me as {second}")
        index = pick(console, "Your choice [1]> ", ["me", "them"], 0)
        return None if index is None else index + 1
    seats = [game.player_name(p) for p in range(n)]
    console.say("Your seat: " + ", ".join(f"{i}. {s}" for i, s in enumerate(seats, 1)))
    index = pick(console, "Seat [1]> ", [str(i) for i in range(1, n + 1)], 0)
    return None if index is None else index + 1


def choose(console: Console, request: PlayRequest) -> PlayRequest | None:
    """The request completed from the menus, or ``None`` if the user left."""
    spec = choose_game(console)
    if spec is None:
        return None
    variant = choose_variant(console, spec)
    if variant is None:
        return None
    game = load(spec.name, variant.name, **request.options)
    vs = request.vs or choose_opponent(console, game)
    if vs is None:
        return None
    seat = request.seat or choose_seat(console, game, vs)
    if seat is None:
        return None
    return replace(request, game=spec.name, variant=variant.name, vs=vs, seat=seat)
