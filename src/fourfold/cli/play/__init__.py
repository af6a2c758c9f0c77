"""The interactive player behind ``fourfold play``.

``setup`` turns the command line (or the menu) into a ``Session``; the
session runs either the game's own runner (``Presenter.session``) or the
generic turn loop in ``loop``. Commands typed at the prompt live in
``builtins``; games add theirs through ``Presenter.extra_commands``.
"""
