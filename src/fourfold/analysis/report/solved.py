"""What the solvers know: the value from the start and the value of every opening move.

Two sources, never mixed up:

- *the solver, run now*: ``fourfold.solve.position.solver_for(game)`` on the start,
  with a time limit; whatever it proves is reported with its nodes and seconds, and
  nothing is reported when it cannot finish in time;
- *docs/solutions.md*: when the solver cannot answer in time, the row of that file's
  summary table for this ruleset is quoted as it stands (its Markdown marks aside),
  with its provenance (the file says every figure in it was measured by the code in
  ``src/fourfold/solve/``).

A row names its game by the game's title, after words that only describe it ("Classic
Dao" is Dao) and before the variant and option values it holds for ("Folio standard,
same-colour-or-size"); a row that names a longer title holding this one ("Ice Dao") is
that other game's.

A cooperative game's optima come from its ``report`` part
(``ReportFacts.optimum_facts``, ``fourfold.analysis.report.facts``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fourfold.analysis.report.facts import facts_of
from fourfold.core import registry
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
        # a bounded solver's proven bound where a move's value or distance is not exact
        "moves": [{"move": game.format_move(state, m.move), "value": m.value.value,
                   "distance": m.distance, "detail": m.detail} for m in solution.moves],
        # a bounded solver's answer read from stored proofs says so (no search run now)
        "source": solution.source,
        "detail": solution.detail,
    })
    return facts


def docs_row(game: Game[Any, Any], path: Path = SOLUTIONS_MD) -> dict[str, str] | None:
    """The summary-table row of docs/solutions.md for this ruleset, quoted as it stands
    (bold and code marks aside), or ``None`` when the table has none."""
    if not path.exists():
        return None
    info = game.info
    title = info.spec.title
    words = {info.variant, *info.option_strings().values()}
    others = _elsewhere(info.spec)
    titles = [t for t in (registry.get_spec(n).title for n in registry.game_names())
              if t != title]
    for line in path.read_text().splitlines():
        # | game | value | what proved it (*section*) | how long | reproduce |
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not line.startswith("|"):
            continue
        label = cells[0]
        if _names(label, title, titles, words, others):
            section = re.search(r"\(\*([^*]+)\*\)", cells[2])
            return {"ruleset": label, "value": _plain(cells[1]),
                    "section": section.group(1) if section else title,
                    "proof": _plain(re.sub(r"\s*\(\*[^*]+\*\)", "", cells[2])),
                    "time": _plain(cells[3]), "file": "docs/solutions.md"}
    return None


def _names(label: str, title: str, titles: list[str], words: set[str],
           others: set[str]) -> bool:
    """Whether a row's label names this ruleset: ``[describing words] title[ rest]``,
    where no longer title of another game holds the title's place, no describing word
    names another variant or option value of the game, and each comma-separated part of
    the rest names this variant or one of its option values."""
    found = _word_search(title, label)
    if found is None:
        return False
    head, rest = label[:found.start()], label[found.end():]
    if any(_word_search(title, other) and _word_search(other, label) for other in titles):
        return False
    own = {w.lower() for w in words}
    if any(w.lower() in others and w.lower() not in own for w in head.split()):
        return False
    return _fits(rest, words)


def _word_search(words: str, text: str) -> re.Match[str] | None:
    """Where ``words`` stand in ``text`` as whole words (a comma may follow them)."""
    return re.search(rf"(?:^|(?<= )){re.escape(words)}(?=$|[ ,])", text)


def _elsewhere(spec: Any) -> set[str]:
    """Every variant name and option value of the game, in lower case."""
    names = {v.name for v in spec.variants}
    for options in (spec.options, *(v.options for v in spec.variants)):
        names.update(c for o in options for c in o.choices)
    return {n.lower() for n in names}


def _plain(text: str) -> str:
    """A table cell without its Markdown bold and code marks."""
    return re.sub(r"\*\*([^*]+)\*\*|`([^`]+)`", lambda m: m.group(1) or m.group(2), text)


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


# -- the report's words -----------------------------------------------------------------------

def solved_text(r: dict[str, Any]) -> str:
    """The "Solved facts" paragraph: what the solver proves (and from where), or, when it
    has no answer, the row of docs/solutions.md it quotes."""
    s = r["solver"]
    if s.get("answered"):
        return _answer_text(s)
    if s.get("solver") is None:
        text = "No solver is registered for this ruleset."
    elif s.get("skipped"):
        text = f"The solver was not run (--solve-seconds 0). Solver: {s['solver']}."
    else:
        text = (f"The solver found no answer for the start within {s['seconds_limit']:g} s. "
                f"Solver: {s['solver']}.")
    row = r.get("docs_row")
    if row:
        text += (f" docs/solutions.md (figures measured by the code in src/fourfold/solve/, "
                 f"section '{row['section']}') says for {row['ruleset']}: \"{row['value']}\".")
    return text


def _answer_text(s: dict[str, Any]) -> str:
    value, mover, plies = s["value"], s["to_move"], s["distance"]
    source = s.get("source")
    detail = s.get("detail")
    if detail and source:  # the source is named once, below
        detail = detail.removesuffix(f" ({source})")
    if value == "draw":
        text = "The start is a draw with perfect play"
    else:
        text = f"The start is a {value} for {mover}, the side to move"
        if not detail and plies is not None:
            text += f", in {plies} plies with perfect play"
    text += f": {detail}." if detail else "."
    how = (f"{s['nodes']:,} nodes, {s['seconds']} s" if s["nodes"]
           else "read at once, no search" if source else f"{s['seconds']} s")
    text += f" Source: {source or 'the solver, run now'} ({how})."
    groups: dict[str, list[str]] = {}
    for m in s["moves"]:
        groups.setdefault(move_value_text(m), []).append(m["move"])
    listed = "; ".join(f"{_some(moves)}: {what}" for what, moves in groups.items())
    if s["moves"]:
        text += (f" Opening moves ({len(s['moves'])}, best first; plies counted from the "
                 f"start): {listed}.")
    return text + f" Solver: {s['solver']}."


def move_value_text(m: dict[str, Any]) -> str:
    """A move's value for its mover as ``fourfold solve`` writes it: ``win in 11 plies``,
    ``draw``, or ``not proven``, with the bound proven where it is not exact."""
    value, plies = m["value"], m["distance"]
    if value == "unknown":
        text = "not proven"
    elif value == "draw" or plies is None:
        text = value
    else:
        text = f"{value} in {plies} pl{'y' if plies == 1 else 'ies'}"
    return text + (f" ({m['detail']})" if m.get("detail") else "")


def _some(moves: list[str], shown: int = 3) -> str:
    """``a, b and c``, or the first few and how many more."""
    if len(moves) <= shown + 1:
        return moves[0] if len(moves) == 1 else f"{', '.join(moves[:-1])} and {moves[-1]}"
    return f"{', '.join(moves[:shown])} and {len(moves) - shown} other moves"
