"""The README's promises a new user acts on: every bot ``--vs`` takes is named there,
and each game's list in it matches ``fourfold bots GAME``."""

from __future__ import annotations

import re
from pathlib import Path

from fourfold.ai import bot_names, bots_for
from fourfold.core.registry import load

README = Path(__file__).resolve().parent.parent / "README.md"


def _paragraph(start: str) -> str:
    text = README.read_text(encoding="utf-8")
    at = text.index(start)
    return text[at:text.index("\n\n", at)]


def _named(text: str) -> set[str]:
    names = set(re.findall(r"`([a-z0-9]+)`", text))
    if re.search(r"`level1` to `level5`|levels 1 to 5", text):
        names |= {f"level{n}" for n in range(1, 6)}
    return names


def test_every_bot_is_named_in_the_readme() -> None:
    listed = _named(_paragraph("Bots (`--vs`)").split("`fourfold bots GAME`")[0])
    assert set(bot_names()) <= listed, sorted(set(bot_names()) - listed)


def test_the_readmes_quatrefoil_bots_are_the_ones_that_play_it() -> None:
    paragraph = _paragraph("Bots (`--vs`)")
    quatrefoil = paragraph[paragraph.index("(Quatrefoil:"):]
    game = load("quatrefoil")
    assert _named(quatrefoil) == set(bots_for(game))
