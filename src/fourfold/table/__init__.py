"""The table: a UI-free referee for one game in progress.

One ``Table`` serves the terminal player, the server and the environments. It holds
the seats, the match, the clocks and the bots; it accepts or refuses actions from
seats; and it tells each recipient (a seat or a spectator) only what that recipient's
view allows. It does no input/output, networking or storage of its own.
"""

from fourfold.table.clocks import ClockSettings, ManualClock, MonotonicClock, TimeSource
from fourfold.table.events import Event, EventKind
from fourfold.table.seats import Seat, SeatKind
from fourfold.table.snapshot import History, Ply, Snapshot
from fourfold.table.table import ClockState, SaveError, Table, TableError

__all__ = [
    "ClockSettings",
    "ClockState",
    "Event",
    "EventKind",
    "History",
    "ManualClock",
    "MonotonicClock",
    "Ply",
    "SaveError",
    "Seat",
    "SeatKind",
    "Snapshot",
    "Table",
    "TableError",
    "TimeSource",
]
