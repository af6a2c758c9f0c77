"""The designer's report: plan the games, play them, measure, and write the findings.

``analyze(configs, settings)`` returns one ``dict`` per configuration (JSON-ready
once ``to_json`` has turned its estimates into numbers). For two-player zero-sum
games it plays, for every bot in ``settings.levels`` (weakest first):

- ``self:B``: B against itself, ``games`` games, every position evaluated: balance,
  decisiveness, duration, branching, drama and lead changes at that level;
- ``pair:S>W``: each bot against the one below it, sides alternating: how often the
  stronger bot wins, and the Elo ladder (``fourfold.analysis.rating``);
- ``random``: uniformly random games, for the game-tree estimates.

For cooperative games (``Utility.COOPERATIVE``), each bot takes every seat
(``team:B``): win rate, actions, and actions above the deal's optimum.
"""

from __future__ import annotations

import itertools
import math
import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fourfold.ai import bot_names, make_bot
from fourfold.analysis.match import DEFAULT_MAX_PLIES, MatchResult
from fourfold.analysis.report import complexity, metrics
from fourfold.analysis.report.games import Config, Job, Trace, run_jobs
from fourfold.analysis.report.intervals import Estimate
from fourfold.analysis.report.solved import cooperative_facts, docs_row, solver_facts
from fourfold.analysis.tournament import ratings_from_matches
from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.core.game import Game
from fourfold.core.spec import Utility

DEFAULT_LEVELS = ("level1", "level2", "level3", "level4", "level5")
DEFAULT_PLAYOUTS = 32


@dataclass
class Settings:
    games: int = 100
    levels: tuple[str, ...] | None = None  # None: the game's default ladder
    workers: int = 1
    seed: int = 0
    playouts: int = DEFAULT_PLAYOUTS
    max_plies: int = DEFAULT_MAX_PLIES
    solve_seconds: float = 10.0
    cache: Path | None = None
    scheduler: str | None = None  # a Dask scheduler's address: play the games there
    command: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def cooperative(game: Game[Any, Any]) -> bool:
    return game.info.spec.utility is Utility.COOPERATIVE


def playable(name: str, game: Game[Any, Any]) -> bool:
    """Whether bot ``name`` can take every seat of ``game``."""
    try:
        for seat in range(game.num_players):
            make_bot(name, game, seat, 0)
    except (FourfoldError, ValueError):
        return False
    return True


def parse_levels(text: str | None) -> tuple[str, ...] | None:
    """``1,3,5`` or ``level1,level3,greedy``: bot names, weakest first."""
    if text is None:
        return None
    names = []
    for item in text.split(","):
        name = item.strip().lower()
        if not name:
            continue
        if name.isdigit():
            name = f"level{name}"
        if name not in bot_names():
            raise ConfigurationError(f"--levels: unknown bot {item.strip()!r}; use level "
                                     f"numbers or bot names ({', '.join(bot_names())})")
        if name in names:
            raise ConfigurationError(f"--levels names {name} twice")
        names.append(name)
    if not names:
        raise ConfigurationError("--levels needs at least one bot")
    return tuple(names)


def levels_for(game: Game[Any, Any], settings: Settings) -> tuple[str, ...]:
    if settings.levels is not None:
        for name in settings.levels:
            if not playable(name, game):
                raise ConfigurationError(f"bot {name!r} cannot play {game.info.label()}")
        if not cooperative(game) and len(settings.levels) < 2:
            raise ConfigurationError("--levels needs at least two bots for a two-player game "
                                     "(the ladder compares them)")
        return settings.levels
    if cooperative(game):
        return tuple(n for n in bot_names() if not n.startswith("level") and playable(n, game))
    return tuple(n for n in DEFAULT_LEVELS if playable(n, game))


def group_seed(seed: int, group: str) -> int:
    return (seed * 1_000_003 + zlib.crc32(group.encode())) % (1 << 31)


