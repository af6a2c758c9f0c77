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
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fourfold.ai import bot_names, make_bot
from fourfold.analysis.match import DEFAULT_MAX_PLIES, MatchResult
from fourfold.analysis.report import complexity, metrics
from fourfold.analysis.report.facts import facts_of
from fourfold.analysis.report.games import Config, Job, Trace, run_jobs
from fourfold.analysis.report.intervals import Estimate, difference
from fourfold.analysis.report.solved import (
    cooperative_facts,
    docs_row,
    solved_text,
    solver_facts,
)
from fourfold.analysis.tournament import ratings_from_matches
from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.core.game import Game
from fourfold.core.spec import Utility

DEFAULT_LEVELS = ("level1", "level2", "level3", "level4", "level5")
DEFAULT_PLAYOUTS = 32
#: the playing time's pace: seconds per ply (per action in a cooperative game), an
#: assumption stated on the page (``--pace``), not a measurement of people
DEFAULT_PACE = 30.0


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
    pace: float = DEFAULT_PACE
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

    deal = group_seed(settings.seed, "deal")

    def add(group: str, seats: Callable[[int], tuple[str, ...]], playouts: int) -> None:
        seed = group_seed(settings.seed, group)
        jobs.extend(Job(config, group, seats(i), seed, i, playouts, settings.max_plies, deal)
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
        from fourfold.ai.levels import level_of

        return level_of(game, int(name[5:])).describe()
    bot = make_bot(name, game, 0, 0)
    doc = (type(bot).__doc__ or "").strip().splitlines()
    return doc[0] if doc else name


# -- measuring --------------------------------------------------------------------------------

def first_mover(game: Game[Any, Any], traces: Sequence[Trace]) -> dict[str, Any]:
    """Who acts first, as the rules name them: the seat that played the first ply."""
    seats = sorted({t.first for t in traces if t.first is not None})
    # with no game played, the rules' start says who moves
    seat = seats[0] if len(seats) == 1 else game.to_move(game.initial_state())
    if len(seats) > 1 or seat is None:
        return {"seat": None, "name": "the player who acts first",
                "other": "the player who acts second"}
    return {"seat": seat, "name": game.player_name(seat),
            "other": game.player_name(1 - seat) if game.num_players == 2 else "the others"}


def measure(config: Config, settings: Settings, traces: Sequence[Trace]) -> dict[str, Any]:
    """Every figure of one configuration from its traced games."""
    game = config.load()
    levels = levels_for(game, settings)
    names = [game.player_name(p) for p in range(game.num_players)]
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
        "seat_names": names,
        "levels": list(levels),
        "bots": {name: describe_bot(game, name) for name in levels},
        "games_per_group": settings.games,
        "seed": settings.seed,
        "playouts": settings.playouts,
        "margin": metrics.MARGIN,
        "max_plies": settings.max_plies,
        "pace": settings.pace,
    }
    if cooperative(game):
        report["teams"] = {}
        for bot in levels:
            group = by_group.get(f"team:{bot}", [])
            report["teams"][bot] = {**metrics.cooperative(group),
                                    "duration": metrics.duration(group, settings.pace),
                                    "branching": metrics.branching(group),
                                    "endings": metrics.endings(group, names),
                                    "coverage": metrics.board_coverage(group),
                                    "plies": [t.plies for t in group]}
        report["paired"] = [
            {"a": a, "b": b, "difference": metrics.paired_difference(
                by_group.get(f"team:{a}", []), by_group.get(f"team:{b}", []))}
            for a, b in itertools.combinations(levels, 2)]
        report["optimum_facts"] = cooperative_facts(game)
        report["optimum_source"] = facts_of(game).optimum_source
        all_games = [t for b in levels for t in by_group.get(f"team:{b}", [])]
    else:
        all_games = [t for b in levels for t in by_group.get(f"self:{b}", [])]
        report["first_player"] = first_mover(game, all_games)
        report["special_endings"] = list(facts_of(game).endings)
        report["self_play"] = {}
        for bot in levels:
            group = by_group.get(f"self:{bot}", [])
            report["self_play"][bot] = {
                "outcomes": metrics.outcomes(group),
                "duration": metrics.duration(group, settings.pace),
                "branching": metrics.branching(group),
                "evaluation": metrics.evaluation(group),
                "endings": metrics.endings(group, names),
                "coverage": metrics.board_coverage(group),
                "plies": [t.plies for t in group],
                "curves": [metrics.neutral(t) for t in group[:6]],
                "winners": [t.winner for t in group[:6]],
            }
        report["pooled"] = {"outcomes": metrics.outcomes(all_games), "games": len(all_games)}
        matches = [metrics.pair_match(by_group.get(f"pair:{strong}>{weak}", []), strong, weak)
                   for weak, strong in itertools.pairwise(levels)]
        report["pairs"] = [metrics.pair_figures(m) for m in matches]
        report["ladder"] = ladder(levels, report["pairs"], matches)
        report["solver"] = solver_facts(game, settings.solve_seconds)
        report["docs_row"] = docs_row(game)
    randoms = by_group.get("random", [])
    best = by_group.get(f"self:{levels[-1]}", []) or by_group.get(f"team:{levels[-1]}", [])
    count = complexity.state_space(game)
    knuth, effective = (complexity.knuth(randoms, settings.seed) if randoms
                        else (None, 0.0))
    report["complexity"] = {
        "state_space": None if count is None else {
            "positions": count.positions, "log10": round(math.log10(count.positions), 2),
            "exact": count.exact, "method": count.method},
        "knuth_random": knuth,
        "knuth_effective": round(effective, 2),
        "knuth_median": complexity.typical(randoms),
        "shannon_random": complexity.shannon(randoms),
        "shannon_best": complexity.shannon(best),
        "best": levels[-1],
        "random_games": len(randoms),
        "heaviest_random": complexity.heaviest(randoms),
    }
    report["all_branching"] = metrics.branching(all_games or randoms)
    report["findings"] = findings(report)
    return report


