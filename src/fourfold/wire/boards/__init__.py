"""The board codecs of every game, registered with ``fourfold.wire.views`` on import.

One module per family of observation types: placement (Folio grids, Quarto),
freeform (Folio freeform), sliding (Ice Dao, Dao) and quatrefoil.
"""

from fourfold.games.folio.freeform import wire as freeform
from fourfold.games.placement import wire as placement
from fourfold.games.quatrefoil import wire as quatrefoil
from fourfold.games.sliding import wire as sliding

__all__ = ["freeform", "placement", "quatrefoil", "sliding"]
