"""A review in the terminal: a table of the plies (values, labels, best moves) and the
value chart, coloured with rich (win green, draw yellow, loss red, as GamesmanUni)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from fourfold.analysis.review.chart import lines, rows
from fourfold.analysis.review.judgement import Judgement
from fourfold.analysis.review.review import Review

VALUE_STYLE = {"win": "green", "draw": "yellow", "loss": "red", "unknown": "dim"}
LABEL_STYLE = {"best": "green", "good": "cyan", "inaccuracy": "yellow",
               "mistake": "dark_orange", "blunder": "bold red"}
PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
#: best moves shown per ply
BEST_SHOWN = 3


def describe(judged: Judgement) -> str:
    """``win in 5``, ``draw``, ``loss in 2``, ``unknown``; an estimate ``~win (72%)``."""
    if judged.score is not None:
        return f"~{judged.value} ({judged.score:.0%})"
    if judged.value in ("win", "loss") and judged.distance is not None:
        return f"{judged.value} in {judged.distance}"
    return judged.value


def table(review: Review) -> Table:
    grid = Table(title=f"Review of {review.game} ({review.variant}), result"
                       f" {review.result or 'unfinished'}", title_justify="left")
    for name in ("ply", "player", "move", "before", "after", "label", "best"):
        grid.add_column(name, justify="right" if name == "ply" else "left",
                        no_wrap=name in ("before", "after", "label"))  # "(est.)" stays put
    for p in review.plies:
        # one move a line: a narrow terminal wraps between moves, never inside one
        best = "\n".join(p.best[:BEST_SHOWN]) + ("\n..." if len(p.best) > BEST_SHOWN else "")
        grid.add_row(
            str(p.ply), review.players[p.player], p.move,
            Text(describe(p.before), style=VALUE_STYLE[p.before.value]),
            Text(describe(p.after), style=VALUE_STYLE[p.after.value]),
            Text("-" if p.label is None
                 else p.label + (" (est.)" if p.estimated else ""),
                 style=LABEL_STYLE.get(p.label or "", "dim")),
            "" if p.label in ("best", "good") else best)
    return grid


def summary(review: Review) -> list[str]:
    """One line per player: how many of each label; then the first decisive mistake."""
    out = []
    for player, name in enumerate(review.players):
        counts: dict[str, int] = {}
        for p in review.plies:
            if p.player == player and p.label not in (None, "best", "good"):
                counts[p.label] = counts.get(p.label, 0) + 1
        listed = ", ".join(f"{n} {PLURAL[label] if n > 1 else label}"
                           for label, n in counts.items())
        out.append(f"{name}: {listed or 'no inaccuracy, mistake or blunder'}")
    worst = next((p for p in review.plies if p.label in ("blunder", "mistake")), None)
    if worst is not None:
        estimated = " (est.)" if worst.estimated else ""
        out.append(f"First {worst.label}{estimated}: ply {worst.ply},"
                   f" {review.players[worst.player]} played {worst.move}"
                   f" ({describe(worst.before)} -> {describe(worst.after)});"
                   f" best: {', '.join(worst.best[:BEST_SHOWN])}")
    if any(p.estimated and p.label is not None for p in review.plies):
        out.append("(est.): no exact value within the time per position; a bounded search's"
                   " estimate, not exact")
    if any(p.label is None for p in review.plies):
        out.append("-: no value known (no solver answers, and the bots' search is too slow"
                   " for this game to estimate)")
    return out


def show(review: Review, match: Any, console: Console | None = None) -> None:
    console = console or Console(highlight=False)
    console.print(table(review))
    for line in summary(review):
        console.print(line)
    console.print()
    console.print(f"Value chart (from {review.players[0]}'s side; ● exact, ○ estimate):")
    chart = lines(review)
    console.print(chart[0])
    for text, r in zip(chart[1:], rows(review), strict=True):
        console.print(Text(text, style=VALUE_STYLE[r.value]))