def ladder(levels: Sequence[str], pairs: Sequence[dict[str, Any]],
           matches: Sequence[MatchResult]) -> dict[str, Any]:
    """Elo ratings (Bradley-Terry, ``analysis.rating``) from the adjacent pairs, relative
    to the weakest bot: the anchor, 0 by definition, with no interval. The pairs form a
    chain, so a rung's rating is the sum of the differences below it; its 95% interval
    combines those pairs' own intervals (each from its score interval, Wilson's width
    when a pair's games all agree) by the MOVER method for sums of independent
    estimates. The span is the strongest rung's."""
    if not matches or any(m.played == 0 for m in matches):
        return {}
    ratings = ratings_from_matches(levels, matches)
    elo = dict(zip(ratings.names, ratings.elo, strict=True))
    rungs: list[dict[str, Any]] = [
        {"bot": levels[0], "elo": 0.0, "low": 0.0, "high": 0.0, "anchor": True}]
    down = up = 0.0
    for k, pair in enumerate(pairs):
        step = elo[levels[k + 1]] - elo[levels[k]]
        down += max(0.0, step - pair["elo"].low) ** 2
        up += max(0.0, pair["elo"].high - step) ** 2
        value = elo[levels[k + 1]] - elo[levels[0]]
        rungs.append({"bot": levels[k + 1], "elo": value, "low": value - math.sqrt(down),
                      "high": value + math.sqrt(up), "anchor": False})
    top = rungs[-1]
    games = sum(m.played for m in matches)
    return {
        "anchor": levels[0],
        "ratings": rungs,
        "span": Estimate(top["elo"], top["low"], top["high"], min(m.played for m in matches),
                         "MOVER sum of the pairs' score intervals"),
        "games": games,
    }


# -- the findings, one paragraph each ------------------------------------------------------

def findings(r: dict[str, Any]) -> list[dict[str, str]]:
    """The page's paragraphs. Every sentence is built from the figures it quotes: a
    claim (an edge, a change, a long ladder) is made only when those figures' intervals
    support it, and the sentence quotes them."""
    if r["kind"] == "cooperative":
        return _cooperative_findings(r)
    paragraphs = ((title, text(r)) for title, text in _FINDINGS)
    return [{"title": title, "text": text} for title, text in paragraphs if text is not None]


def _top(r: dict[str, Any]) -> tuple[dict[str, Any], str, str]:
    """The self-play figures by level, the weakest level and the strongest."""
    return r["self_play"], r["levels"][0], r["levels"][-1]


def _by_level(r: dict[str, Any], figure: Callable[[dict[str, Any]], str]) -> str:
    """``level: figure; level: figure ...`` over the self-play levels, weakest first."""
    return "; ".join(f"{b}: {figure(r['self_play'][b])}" for b in r["levels"])


