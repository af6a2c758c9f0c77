"""Quatrefoil's review in the terminal (``fourfold review``): one row per action, what
it cost, then the costliest action and the shortest solutions (``review.py``)."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

LABEL_STYLE = {"best": "green", "costly": "yellow", "lost": "bold red"}


def left(moment: dict[str, Any], key: str) -> str:
    value = moment[key]
    if value is None:
        return "lost"
    return f"{value:.2f}" if key == "public" else str(value)


def change(before: dict[str, Any], after: dict[str, Any], key: str) -> str:
    return f"{left(before, key)} -> {left(after, key)}"


def table(body: dict[str, Any]) -> Table:
    grid = Table(title=f"Review of quatrefoil ({body['variant']}): {body['result']},"
                       f" {body['termination']}", title_justify="left")
    for name in ("#", "seat", "action", "left, public", "left, known", "deals",
                 "solutions", "label", "best on public information"):
        grid.add_column(name, justify="right" if name == "#" else "left")
    for p in body["plies"]:
        before, after = p["before"], p["after"]
        grid.add_row(
            str(p["ply"]), p["player"], p["move"], change(before, after, "public"),
            change(before, after, "known"), f"{before['deals']} -> {after['deals']}",
            f"{before['solutions']} -> {after['solutions']}",
            Text(p["says"], style=LABEL_STYLE[p["label"]]),
            "" if p["label"] == "best" else ", ".join(p["best"]))
    return grid


def summary(body: dict[str, Any]) -> list[str]:
    fewest = body["fewest"]
    out = [
        f"The deal: solution {body['solution']}, cards {' '.join(body['cards'])}"
        f" (seat order), start {body['start']}.",
        f"The team took {body['actions']} actions. Fewest from the start: {fewest['known']}"
        f" with the deal known; {fewest['public']:.2f} on average on public information"
        f" ({fewest['deals']} deals, {fewest['solutions']} solutions consistent with it).",
    ]
    worst = body["costliest"]
    if worst is None:
        out.append("Every action was a best one on public information.")
    else:
        p = body["plies"][worst - 1]
        out.append(f"Costliest: action {p['ply']}, {p['player']} played {p['move']}:"
                   f" {p['says']}; best on public information: {', '.join(p['best'])}.")
        out.append(f"  The shortest solution from before it, the deal known:"
                   f" {' '.join(p['line'])}")
        out.append(f"  The best public play from there on this deal:"
                   f" {' '.join(p['public_line'])}")
    if body["plies"]:
        out.append(f"The shortest solution from the start: {' '.join(body['plies'][0]['line'])}")
    if body["end_line"]:
        out.append(f"The shortest solution from where the game ended:"
                   f" {' '.join(body['end_line'])}")
    out.append("left: the fewest actions still needed, the stack included (public: the best"
               " public policy's average over the deals consistent with the record; known:"
               " the deal known). cost: expected actions added over the best action.")
    return out


def show(body: dict[str, Any], console: Any) -> None:
    console.print(table(body))
    for line in summary(body):
        console.print(line)
