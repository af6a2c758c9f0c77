"""Fourfold: play, study and solve Folio, Ice Dao and Quatrefoil (and Quarto and Dao).

    >>> import fourfold
    >>> game = fourfold.load("folio", variant="fixed-grid")
    >>> state = game.play(game.initial_state(), "Gs")
    >>> game.format_move(state, game.legal_moves(state)[0])
    'a1 Rs'
"""

from fourfold.core.match import Match
from fourfold.core.registry import game_names, get_spec, load, register
from fourfold.render import svg as _svg  # noqa: F401 - positions and matches draw themselves

__version__ = "0.1.0"
__all__ = ["Match", "__version__", "game_names", "get_spec", "load", "register"]
