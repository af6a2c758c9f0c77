"""Folio freeform at the terminal: the ``assist`` switch of the presenter's drawing (the
variant's ``terminal`` part, ``fourfold.cli.play.rules``)."""

from __future__ import annotations

from fourfold.cli.play.context import Command, PlayContext
from fourfold.cli.play.rules import PlayRules
from fourfold.games.folio.freeform.text import FreeformPresenter


def assist(ctx: PlayContext, argument: str) -> bool:
    """``assist on|off``: whether the drawing says if a grid still fits, and draws it."""
    presenter = ctx.presenter
    if not isinstance(presenter, FreeformPresenter):
        ctx.say("There is no grid assist in this game.")
        return False
    word = argument.strip().lower()
    if word in ("", "toggle"):
        presenter.assist = not presenter.assist
    elif word in ("on", "off"):
        presenter.assist = word == "on"
    else:
        ctx.say("Write 'assist on' or 'assist off'.")
        return False
    ctx.say(f"Assist {'on' if presenter.assist else 'off'}.")
    return True


ASSIST = Command("assist", "assist on|off: say whether a grid still fits and draw it", assist)

#: the ``terminal`` part of Folio freeform
RULES = PlayRules(commands=(ASSIST,))
