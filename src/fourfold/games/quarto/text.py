"""Quarto's pieces on a terminal: light pieces in cyan, dark ones in magenta (the
letters ``TDRH``... always say everything). The board is the placement games'."""

from __future__ import annotations

from fourfold.games.placement.text import PlacementPresenter
from fourfold.games.quarto.pieces import ATTRIBUTES

QUARTO_STYLES = ("bold cyan", "bold magenta")  # light, dark
DARK_BIT = ATTRIBUTES.index(("D", "L"))


def quarto_style(kind: int) -> str:
    """The terminal colour of a Quarto piece: dark or light."""
    return QUARTO_STYLES[kind >> DARK_BIT & 1]


#: the ``presenter`` part of Quarto's extension bundle
PRESENTER = PlacementPresenter(quarto_style)