def _balance_text(r: dict[str, Any]) -> str:
    sp, _, top = _top(r)
    fp = r["first_player"]
    first, second = fp["name"], fp["other"]
    o_top = sp[top]["outcomes"]
    # one figure for the edge, the one the verdicts test and the table's score column
    # gives: the first mover's score (its wins and losses have their own columns)
    rows = _by_level(r, lambda s: s["outcomes"]["first_score"].text())
    pooled = r["pooled"]["outcomes"]["first_score"]
    return (
        f"{first} acts first. In self-play {first}'s score (a win 1, a draw 1/2, a loss "
        f"0; 1/2 is even) is {rows} (Ludii's balance at {top}, "
        f"1 - |first mover's wins - second mover's wins| = {o_top['balance'].text()}). "
        f"{_lean(o_top['first_score'], first, second, f'at {top}')} Pooled over the "
        f"{r['pooled']['games']} self-play games of every level, {first}'s score is "
        f"{pooled.text()}: {_lean(pooled, first, second, 'pooled', sentence=False)}")


def _decisiveness_text(r: dict[str, Any]) -> str:
    sp, _, top = _top(r)
    o_top = sp[top]["outcomes"]
    comp = _by_level(r, lambda s: s["outcomes"]["completion"].text(percent=True))
    ev_top = sp[top]["evaluation"]
    decided = (f" By the evaluator, the winner's expected score first exceeds the best the "
               f"loser ever had after {ev_top['decided_at'].text(percent=True)} of the game "
               f"at {top} (Ludii's decisiveness moves: smaller means decided earlier, the "
               "rest being the winner's mop-up)." if ev_top["supported"] else "")
    return (
        f"Share of games with a winner (Ludii's completion): {comp}. Drawn by the rules at "
        f"{top}: {o_top['drawishness'].text(percent=True)}; cut by the {r['max_plies']}-ply cap: "
        f"{o_top['timeouts'].text(percent=True)}.{decided}")


def _duration_text(r: dict[str, Any]) -> str:
    sp, low, top = _top(r)
    dur = _by_level(r, lambda s: f"{s['duration']['mean'].text('{:.1f}')} plies (median "
                                 f"{s['duration'].get('median', 'n/a')})")
    change = _change(sp[low]["duration"]["mean"], sp[top]["duration"]["mean"], "{:.1f}", "plies")
    minutes = sp[top]["duration"]["minutes"]
    return (
        f"Mean game length by level (self-play, 95% t interval): {dur}. From {low} to "
        f"{top} {change}. At {r['pace']:g} seconds per ply (an assumed pace, not a "
        f"measurement of people) a game at {top} lasts {minutes.text('{:.1f}')} minutes.")


def _branching_text(r: dict[str, Any]) -> str:
    sp, _, top = _top(r)
    br = r["all_branching"]
    prof = br["profile"]
    start = f"{prof[0][0]:.1f} legal moves at the start" if prof else "no positions"
    cover = sp[top]["coverage"]
    cover_text = (f" A game at {top} puts a piece on {cover.text(percent=True)} of the "
                  "board's sites at some point (Ludii's board coverage)." if cover.n else
                  " Board coverage: this board has no fixed set of sites.")
    return (
        f"Over the self-play games a position offers on average {br['mean'].text('{:.1f}')} "
        f"legal moves (mean of each game's mean); {start}. At {top} the mean is "
        f"{sp[top]['branching']['mean'].text('{:.1f}')}.{cover_text}")


def _stronger_text(r: dict[str, Any]) -> str:
    pairs = "; ".join(f"{p['strong']} vs {p['weak']}: wins {p['wins'].text(percent=True)}, "
                      f"score {p['score'].text()}" for p in r["pairs"])
    return (f"Each level against the one below, sides alternating, {r['games_per_group']} "
            f"games per pair: {pairs}.")


def _ladder_text(r: dict[str, Any]) -> str | None:
    """The skill ladder's paragraph, when the ladder was played."""
    lad = r.get("ladder") or {}
    if not lad:
        return None
    _, low, top = _top(r)
    span = lad["span"]
    return (
        f"Bradley-Terry Elo fitted to the {lad['games']} ladder games, with {low} as the "
        f"anchor (0 by definition), puts {top} {span.value:+.0f} Elo above {low} (95% "
        f"interval {span.text('{:+.0f}').partition('(')[2].rstrip(')')}). "
        f"{_depth_words(span)} "
        "It is a lower bound on the game's strategy depth, measured by the bots we "
        "have, not by people: a stronger bot would add rungs.")


def _change(a: Estimate, b: Estimate, fmt: str, unit: str) -> str:
    """A sentence on how ``a`` becomes ``b`` that claims a change only when the
    difference's interval excludes zero."""
    d = difference(b, a)
    if not d.n:
        return "there is nothing to compare"
    words = (f"the mean goes from {a.text(fmt)} to {b.text(fmt)} {unit} (difference "
             f"{d.text('{:+.1f}')})")
    if d.excludes(0.0):
        verb = "lengthens" if d.value > 0 else "shortens"
        return f"{words}: stronger play measurably {verb} the game"
    return f"{words}: no change is measurable with this many games"


