"""What the solvers know: the value from the start and the value of every opening move.

Two sources, never mixed up:

- *the solver, run now*: ``fourfold.solve.position.solver_for(game)`` on the start,
  with a time limit; whatever it proves is reported with its nodes and seconds, and
  nothing is reported when it cannot finish in time;
- *docs/solutions.md*: when the solver cannot answer in time, the row of that file's
  summary table for this ruleset is quoted as it stands, with its provenance (the
  file says every figure in it was measured by the code in ``src/fourfold/solve/``).

Cooperative games register their optima here (``COOPERATIVE_FACTS`` and
``games.OPTIMA``, by game name): Quatrefoil's fewest actions for each deal with
full information (``fourfold.solve.quatrefoil``) and the exact optimum acting on
public information only (``fourfold.solve.quatrefoil_public``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from fourfold.analysis.report.games import OPTIMA
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
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not line.startswith("|"):
            continue
        label = cells[0]
        if label == title or (label.startswith(title + " ") and _fits(label[len(title):],
                                                                     words)):
            return {"ruleset": label, "value": cells[1], "section": cells[2].strip("*_ "),
                    "file": "docs/solutions.md"}
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

def _quatrefoil_optimum(game: Game[Any, Any], state: Any) -> int:
    from fourfold.solve.quatrefoil import optimum

    return optimum(state.start, state.deal.solution)


def _quatrefoil_facts(game: Game[Any, Any]) -> list[dict[str, Any]]:
    from fourfold.solve.quatrefoil_public import public_optimum

    face_up = {"base": "none", "race-the-clock": "none", "nothing-to-hide": "all"}.get(
        game.info.variant, str(game.info.options.get("face-up", "none")))
    if game.info.variant == "dual":
        return []
    result = public_optimum(face_up)
    value: Fraction = result.value
    return [{
        "fact": "fewest expected actions acting on public information only",
        "value": f"{value.numerator}/{value.denominator} = {float(value):.4f}",
        "float": float(value),
        "source": f"fourfold.solve.quatrefoil_public.public_optimum({face_up!r}), computed "
                  f"now in {result.seconds:.1f} s (exact dynamic programming over beliefs)",
    }]


OPTIMA["quatrefoil"] = _quatrefoil_optimum

#: facts from the solvers of cooperative games, by game name
COOPERATIVE_FACTS: dict[str, Callable[[Game[Any, Any]], list[dict[str, Any]]]] = {
    "quatrefoil": _quatrefoil_facts,
}


def cooperative_facts(game: Game[Any, Any]) -> list[dict[str, Any]]:
    fn = COOPERATIVE_FACTS.get(game.name)
    return fn(game) if fn is not None else []
