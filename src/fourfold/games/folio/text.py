"""Folio's pieces on a terminal: each pyramid in its own colour (red, yellow, green,
blue; the letters ``R Y G B`` always say it too). The grid variants use the placement
games' presenter with these colours; freeform has its own (``freeform/text.py``)."""

from __future__ import annotations

from fourfold.games.folio.pieces import colour
from fourfold.games.placement.text import PlacementPresenter

FOLIO_STYLES = ("bold red", "bold yellow", "bold green", "bold blue")


def folio_style(kind: int) -> str:
    """The terminal colour of a Folio piece: its own."""
    return FOLIO_STYLES[colour(kind)]


#: the ``presenter`` part of Folio's extension bundle (the grid variants)
PRESENTER = PlacementPresenter(folio_style)
