"""The board codecs of every game, registered with ``fourfold.wire.views`` on import.

One module per family of observation types: placement (Folio grids, Quarto),
freeform (Folio freeform), sliding (Ice Dao, Dao) and quatrefoil.
"""

from fourfold.wire.boards import freeform, placement, quatrefoil, sliding

__all__ = ["freeform", "placement", "quatrefoil", "sliding"]
