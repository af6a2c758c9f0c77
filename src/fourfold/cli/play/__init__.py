"""The interactive player behind ``fourfold play``, running on ``fourfold.table.Table``.

``setup`` turns the command line (or ``menu``) into a ``Session`` (``session``): a
table with the person's seat(s) and the bots, a ``Console`` (``console``: lines read on
a thread, the prompt printed again after asynchronous output) and the record file.
The session runs the game's runner from ``registry`` (Quatrefoil: ``realtime``) or the
generic turn loop (``loop``). Commands typed at the prompt are in ``builtins`` (and
``hint``); games add theirs through the registry (``sliding``: draw and resign;
``freeform``: assist). ``context`` holds the interfaces commands and runners see.
"""
