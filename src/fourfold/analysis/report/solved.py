"""What the solvers know: the value from the start and the value of every opening move.

Two sources, never mixed up:

- *the solver, run now*: ``fourfold.solve.position.solver_for(game)`` on the start,
  with a time limit; whatever it proves is reported with its nodes and seconds, and
  nothing is reported when it cannot finish in time;
- *docs/solutions.md*: when the solver cannot answer in time, the row of that file's
  summary table for this ruleset is quoted as it stands, with its provenance (the
  file says every figure in it was measured by the code in ``src/fourfold/solve/``).

A cooperative game's optima come from its ``report`` part
(``ReportFacts.optimum_facts``, ``fourfold.analysis.report.facts``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fourfold.analysis.report.facts import facts_of
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.solve.position import solver_for

SOLUTIONS_MD = Path(__file__).resolve().parents[4] / "docs" / "solutions.md"


def solver_facts(game: Game[Any, Any], seconds: float) -> dict[str, Any]:
    """The solver's answer for the start within ``seconds`` (``answered`` False if none)."""
    entry = solver_for(game)
    if entry is None:
        return {"solver": None, "answered": False, "seconds_limit": seconds}
    if seconds <= 0:
        return {"solver": entry.summary, "exact": entry.exact, "answered": False,
                "seconds_limit": seconds, "skipped": True}
    state = game.initial_state()
    try:
        solution = entry.solve(game, state, seconds)
    except FourfoldError as exc:
        return {"solver": entry.summary, "exact": entry.exact, "answered": False,
                "seconds_limit": seconds, "error": str(exc)}
    facts: dict[str, Any] = {"solver": entry.summary, "exact": entry.exact,
                             "seconds_limit": seconds, "answered": solution is not None}
    if solution is None:
        return facts
    mover = game.player_name(game.to_move(state) or 0)
    facts.update({
        "to_move": mover,
        "value": solution.value.value,
        "distance": solution.distance,
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 2),
        "moves": [{"move": game.format_move(state, m.move), "value": m.value.value,
                   "distance": m.distance} for m in solution.moves],
        # a bounded solver's answer read from stored proofs says so (no search run now)
        "source": solution.source,
        "detail": solution.detail,
    })
    return facts


def docs_row(game: Game[Any, Any], path: Path = SOLUTIONS_MD) -> dict[str, str] | None:
    """The summary-table row of docs/solutions.md for this ruleset, quoted as it stands."""
    if not path.exists():
        return None
    info = game.info
    title = info.spec.title
    words = {info.variant, *info.option_strings().values()}
    for line in path.read_text().splitlines():
        # | game | value | what proved it (*section*) | how long | reproduce |
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not line.startswith("|"):
            continue
        label = cells[0]
        if label == title or (label.startswith(title + " ") and _fits(label[len(title):],
                                                                     words)):
            section = re.search(r"\(\*([^*]+)\*\)", cells[2])
            return {"ruleset": label, "value": cells[1],
                    "section": section.group(1) if section else title,
                    "proof": re.sub(r"\s*\(\*[^*]+\*\)", "", cells[2]),
                    "time": cells[3], "file": "docs/solutions.md"}
    return None


def _fits(rest: str, words: set[str]) -> bool:
    """Each comma-separated part names the variant or an option value (``a and b``: one
    of them)."""
    for part in rest.split(","):
        options = [w.strip() for w in re.split(r"\band\b", part) if w.strip()]
        if options and not any(o in words for o in options):
            return False
    return True


# -- cooperative games ------------------------------------------------------------------------

def cooperative_facts(game: Game[Any, Any]) -> list[dict[str, Any]]:
    """The optima the game's own solvers give (its ``report`` part), if any."""
    facts = facts_of(game).optimum_facts
    return facts(game) if facts is not None else []
