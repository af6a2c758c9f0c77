"""The designer's report (``fourfold analyze``): balance, decisiveness, duration,
branching, drama and lead changes measured with the bots; solved facts; complexity;
the skill ladder; options side by side. See docs/analyze.md.

- ``games``: seeded jobs and traces, played on every core, resumable from a cache;
- ``metrics``: Ludii's measures of the traced games; ``intervals``: their 95% intervals;
- ``complexity``: state-space counts and game-tree estimates;
- ``facts``: what a game's ``report`` part gives (state counts, board sites, optima);
- ``solved``: what the solvers (or docs/solutions.md, quoted) know;
- ``analyze``: the plan and the findings; ``html``: the page.
"""

from fourfold.analysis.report.analyze import Settings, analyze, parse_levels, to_json
from fourfold.analysis.report.games import Config
from fourfold.analysis.report.html import render

__all__ = ["Config", "Settings", "analyze", "parse_levels", "render", "to_json"]
