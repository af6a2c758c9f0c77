"""The game protocol, metadata, outcomes, errors, records and match history."""

from fourfold.core.errors import (
    ConfigurationError,
    FourfoldError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    RecordError,
)
from fourfold.core.game import Game, PerfectInformation, View
from fourfold.core.outcome import Outcome, Result
from fourfold.core.spec import GameInfo, GameSpec, OptionSpec, Utility, VariantSpec

__all__ = [
    "ConfigurationError",
    "FourfoldError",
    "Game",
    "GameInfo",
    "GameOverError",
    "GameSpec",
    "IllegalMoveError",
    "NotationError",
    "OptionSpec",
    "Outcome",
    "PerfectInformation",
    "RecordError",
    "Result",
    "Utility",
    "VariantSpec",
    "View",
]