def _depth_words(span: Estimate) -> str:
    """What the span's interval supports, and nothing more."""
    if not span.interval:
        return "One game cannot say how long the ladder is."
    if span.low >= 1_000:
        return ("That is a long ladder: the whole interval lies above +1000 Elo, so skill "
                "pays all the way up the levels measured.")
    if span.low >= 300 and span.high < 1_000:
        return ("Skill pays, but the ladder is short: the interval lies between +300 and "
                "+1000 Elo.")
    if span.low >= 300:
        return "Skill pays: the whole interval lies above +300 Elo."
    if span.high < 300:
        return ("The levels are hard to tell apart: the whole interval lies below +300 "
                "Elo.")
    return "With this many games the ladder's length is not pinned down."


def _lean(score: Estimate, first: str, second: str, where: str,
          sentence: bool = True) -> str:
    """Which side the first mover's score interval favours, if either."""
    if score.n == 0:
        return ""
    if not score.interval:
        text = "one game cannot show an edge"
    elif score.low > 0.5:
        text = f"{first}, who acts first, has a measurable edge {where}"
    elif score.high < 0.5:
        text = f"{second}, who acts second, has a measurable edge {where}"
    else:
        text = f"no edge for either side is measurable {where} with this many games"
    return (text[0].upper() + text[1:] if sentence else text) + "."


def _endings_text(r: dict[str, Any]) -> str:
    sp = r["self_play"]
    top = r["levels"][-1]
    e = sp[top]["endings"]
    kinds = "; ".join(f"{k['type']}: {k['share'].text(percent=True)}" for k in e["types"][:6])
    more = "" if len(e["types"]) <= 6 else f"; and {len(e['types']) - 6} other kinds"
    text = f"How self-play games end at {top}, by the rules' reasons: {kinds}{more}."
    special = r.get("special_endings", [])
    for key, what in (("repetition", "Ended by repetition"),
                      ("stalemate", "Ended because the side to move could not move"
                                    " (stalemate)")):
        if key in special:
            rates = "; ".join(f"{b}: {sp[b]['endings'][key].text(percent=True)}"
                              for b in r["levels"])
            text += f" {what}: {rates}."
    if not special:
        text += " The rules have no repetition or stalemate ending."
    return text


def _drama_text(r: dict[str, Any]) -> str:
    sp = r["self_play"]
    levels = r["levels"]
    top = levels[-1]
    ev_top = sp[top]["evaluation"]
    raw_alt, raw_n = ev_top["raw_alternating"]
    neu_alt, neu_n = ev_top["neutral_alternating"]
    evidence = (f"Of {raw_n} consecutive changes of the raw evaluation at {top}, {raw_alt} "
                f"alternate in sign (independent noise would give two thirds); it leans "
                f"toward the side to move by {ev_top['lean'].text('{:+.3f}')} in expected "
                "score. The figures here use "
                "the side-to-move-neutral evaluation (each point the mean of two consecutive "
                "positions, one with each side to move), on which "
                f"{neu_alt} of {neu_n} changes alternate.")
    if not ev_top["evaluated"]:
        return f"Left out: {ev_top['why']}."
    shown = [b for b in levels if sp[b]["evaluation"]["supported"]]
    left = [b for b in levels if not sp[b]["evaluation"]["supported"]]
    parts = [f"Seen by the evaluator ({r['playouts']} greedy playouts per position). "
             + evidence]
    if shown:
        ev = [(b, sp[b]["evaluation"]) for b in shown]
        drama = "; ".join(f"{b}: {e['drama'].text()}" for b, e in ev)
        lead = "; ".join(f"{b}: {e['lead_changes'].text('{:.2f}')}" for b, e in ev)
        parts.append(f"The eventual winner's average deficit (Ludii's drama, 0 = never "
                     f"behind) is {drama}. Lead changes per game: {lead}.")
        if ev_top["supported"]:
            parts.append(f"The winner was clearly behind (expected score below "
                         f"{0.5 - r['margin']:.2f}) at some point in "
                         f"{ev_top['comebacks'].text(percent=True)} of decisive games at "
                         f"{top}.")
    for b in left:
        parts.append(f"Drama and lead changes at {b} are left out: "
                     f"{sp[b]['evaluation']['why']}.")
    return " ".join(parts)


