"""From the command line (or the menu) to a ready ``Session``: game, seats, bots, records."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fourfold.ai import Bot, make_bot
from fourfold.cli.play.errors import PlayError
from fourfold.cli.play.session import Session
from fourfold.cli.play.terminal import Terminal
from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.core.record import parse_record
from fourfold.core.registry import get_spec, load
from fourfold.render import presenter_for

HUMAN = "human"
FIRST_CHOICES = ("me", "them")


@dataclass(frozen=True)
class PlayRequest:
    """What the user asked for. ``vs`` is ``human`` or a bot name from ``fourfold.ai``;
    ``first`` says whether the person at the terminal is Player 1 (``me``) or
    Player 2 (``them``)."""

    game: str
    variant: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    vs: str = "random"
    seed: int | None = None
    first: str = "me"
    load: Path | None = None
    save: Path | None = None


def read_match(path: Path) -> Match[Any, Any]:
    """Replay a record file; a fault names the file (or the record's line and ply)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PlayError(f"cannot read the record {path}", exc.strerror or str(exc)) from None
    except UnicodeDecodeError as exc:
        raise PlayError(f"cannot read the record {path}", f"not UTF-8 text ({exc.reason})"
                        ) from None
    return Match.from_record(parse_record(text))


def check_save_path(path: Path) -> None:
    """Refuse at the start a record path that could never be written."""
    if path.is_dir():
        raise PlayError(f"cannot save the record to {path}", "it is a directory")
    if not path.parent.is_dir():
        raise PlayError(f"cannot save the record to {path}",
                        f"the folder {path.parent} does not exist")


def make_bots(game: Game[Any, Any], request: PlayRequest) -> dict[int, Bot]:
    """Bots in every seat but the person's, unless playing against another person."""
    if request.first not in FIRST_CHOICES:
        raise ConfigurationError(f"--first must be me or them, not {request.first!r}")
    if request.vs.strip().lower() == HUMAN:
        return {}
    me = 0 if request.first == "me" else 1
    seed = request.seed
    return {
        p: make_bot(request.vs, game, p, None if seed is None else seed + p)
        for p in range(game.num_players)
        if p != me
    }


def start_match(request: PlayRequest) -> Match[Any, Any]:
    """A fresh match, or the one replayed from ``--load``."""
    if request.load is None:
        game = load(request.game, request.variant, **request.options)
        return Match(game, game.initial_state(request.seed))
    match = read_match(request.load)
    if request.variant is not None or request.options:
        raise ConfigurationError(
            "--variant and --option cannot be used with --load: the record names them"
        )
    if request.game and get_spec(request.game).name != match.game.name:
        raise ConfigurationError(
            f"the record {request.load} is a game of {match.game.name}, not {request.game}"
        )
    return match


def build_session(request: PlayRequest, terminal: Terminal) -> Session:
    if request.save is not None:
        check_save_path(request.save)
    if request.seed is None and request.load is None:
        # a fresh seed each time, kept in the session so that a deal (Quatrefoil) and
        # the bots' choices can be replayed with --seed
        request = replace(request, seed=random.SystemRandom().randrange(1, 2**31))
    match = start_match(request)
    game = match.game
    bots = make_bots(game, request)
    match.players = tuple(
        bots[p].name if p in bots else game.player_name(p) for p in range(game.num_players)
    )
    session = Session(
        match=match,
        presenter=presenter_for(game),
        terminal=terminal,
        bots=bots,
        seed=request.seed,
        save_path=request.save,
    )
    session.tell_bots()
    return session
