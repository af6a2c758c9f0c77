"""Matches between bots, round-robin tournaments, ratings and their intervals."""

from fourfold.analysis.match import GameResult, MatchResult, play_game, play_match
from fourfold.analysis.rating import Ratings, fit_ratings
from fourfold.analysis.stats import score_interval
from fourfold.analysis.tournament import TournamentResult, play_tournament

__all__ = [
    "GameResult",
    "MatchResult",
    "Ratings",
    "TournamentResult",
    "fit_ratings",
    "play_game",
    "play_match",
    "play_tournament",
    "score_interval",
]