def _complexity_text(r: dict[str, Any]) -> str:
    c = r["complexity"]
    parts = []
    ss = c["state_space"]
    if ss:
        kind = "exactly" if ss["exact"] else "at most (an upper bound)"
        parts.append(f"State space: {kind} {ss['positions']:,} positions "
                     f"(10^{ss['log10']}).")
    else:
        parts.append("State space: no counter is registered for this ruleset.")
    k = c["knuth_random"]
    if k is not None and k.n:
        if k.interval:
            rng = (f"bootstrap 10^{k.low:.0f}-10^{k.high:.0f}; effective sample size "
                   f"{c['knuth_effective']:.0f} of {k.n}")
        elif c["knuth_effective"] < 2:
            rng = (f"no interval: one random game, of {c['heaviest_random']} plies, "
                   f"carries nearly all of the mean, an effective sample size of "
                   f"{c['knuth_effective']:.1f} of {k.n} games, so the figure is only as "
                   "good as that one game")
        else:
            rng = (f"no interval: the games' weights are too uneven for one, an effective "
                   f"sample size of {c['knuth_effective']:.1f} of {k.n} games where an "
                   f"interval needs {complexity.MIN_EFFECTIVE:.0f}")
        median = c["knuth_median"]
        parts.append(f"Game tree (Knuth's estimator over {k.n} random games): about "
                     f"10^{k.value:.0f} games ({rng}); the median random game's branching "
                     f"product is 10^{median:.0f}.")
    for key, who in (("shannon_random", "random play"), ("shannon_best", f"{c['best']}")):
        sh = c[key]
        if sh:
            parts.append(f"b^d with {who}: b = {sh[0]:.1f}, d = {sh[1]:.1f} plies, "
                         f"10^{sh[2]:.1f}.")
    return " ".join(parts)


#: the paragraphs of a two-player report, in order: (title, its text from the report, or
#: ``None`` when it has none)
_FINDINGS: tuple[tuple[str, Callable[[dict[str, Any]], str | None]], ...] = (
    ("Balance", _balance_text),
    ("Decisiveness and drawishness", _decisiveness_text),
    ("How games end", _endings_text),
    ("Duration and playing time", _duration_text),
    ("Branching factor and board coverage", _branching_text),
    ("Drama and lead changes", _drama_text),
    ("The stronger bot wins", _stronger_text),
    ("Skill ladder (strategy depth)", _ladder_text),
    ("Solved facts", solved_text),
    ("Complexity", _complexity_text),
)


def _cooperative_findings(r: dict[str, Any]) -> list[dict[str, str]]:
    teams = r["teams"]
    out = []
    rates = "; ".join(f"{b}: {t['win_rate'].text(percent=True)}" for b, t in teams.items())
    diffs = []
    for p in r["paired"]:
        d = p["difference"]
        if not d.n:
            continue
        verdict = (f"{p['a'] if d.value > 0 else p['b']} measurably wins more often"
                   if d.excludes(0.0) else "no difference is measurable")
        diffs.append(f"{p['a']} minus {p['b']}: {100 * d.value:+.1f} points"
                     + (f" ({100 * d.low:+.1f} to {100 * d.high:+.1f})" if d.interval
                        else " (one deal)") + f", {verdict}")
    paired = (" Every team played the same deals (game i of each team is dealt from the "
              "same seed), so the teams are compared deal by deal: " + "; ".join(diffs) + "."
              if diffs else "")
    out.append({"title": "Win rate", "text": (
        f"A cooperative game has no first-player balance to measure; the team's win rate "
        f"is the figure. With every seat played by the same bot: {rates}.{paired}")})
    acts = "; ".join(f"{b}: {t['actions'].text('{:.2f}')} actions (won games "
                     f"{t['actions_won'].text('{:.2f}')}; above the deal's optimum "
                     f"{t['excess'].text('{:.2f}')})" for b, t in teams.items())
    facts = " ".join(f"{f['fact'].capitalize()}: {f['value']} ({f['source']})."
                     for f in r["optimum_facts"])
    opt = next((t["optimum"] for t in teams.values() if t["optimum"].n), None)
    opt_text = (f" With every card known, these deals need {opt.text('{:.2f}')} actions "
                f"on average ({r.get('optimum_source') or 'the game solver'}; the same deals"
                " for every team)." if opt is not None else "")
    out.append({"title": "Actions against the optimum", "text": f"{acts}.{opt_text} {facts}"})
    minutes = "; ".join(f"{b}: {t['duration']['minutes'].text('{:.1f}')}"
                        for b, t in teams.items())
    out.append({"title": "Playing time", "text": (
        f"At {r['pace']:g} seconds per action (an assumed pace, not a measurement of "
        f"people) a deal lasts, in minutes: {minutes}.")})
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
    if isinstance(value, float):  # JSON has no infinity: an unbounded end is null
        return round(value, 4) if math.isfinite(value) else None
    return value
