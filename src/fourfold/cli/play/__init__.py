"""The interactive player behind ``fourfold play``, running on ``fourfold.table.Table``.

``setup`` turns the command line (or ``menu``) into a ``Session`` (``session``): a
table with the person's seat(s) and the bots, a ``Console`` (``console``: lines read on
a thread, the prompt printed again after asynchronous output) and the record file.
The session runs the game's own runner, if the ``terminal`` part of its extension
bundle has one (``rules``: ``PlayRules``, the protocol a game's terminal part follows),
or the generic turn loop (``loop``). Commands typed at the prompt are in ``builtins``
(and ``hint``); games add theirs in their terminal part (``games/<game>/terminal.py``).
``context`` holds the interfaces commands and runners see.
"""