def plan(config: Config, settings: Settings) -> list[Job]:
    game = config.load()
    levels = levels_for(game, settings)
    jobs: list[Job] = []

    def add(group: str, seats: Callable[[int], tuple[str, ...]], playouts: int) -> None:
        seed = group_seed(settings.seed, group)
        jobs.extend(Job(config, group, seats(i), seed, i, playouts, settings.max_plies)
                    for i in range(settings.games))

    if cooperative(game):
        for bot in levels:
            add(f"team:{bot}", lambda i, b=bot: (b,) * game.num_players, 0)  # type: ignore[misc]
        return jobs
    if game.num_players != 2:
        raise ConfigurationError("the report covers two-player zero-sum and cooperative games")
    for bot in levels:
        add(f"self:{bot}", lambda i, b=bot: (b, b), settings.playouts)  # type: ignore[misc]
    for weak, strong in itertools.pairwise(levels):
        add(f"pair:{strong}>{weak}",
            lambda i, s=strong, w=weak: (s, w) if i % 2 == 0 else (w, s), 0)  # type: ignore[misc]
    add("random", lambda i: ("random", "random"), 0)
    return jobs


def describe_bot(game: Game[Any, Any], name: str) -> str:
    if name.startswith("level") and name[5:].isdigit():
        from fourfold.ai.levels import level_for

        return level_for(game.name, int(name[5:]), game.info.variant).describe()
    bot = make_bot(name, game, 0, 0)
    doc = (type(bot).__doc__ or "").strip().splitlines()
    return doc[0] if doc else name


# -- measuring --------------------------------------------------------------------------------

def measure(config: Config, settings: Settings, traces: Sequence[Trace]) -> dict[str, Any]:
    """Every figure of one configuration from its traced games."""
    game = config.load()
    levels = levels_for(game, settings)
    by_group: dict[str, list[Trace]] = {}
    for t in traces:
        by_group.setdefault(t.group, []).append(t)
    report: dict[str, Any] = {
        "game": game.info.label(),
        "title": game.info.spec.title,
        "config": {"game": config.game, "variant": game.info.variant,
                   "options": game.info.option_strings()},
        "kind": "cooperative" if cooperative(game) else "zero-sum",
        "players": game.num_players,
        "levels": list(levels),
        "bots": {name: describe_bot(game, name) for name in levels},
        "games_per_group": settings.games,
        "seed": settings.seed,
        "playouts": settings.playouts,
        "margin": metrics.MARGIN,
        "max_plies": settings.max_plies,
    }
    if cooperative(game):
        report["teams"] = {}
        for bot in levels:
            group = by_group.get(f"team:{bot}", [])
            report["teams"][bot] = {**metrics.cooperative(group),
                                    "duration": metrics.duration(group),
                                    "branching": metrics.branching(group),
                                    "plies": [t.plies for t in group]}
        report["optimum_facts"] = cooperative_facts(game)
        all_games = [t for b in levels for t in by_group.get(f"team:{b}", [])]
    else:
        report["self_play"] = {}
        for n, bot in enumerate(levels):
            group = by_group.get(f"self:{bot}", [])
            report["self_play"][bot] = {
                "outcomes": metrics.outcomes(group, group_seed(settings.seed, bot) + n),
                "duration": metrics.duration(group),
                "branching": metrics.branching(group),
                "evaluation": metrics.evaluation(group),
                "plies": [t.plies for t in group],
                "curves": [t.evals for t in group[:6]],
                "winners": [t.winner for t in group[:6]],
            }
        matches = []
        report["pairs"] = []
        for weak, strong in itertools.pairwise(levels):
            group = by_group.get(f"pair:{strong}>{weak}", [])
            match = metrics.pair_match(group, strong, weak)
            matches.append((match, group))
            report["pairs"].append(metrics.pair_figures(match))
        report["ladder"] = ladder(levels, matches, settings.seed)
        all_games = [t for b in levels for t in by_group.get(f"self:{b}", [])]
        report["solver"] = solver_facts(game, settings.solve_seconds)
        report["docs_row"] = docs_row(game)
    randoms = by_group.get("random", [])
    best = by_group.get(f"self:{levels[-1]}", []) or by_group.get(f"team:{levels[-1]}", [])
    count = complexity.state_space(game)
    report["complexity"] = {
        "state_space": None if count is None else {
            "positions": count.positions, "log10": round(math.log10(count.positions), 2),
            "exact": count.exact, "method": count.method},
        "knuth_random": complexity.knuth(randoms, settings.seed) if randoms else None,
        "knuth_median": complexity.typical(randoms),
        "shannon_random": complexity.shannon(randoms),
        "shannon_best": complexity.shannon(best),
        "best": levels[-1],
        "random_games": len(randoms),
    }
    report["all_branching"] = metrics.branching(all_games or randoms)
    report["findings"] = findings(report)
    return report


