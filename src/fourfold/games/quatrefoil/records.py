"""Records written for one seat: the moves and what that seat saw, without hidden cards.

A referee's record (``Match.to_record``) holds the full deal in its Setup tag and
replays. A seat's record is for that player's own log: its Setup is the public start
(no cards), a ``Seat`` tag names the seat and a ``Cards`` tag shows the cards that
seat could see, ``?`` for the rest. It cannot be replayed, by design: reading its
Setup says that the cards are missing.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.match import Match
from fourfold.core.record import RESULTS_IN_PROGRESS, Record
from fourfold.games.quatrefoil.game import QuatrefoilGame
from fourfold.games.quatrefoil.state import Observation


def seat_record(match: Match[Any, Any], seat: int) -> Record:
    """The record of ``match`` as ``seat`` may keep it."""
    game = match.game
    if not isinstance(game, QuatrefoilGame):
        raise FourfoldError("seat records are written for Quatrefoil matches only")
    obs = game.view(match.state, seat).observation
    assert isinstance(obs, Observation)
    outcome = match.outcome
    return Record(
        game=game.info.name,
        variant=game.info.variant,
        options=game.info.option_strings(),
        players=match.players,
        date=match.date,
        result=outcome.score(game.num_players) if outcome else RESULTS_IN_PROGRESS,
        termination=outcome.reason if outcome else "",
        setup=game.public_position(match.start),
        moves=tuple(match.notation),
        extra_tags={"Seat": game.player_name(seat), "Cards": game.format_observation(obs)},
    )
