"""Quatrefoil's facts for the designer's report: its ``report`` part
(``fourfold.analysis.report.facts``): the fewest actions for each deal with full
information (``fourfold.games.quatrefoil.solver``) and the exact optimum acting on public
information only (``fourfold.games.quatrefoil.solver_public``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fourfold.analysis.report.facts import ReportFacts
from fourfold.core.game import Game


def deal_optimum(game: Game[Any, Any], state: Any) -> int:
    from fourfold.games.quatrefoil.solver import optimum

    return optimum(state.start, state.deal.solution)


def optimum_facts(game: Game[Any, Any]) -> list[dict[str, Any]]:
    from fourfold.games.quatrefoil.solver_public import public_optimum

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
        "source": f"fourfold.games.quatrefoil.solver_public.public_optimum({face_up!r}), computed "
                  f"now in {result.seconds:.1f} s (exact dynamic programming over beliefs)",
    }]


REPORT = ReportFacts(
    optimum=deal_optimum,
    optimum_source="fourfold.games.quatrefoil.solver's shortest paths, stack included",
    optimum_facts=optimum_facts,
)