def ladder(levels: Sequence[str], matches: Sequence[tuple[MatchResult, Sequence[Trace]]],
           seed: int) -> dict[str, Any]:
    """Elo ratings (Bradley-Terry, ``analysis.rating``) from the adjacent pairs; the span
    from the weakest to the strongest with a bootstrap interval (games resampled within
    each pair, ratings refitted)."""
    if not matches or any(m.played == 0 for m, _ in matches):
        return {}
    ratings = ratings_from_matches(levels, [m for m, _ in matches])
    elo = dict(zip(ratings.names, ratings.elo, strict=True))
    base = elo[levels[0]]
    strong_seats = [[(t.bots.index(m.a), t) for t in group] for m, group in matches]

    def span(rep_seed: int) -> float:
        rng = random.Random(rep_seed)
        resampled = []
        for (m, _), games in zip(matches, strong_seats, strict=True):
            again = MatchResult(m.a, m.b)
            for _ in games:
                seat, t = games[rng.randrange(len(games))]
                if t.result != "win":
                    again.draws += 1
                elif t.winner == seat:
                    again.wins += 1
                else:
                    again.losses += 1
            resampled.append(again)
        r = ratings_from_matches(levels, resampled)
        return r.elo[-1] - r.elo[0]

    values = sorted(span(seed * 7_919 + k) for k in range(300))
    value = elo[levels[-1]] - base
    spans = Estimate(value, min(values[7], value), max(values[292], value), 300,
                     "bootstrap (games resampled within each pair, 300 refits)")
    return {
        "ratings": [{"bot": n, "elo": e - base, "low": lo - base, "high": hi - base}
                    for n, e, lo, hi in sorted(ratings.table(), key=lambda r: levels.index(r[0]))],
        "span": spans,
        "games": sum(m.played for m, _ in matches),
    }


# -- the findings, one paragraph each ------------------------------------------------------

