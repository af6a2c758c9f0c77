"""From the command line (or the menu) to a ready ``Session``: game, seats, bots, clocks,
records.

The person takes one seat (``--seat N``, or ``--first me|them`` in a two-player game);
bots (``--vs``, default: the game's usual opponent) take the others, or a second person
does (``--vs human``, where the game allows one screen for two). A record names its
bots in its Players tag, so ``--load`` resumes against the same bots unless ``--vs``
says otherwise.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fourfold.ai import Bot, bot_names, bots_for
from fourfold.cli.paths import check_writable, read_text
from fourfold.cli.play.console import Console
from fourfold.cli.play.rules import PlayRules, rules_for
from fourfold.cli.play.session import Session
from fourfold.cli.records import replay
from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.core.registry import get_spec, load
from fourfold.render import presenter_for
from fourfold.table import ClockSettings, Seat, Table, TimeSource

HUMAN = "human"
FIRST_CHOICES = ("me", "them")


@dataclass(frozen=True)
class PlayRequest:
    """What the user asked for. ``vs`` is ``human`` or a bot name from ``fourfold.ai``
    (``None``: the recorded opponents with ``--load``, else the game's usual one);
    ``seat`` (1-based) is the person's seat, or else ``first`` says whether the person
    is Player 1 (``me``) or Player 2 (``them``). ``clock`` is ``MINUTES+SECONDS`` per
    player; ``pace`` the bots' mean seconds per action in real-time play. ``time`` and
    ``inline_bots`` are for tests: a clock of their own, bots on the caller's thread.
    ``game_number`` picks one game (from 1) of a ``load`` file holding several."""

    game: str
    variant: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    vs: str | None = None
    seed: int | None = None
    first: str = "me"
    seat: int | None = None
    load: Path | None = None
    save: Path | None = None
    clock: str | None = None
    pace: float | None = None
    time: TimeSource | None = None
    inline_bots: bool = False
    game_number: int | None = None


def read_match(path: Path, number: int | None = None) -> Match[Any, Any]:
    """Replay game ``number`` (or the only game) of a record file; a fault names the file
    (or the record's line and ply)."""
    match: Match[Any, Any] = replay(path, number, read_text(path, "the record"))
    return match


def check_save_path(path: Path) -> None:
    """Refuse at the start a record path that could never be written."""
    check_writable(path, "the record")


def start_match(request: PlayRequest) -> Match[Any, Any]:
    """A fresh match, or the one replayed from ``--load``."""
    if request.load is None:
        if request.game_number is not None:
            raise ConfigurationError("--game N picks a game of a record file: it goes with"
                                     " --load")
        game = load(request.game, request.variant, **request.options)
        return Match(game, game.initial_state(request.seed))
    match = read_match(request.load, request.game_number)
    if request.variant is not None or request.options:
        raise ConfigurationError(
            "--variant and --option cannot be used with --load: the record names them"
        )
    if request.game and get_spec(request.game).name != match.game.name:
        raise ConfigurationError(
            f"the record {request.load} is a game of {match.game.name}, not {request.game}"
        )
    return match


def my_seat(game: Game[Any, Any], request: PlayRequest) -> int:
    if request.seat is not None:
        if not 1 <= request.seat <= game.num_players:
            raise ConfigurationError(
                f"--seat must be 1 to {game.num_players} in {game.name}, not {request.seat}")
        return request.seat - 1
    if request.first not in FIRST_CHOICES:
        raise ConfigurationError(f"--first must be me or them, not {request.first!r}")
    return 0 if request.first == "me" or game.num_players < 2 else 1


def recorded_opponents(match: Match[Any, Any]) -> dict[int, str]:
    """The bots a record names in its Players tag, by seat."""
    known = set(bot_names())
    return {p: name.lower() for p, name in enumerate(match.players) if name.lower() in known}


def plan_seats(match: Match[Any, Any], rules: PlayRules,
               request: PlayRequest) -> tuple[frozenset[int], dict[int, str]]:
    """The seats of the people at this terminal, and the bot (by name) of every other."""
    game = match.game
    n = game.num_players
    if request.load is not None and request.vs is None:
        bots = recorded_opponents(match)
        if len(bots) < n:
            return frozenset(range(n)) - frozenset(bots), bots
        # a record between bots: the person takes over the requested seat
    vs = (request.vs or rules.opponent).strip().lower()
    if vs == HUMAN:
        if rules.no_hot_seat is not None:
            raise ConfigurationError(rules.no_hot_seat)
        return frozenset(range(n)), {}
    me = my_seat(game, request)
    return frozenset({me}), {p: vs for p in range(n) if p != me}


def make_bots(game: Game[Any, Any], rules: PlayRules, names: dict[int, str],
              people: frozenset[int], seed: int | None) -> dict[int, Bot]:
    bots = {}
    for p, name in names.items():
        try:
            bots[p] = rules.make_bot(name, game, p, None if seed is None else seed + p, people)
        except ConfigurationError as error:
            valid = ", ".join(bots_for(game))
            raise ConfigurationError(f"{error}; bots for {game.info.label()}: {valid}"
                                     ) from None
    return bots


def build_session(request: PlayRequest, console: Console) -> Session:
    if request.save is not None:
        check_save_path(request.save)
    bot_seed: int | None
    pause_seed: int | None
    if request.seed is None and request.load is None:
        # a secret deal: its seed (which replays it with --seed) is told only once the
        # game is over, and the bots' choices and pauses draw from secret streams of
        # their own, so nothing a bot does tells anything of the seed or the deal
        system = random.SystemRandom()
        request = replace(request, seed=system.randrange(1, 2**31))
        bot_seed, pause_seed = system.randrange(1, 2**31), system.randrange(1, 2**31)
    else:  # a deal the player chose (or loaded): nothing to hide from them
        bot_seed = pause_seed = request.seed
    match = start_match(request)
    game = match.game
    rules = rules_for(game)
    people, names = plan_seats(match, rules, request)
    bots = make_bots(game, rules, names, people, bot_seed)
    match.players = tuple(
        bots[p].name if p in bots else game.player_name(p) for p in range(game.num_players)
    )
    player_clock = None if request.clock is None else ClockSettings.parse(request.clock)
    pace = rules.pace(game) if request.pace is None else request.pace
    if not 0 <= pace <= 60:
        raise ConfigurationError(f"--pace is 0 to 60 seconds, not {pace:g}")
    # bots sit down once the session listens, so that it hears their first moves
    table = Table(game, [Seat.empty(name) if p in bots else Seat.human(name)
                         for p, name in enumerate(match.players)],
                  match=match, clock=request.time, player_clock=player_clock,
                  seed=pause_seed, inline_bots=request.inline_bots)
    session = Session(table=table, presenter=presenter_for(game), console=console,
                      rules=rules, people=people, seed=bot_seed,
                      replay_seed=None if request.load else request.seed,
                      save_path=request.save, referee=match)
    session.listen()
    for p, bot in bots.items():
        bot.observe(table.view(p))
        table.set_seat(p, Seat.of_bot(bot, pace))
    return session
