"""Turning styled text into a plain or an ANSI-coloured string, without printing.

Renderers build ``rich.text.Text`` (text plus styles); ``to_string`` returns
either the plain characters or the same characters with colour codes. The
layout is identical either way: colour only ever adds emphasis to what the
letters and marks already say.
"""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text


def to_string(text: Text, colour: bool) -> str:
    """``text`` as a string: plain, or with ANSI colour codes when ``colour`` is true."""
    if not colour:
        return text.plain
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        force_terminal=True,
        color_system="standard",
        width=10_000,
        no_color=False,
        highlight=False,
        markup=False,
        emoji=False,
        legacy_windows=False,
    )
    console.print(text, end="", soft_wrap=True)
    return buffer.getvalue()


def join_lines(lines: list[Text]) -> Text:
    """One ``Text`` of several lines."""
    return Text("\n").join(lines)