def findings(r: dict[str, Any]) -> list[dict[str, str]]:
    if r["kind"] == "cooperative":
        return _cooperative_findings(r)
    out = []
    levels = r["levels"]
    sp = r["self_play"]
    top, low = levels[-1], levels[0]
    o_top = sp[top]["outcomes"]
    rows = "; ".join(f"{b}: {sp[b]['outcomes']['first_wins'].text(percent=True)}"
                     for b in levels)
    lean = _lean(o_top["first_score"])
    out.append({"title": "Balance", "text": (
        f"In self-play the first player's share of wins is {rows} "
        f"(first player's score at {top}: {o_top['first_score'].text()}; Ludii's balance "
        f"1 - |P1 wins - P2 wins| = {o_top['balance'].text()}). {lean}")})
    comp = "; ".join(f"{b}: {sp[b]['outcomes']['completion'].text(percent=True)}"
                     for b in levels)
    ev_top = sp[top]["evaluation"]
    out.append({"title": "Decisiveness and drawishness", "text": (
        f"Share of games with a winner (Ludii's completion): {comp}. Drawn by the rules at "
        f"{top}: {o_top['drawishness'].text(percent=True)}; cut by the {r['max_plies']}-ply cap: "
        f"{o_top['timeouts'].text(percent=True)}. By the evaluator, the winner's expected "
        f"score first exceeds the best the loser ever had after, at {top}, "
        f"{ev_top['decided_at'].text(percent=True)} of the game (Ludii's decisiveness moves: "
        "smaller means decided earlier, the rest being the winner's mop-up).")})
    dur = "; ".join(f"{b}: {sp[b]['duration']['mean'].text('{:.1f}')} plies "
                    f"(median {sp[b]['duration'].get('median', 'n/a')})" for b in levels)
    out.append({"title": "Duration", "text": (
        f"Mean game length by level (self-play, 95% t interval): {dur}. Stronger play "
        f"changes the length from {sp[low]['duration']['mean'].text('{:.1f}')} plies at "
        f"{low} to {sp[top]['duration']['mean'].text('{:.1f}')} at {top}.")})
    br = r["all_branching"]
    prof = br["profile"]
    first = f"{prof[0][0]:.1f} legal moves at the start" if prof else "no positions"
    out.append({"title": "Branching factor", "text": (
        f"Over the self-play games a position offers on average {br['mean'].text('{:.1f}')} "
        f"legal moves (mean of each game's mean); {first}. At {top} the mean is "
        f"{sp[top]['branching']['mean'].text('{:.1f}')}.")})
    ev = [(b, sp[b]["evaluation"]) for b in levels]
    drama = "; ".join(f"{b}: {e['drama'].text()}" for b, e in ev)
    lead = "; ".join(f"{b}: {e['lead_changes'].text('{:.2f}')}" for b, e in ev)
    out.append({"title": "Drama and lead changes", "text": (
        f"Seen by the evaluator ({r['playouts']} greedy playouts per position), the eventual "
        f"winner's average deficit (Ludii's drama, 0 = never behind) is {drama}. The winner "
        f"was clearly behind (expected score below {0.5 - r['margin']:.2f}) at some point in "
        f"{ev_top['comebacks'].text(percent=True)} of decisive games at {top}. Lead changes per "
        f"game: {lead}.")})
    pairs = "; ".join(f"{p['strong']} vs {p['weak']}: wins {p['wins'].text(percent=True)}, "
                      f"score {p['score'].text()}" for p in r["pairs"])
    out.append({"title": "The stronger bot wins", "text": (
        f"Each level against the one below, sides alternating, {r['games_per_group']} games "
        f"per pair: {pairs}.")})
    lad = r.get("ladder") or {}
    if lad:
        span = lad["span"]
        out.append({"title": "Skill ladder (strategy depth)", "text": (
            f"Bradley-Terry Elo fitted to the {lad['games']} ladder games puts {top} "
            f"{span.value:+.0f} Elo above {low} (95% bootstrap interval {span.low:+.0f} to "
            f"{span.high:+.0f}). {_depth_words(span)} It is a lower bound on the game's "
            "strategy depth, measured by the bots we have, not by people: a stronger bot "
            "would add rungs.")})
    out.append({"title": "Solved facts", "text": _solved_text(r)})
    out.append({"title": "Complexity", "text": _complexity_text(r)})
    return out


def _depth_words(span: Estimate) -> str:
    if span.low >= 1_000:
        return ("That is a long ladder: every extra rung of search wins clearly more often, "
                "so skill pays all the way up the levels measured.")
    if span.low >= 300:
        return "Skill pays, but the ladder is short: the levels are not far apart."
    return "The levels are hard to tell apart: little skill shows in the results."


def _lean(score: Estimate) -> str:
    if score.n == 0:
        return ""
    if score.low > 0.5:
        return "The first player has a measurable edge at this level."
    if score.high < 0.5:
        return "The second player has a measurable edge at this level."
    return "No edge for either side is measurable at this level with this many games."


def _solved_text(r: dict[str, Any]) -> str:
    s = r["solver"]
    if s.get("answered"):
        moves = ", ".join(f"{m['move']} {m['value']}" for m in s["moves"][:12])
        more = "" if len(s["moves"]) <= 12 else f" and {len(s['moves']) - 12} more"
        return (f"The solver ({s['solver']}) proves the start a {s['value']} for "
                f"{s['to_move']} ({s['nodes']:,} nodes, {s['seconds']} s); opening moves: "
                f"{moves}{more}.")
    if s.get("solver") is None:
        text = "No solver is registered for this ruleset."
    elif s.get("skipped"):
        text = f"The solver ({s['solver']}) was not run (--solve-seconds 0)."
    else:
        text = (f"The solver ({s['solver']}) found no answer for the start within "
                f"{s['seconds_limit']:g} s.")
    row = r.get("docs_row")
    if row:
        text += (f" docs/solutions.md (figures measured by the code in src/fourfold/solve/, "
                 f"section '{row['section']}') says for {row['ruleset']}: \"{row['value']}\".")
    return text


def _complexity_text(r: dict[str, Any]) -> str:
    c = r["complexity"]
    parts = []
    ss = c["state_space"]
    if ss:
        kind = "exactly" if ss["exact"] else "at most"
        parts.append(f"State space: {kind} {ss['positions']:,} positions (10^{ss['log10']}).")
    else:
        parts.append("State space: no counter is registered for this ruleset.")
    k = c["knuth_random"]
    if k is not None and k.n:
        parts.append(f"Game tree (Knuth's estimator over {k.n} random games): about "
                     f"10^{k.value:.0f} games (bootstrap 10^{k.low:.0f}-10^{k.high:.0f}); "
                     "the mean is dominated by the longest random games, while the median "
                     f"random game's branching product is 10^{c['knuth_median']:.0f}.")
    for key, who in (("shannon_random", "random play"), ("shannon_best", f"{c['best']}")):
        sh = c[key]
        if sh:
            parts.append(f"b^d with {who}: b = {sh[0]:.1f}, d = {sh[1]:.1f} plies, "
                         f"10^{sh[2]:.1f}.")
    return " ".join(parts)


def _cooperative_findings(r: dict[str, Any]) -> list[dict[str, str]]:
    teams = r["teams"]
    out = []
    rates = "; ".join(f"{b}: {t['win_rate'].text(percent=True)}" for b, t in teams.items())
    out.append({"title": "Win rate", "text": (
        f"A cooperative game has no first-player balance to measure; the team's win rate "
        f"is the figure. With every seat played by the same bot: {rates}.")})
    acts = "; ".join(f"{b}: {t['actions'].text('{:.2f}')} actions (won games "
                     f"{t['actions_won'].text('{:.2f}')}; above the deal's optimum "
                     f"{t['excess'].text('{:.2f}')})" for b, t in teams.items())
    facts = " ".join(f"{f['fact'].capitalize()}: {f['value']} ({f['source']})."
                     for f in r["optimum_facts"])
    opt = next((t["optimum"] for t in teams.values() if t["optimum"].n), None)
    opt_text = (f" With every card known, the same deals need {opt.text('{:.2f}')} actions "
                "on average (fourfold.solve.quatrefoil's shortest paths, stack included)."
                if opt is not None else "")
    out.append({"title": "Actions against the optimum", "text": f"{acts}.{opt_text} {facts}"})
    out.append({"title": "Branching factor", "text": (
        f"A position offers on average {r['all_branching']['mean'].text('{:.1f}')} legal "
        "actions.")})
    out.append({"title": "Complexity", "text": _complexity_text(r)})
    return out


def analyze(configs: Sequence[Config], settings: Settings,
            on_done: Callable[[Trace], None] | None = None) -> list[dict[str, Any]]:
    jobs = [j for c in configs for j in plan(c, settings)]
    traces = run_jobs(jobs, settings.workers, settings.cache, on_done, settings.scheduler)
    out = []
    for config in configs:
        mine = [t for t, j in zip(traces, jobs, strict=True) if j.config == config]
        out.append(measure(config, settings, mine))
    return out


def to_json(value: Any) -> Any:
    """Estimates become ``{"value", "low", "high", "n", "method"}``; long lists go."""
    if isinstance(value, Estimate):
        return value.as_json()
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()
                if k not in ("curves", "winners", "plies", "profile")}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, float):
        return round(value, 4)
    return value
