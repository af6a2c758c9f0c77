"""One self-contained HTML page: the findings, tables and inline SVG plots (matplotlib,
Agg backend), and the methods and sources. Pure: figures in, a string out."""

from __future__ import annotations

import html
import io
import math
import re
from collections.abc import Sequence
from typing import Any

from fourfold.analysis.report.intervals import Estimate, difference
from fourfold.core.errors import FourfoldError

SOURCES = [
    ("Browne, C. (2008). Automatic generation and evaluation of recombination games. PhD "
     "thesis, Queensland University of Technology.",
     "The aesthetic criteria: completion, duration, balance, advantage, drawishness, "
     "drama, decisiveness, lead change, ..."),
    ("Ludii's metrics: Ludeme/Ludii, Evaluation/src/metrics (Balance, Completion, "
     "Drawishness, Timeouts, DurationMoves, BranchingFactor, Drama, LeadChange, "
     "DecisivenessThreshold, DecisivenessMoves, GameTreeComplexity, StateSpaceComplexity); "
     "https://github.com/Ludeme/Ludii",
     "Definitions followed here; differences are stated in the methods."),
    ("Stephenson, M., Piette, E., Soemers, D. J. N. J., Browne, C. (2019). An overview of "
     "the Ludii general game system. IEEE Conference on Games.",
     "Ludii and its evaluation of games by self-play."),
    ("Knuth, D. E. (1975). Estimating the efficiency of backtrack programs. Mathematics of "
     "Computation 29(129), 121-136.",
     "Random-path estimate of a tree's size."),
    ("Allis, L. V. (1994). Searching for solutions in games and artificial intelligence. "
     "PhD thesis, University of Limburg.",
     "State-space and game-tree complexity (b^d)."),
    ("Wilson, E. B. (1927). Probable inference, the law of succession, and statistical "
     "inference. JASA 22(158), 209-212.", "Intervals for proportions."),
    ("Efron, B. (1979). Bootstrap methods: another look at the jackknife. Annals of "
     "Statistics 7(1), 1-26.", "Percentile bootstrap intervals."),
    ("Zou, G. Y., Donner, A. (2008). Construction of confidence limits about effect "
     "measures: a general approach. Statistics in Medicine 27(10), 1693-1702; Newcombe, "
     "R. G. (1998). Interval estimation for the difference between independent "
     "proportions. Statistics in Medicine 17(8), 873-890.",
     "Intervals of differences and sums (MOVER): compare mode, the Elo ladder."),
    ("Kish, L. (1965). Survey Sampling. Wiley.",
     "Effective sample size of weighted samples (Knuth's estimator)."),
    ("Bradley, R. A., Terry, M. E. (1952). Rank analysis of incomplete block designs. "
     "Biometrika 39, 324-345; Elo, A. (1978). The rating of chessplayers.",
     "Ratings (fourfold.analysis.rating)."),
]

STYLE = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:980px;margin:2em auto;
padding:0 1em;color:#1d2330;line-height:1.5}
h1{margin-bottom:.2em}h2{border-bottom:2px solid #dde3ec;padding-bottom:.2em;margin-top:1.8em}
.sub{color:#5b6577;margin-top:0}
table{border-collapse:collapse;margin:.8em 0;font-size:.92em}
th,td{border:1px solid #d5dbe5;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#eef2f7}
.finding{background:#f6f8fb;border-left:4px solid #3b6fb6;padding:.6em 1em;margin:.8em 0}
.finding h3{margin:.1em 0 .3em;font-size:1.05em}
.plot{margin:.5em 0}.plot svg{max-width:100%;height:auto}
.small{font-size:.88em;color:#4a5466}code{background:#eef2f7;padding:0 .2em}
details{margin:.6em 0}summary{cursor:pointer;font-weight:600}
"""

COLOURS = ["#3b6fb6", "#d9822b", "#3c9a5f", "#b5475b", "#7a5cb8", "#8c7a4a", "#2f9aa0"]


def _plt() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise FourfoldError("the report's plots need matplotlib: "
                            "pip install 'fourfold[research]'") from None
    plt.rcParams.update({"font.size": 9, "svg.fonttype": "none", "axes.spines.top": False,
                         "axes.spines.right": False, "svg.hashsalt": "fourfold"})
    return plt


def svg(fig: Any) -> str:
    plt = _plt()
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    return f'<div class="plot">{text}</div>'


def legend(ax: Any, **kwargs: Any) -> None:
    """A legend only when something is labelled (an empty legend is what matplotlib warns
    about)."""
    handles, labels = ax.get_legend_handles_labels()
    if labels:
        ax.legend(handles, labels, **kwargs)


def esc(x: Any) -> str:
    return html.escape(str(x))


def table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    h = "".join(f"<th>{esc(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{h}</tr>{body}</table>"


def pct(e: Estimate) -> str:
    return e.text(percent=True)


# -- plots ------------------------------------------------------------------------------------

def plot_balance(r: dict[str, Any]) -> str:
    plt = _plt()
    first, second = r["first_player"]["name"], r["first_player"]["other"]
    levels = r["levels"]
    sp = r["self_play"]
    fig, ax = plt.subplots(figsize=(7.5, 2.6))
    y = list(range(len(levels)))
    w = [sp[b]["outcomes"]["first_wins"] for b in levels]
    d = [sp[b]["outcomes"]["draws"].value for b in levels]
    lo = [sp[b]["outcomes"]["first_losses"].value for b in levels]
    ax.barh(y, [e.value for e in w], color=COLOURS[0], label=f"{first} wins (acts first)")
    ax.barh(y, d, left=[e.value for e in w], color="#b8c0cc", label="draws")
    ax.barh(y, lo, left=[a.value + b for a, b in zip(w, d, strict=True)], color=COLOURS[1],
            label=f"{second} wins")
    # the first mover's score (wins + draws/2: the middle of the draws) with the interval
    # the sentence and the table give, against the even 1/2
    s = [sp[b]["outcomes"]["first_score"] for b in levels]
    ax.errorbar([e.value for e in s], y, xerr=[[e.value - e.low for e in s],
                                               [e.high - e.value for e in s]],
                fmt="o", color="black", ms=3, capsize=3, lw=1)
    ax.axvline(0.5, color="black", lw=0.8, ls=":")
    ax.set_yticks(y, levels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"share of self-play games; dot and bar: {first}'s score with its 95%"
                  " interval")
    legend(ax, loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=3, frameon=False)
    return svg(fig)


def plot_duration(groups: dict[str, list[int]], xlabel: str = "plies") -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 2.8))
    top = max((max(p) for p in groups.values() if p), default=1)
    bins = list(range(0, top + 2, max(1, (top + 1) // 40 or 1)))
    for i, (name, plies) in enumerate(groups.items()):
        if plies:
            ax.hist(plies, bins=bins, histtype="step", lw=1.6, color=COLOURS[i % 7], label=name)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    legend(ax, frameon=False)
    return svg(fig)


def plot_branching(groups: dict[str, list[tuple[float, int]]], least: int) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 2.8))
    for i, (name, profile) in enumerate(groups.items()):
        pts = [(t, m) for t, (m, n) in enumerate(profile) if n >= least]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], color=COLOURS[i % 7], lw=1.4,
                    label=name)
    ax.set_xlabel(f"ply (plies reached by at least {least} games)")
    ax.set_ylabel("mean legal moves")
    ax.set_ylim(bottom=0)
    legend(ax, frameon=False)
    return svg(fig)


def plot_curves(curves: list[list[float]], winners: list[int | None], bot: str,
                names: Sequence[str]) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 2.8))
    for i, (c, w) in enumerate(zip(curves, winners, strict=False)):
        label = f"game {i}: " + ("draw" if w is None else f"{names[w]} won")
        ax.plot(range(len(c)), c, marker="o", ms=2.5, lw=1.2, color=COLOURS[i % 7], label=label)
    ax.axhspan(0.35, 0.65, color="#eef2f7", zorder=0)
    ax.axhline(0.5, color="black", lw=0.6, ls=":")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(f"ply ({bot} self-play; side-to-move-neutral; shaded: nobody clearly ahead)")
    ax.set_ylabel(f"{names[0]}'s expected score")
    legend(ax, frameon=False, fontsize=7, ncol=3, loc="upper center",
           bbox_to_anchor=(0.5, -0.22))
    return svg(fig)


def plot_ladder(r: dict[str, Any]) -> str:
    plt = _plt()
    rows = r["ladder"]["ratings"]
    fig, ax = plt.subplots(figsize=(7.5, 2.4))
    y = list(range(len(rows)))
    rungs = [(i, x) for i, x in enumerate(rows) if not x["anchor"]]
    finite = [v for _, x in rungs for v in (x["low"], x["high"], x["elo"]) if math.isfinite(v)]
    edge = max(finite, default=0.0) * 1.15 + 100  # an unbounded end runs to the edge
    ax.errorbar([x["elo"] for _, x in rungs], [i for i, _ in rungs],
                xerr=[[x["elo"] - max(x["low"], -edge) for _, x in rungs],
                      [min(x["high"], edge) - x["elo"] for _, x in rungs]],
                fmt="o", color=COLOURS[0], capsize=3)
    for i, x in rungs:
        if math.isinf(x["high"]):
            ax.annotate("no upper bound", (edge, i), xytext=(-4, 6),
                        textcoords="offset points", ha="right", fontsize=7)
    ax.plot([0.0], [0], marker="D", color="black", ls="none")
    ax.axvline(0.0, color="black", lw=0.6, ls=":")
    ax.set_yticks(y, [x["bot"] + (" (anchor)" if x["anchor"] else "") for x in rows])
    ax.invert_yaxis()
    ax.set_xlabel(f"Elo relative to {rows[0]['bot']}, the anchor (0 by definition; bars: "
                  "95% interval of the difference)")
    return svg(fig)


def plot_pairs(r: dict[str, Any]) -> str:
    plt = _plt()
    pairs = r["pairs"]
    fig, ax = plt.subplots(figsize=(7.5, 2.2))
    y = list(range(len(pairs)))
    w = [p["wins"] for p in pairs]
    ax.barh(y, [e.value for e in w], color=COLOURS[2])
    ax.errorbar([e.value for e in w], y, xerr=[[e.value - e.low for e in w],
                                               [e.high - e.value for e in w]],
                fmt="none", ecolor="black", capsize=3, lw=1)
    ax.axvline(0.5, color="black", lw=0.8, ls=":")
    ax.set_yticks(y, [f"{p['strong']} vs {p['weak']}" for p in pairs])
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games the stronger bot wins (95% Wilson interval)")
    return svg(fig)


def plot_team(r: dict[str, Any]) -> str:
    plt = _plt()
    teams = r["teams"]
    fig, ax = plt.subplots(figsize=(7.5, 2.2))
    names = list(teams)
    y = list(range(len(names)))
    w = [teams[b]["win_rate"] for b in names]
    ax.barh(y, [e.value for e in w], color=COLOURS[2])
    ax.errorbar([e.value for e in w], y, xerr=[[e.value - e.low for e in w],
                                               [e.high - e.value for e in w]],
                fmt="none", ecolor="black", capsize=3, lw=1)
    ax.set_yticks(y, names)
    ax.set_xlim(0, 1)
    ax.set_xlabel("team win rate (95% Wilson interval)")
    return svg(fig)


# -- sections ---------------------------------------------------------------------------------

def findings_html(r: dict[str, Any]) -> str:
    return "".join(f'<div class="finding"><h3>{esc(f["title"])}</h3><p>{esc(f["text"])}</p>'
                   "</div>" for f in r["findings"])


def _elo_range(low: float, high: float) -> str:
    return f"{low:+.0f} to {high:+.0f}".replace("inf", "\u221e")


def _ev_cell(ev: dict[str, Any], key: str, fmt: str = "{:.3f}", percent: bool = False) -> str:
    return ev[key].text(fmt, percent) if ev["supported"] else "left out"


def zero_sum_sections(r: dict[str, Any]) -> str:
    levels = r["levels"]
    sp = r["self_play"]
    n = r["games_per_group"]
    first = r["first_player"]["name"]
    names = r["seat_names"]
    parts = []
    parts.append(f"<h2>Balance</h2><p>Each level plays itself, {n} games per level. "
                 f"<b>{esc(first)}</b> acts first (the seat that plays the first ply; "
                 "players are named as the rules name them). The last row pools the "
                 "self-play games of every level.</p>")
    pooled = r["pooled"]["outcomes"]
    rows = [[b, pct(sp[b]["outcomes"]["first_wins"]), pct(sp[b]["outcomes"]["draws"]),
             pct(sp[b]["outcomes"]["first_losses"]), sp[b]["outcomes"]["first_score"].text(),
             sp[b]["outcomes"]["balance"].text()] for b in levels]
    rows.append(["all levels (pooled)", pct(pooled["first_wins"]), pct(pooled["draws"]),
                 pct(pooled["first_losses"]), pooled["first_score"].text(),
                 pooled["balance"].text()])
    parts.append(table(
        ["bot", f"{first} wins", "draws", f"{first} losses", f"{first}'s score",
         "Ludii balance"], rows))
    parts.append(plot_balance(r))
    parts.append("<h2>Decisiveness and drawishness</h2>")
    parts.append(table(
        ["bot", "completion (a winner)", "drawishness (rules)", "timeouts (cap)",
         "decided after (share of game)"],
        [[b, pct(sp[b]["outcomes"]["completion"]), pct(sp[b]["outcomes"]["drawishness"]),
          pct(sp[b]["outcomes"]["timeouts"]),
          _ev_cell(sp[b]["evaluation"], "decided_at", percent=True)]
         for b in levels]))
    parts.append("<h2>How games end</h2><p class='small'>The rules' reasons, squares left "
                 "out; (winner) and (loser) stand for the players.</p>")
    kinds = sorted({k["type"] for b in levels for k in sp[b]["endings"]["types"]})
    shares = {b: {k["type"]: k["share"] for k in sp[b]["endings"]["types"]} for b in levels}
    parts.append(table(
        ["ending", *levels],
        [[k, *[pct(shares[b][k]) if k in shares[b] else "0" for b in levels]] for k in kinds]
        + [[what, *[pct(sp[b]["endings"][key]) for b in levels]]
           for key, what in (("repetition", "ended by repetition"),
                             ("stalemate", "stalemate: the side to move cannot move"))
           if key in r.get("special_endings", [])]))
    parts.append(f"<h2>Duration</h2><p class='small'>Playing time at an assumed pace of "
                 f"{r['pace']:g} seconds per ply (<code>--pace</code>), not a measurement of "
                 "people.</p>")
    parts.append(table(
        ["bot", "mean plies (95% t)", "median", "quartiles", "range", "minutes (95% t)"],
        [[b, sp[b]["duration"]["mean"].text("{:.1f}"), sp[b]["duration"].get("median", ""),
          f"{sp[b]['duration'].get('q1', '')}-{sp[b]['duration'].get('q3', '')}",
          f"{sp[b]['duration'].get('min', '')}-{sp[b]['duration'].get('max', '')}",
          sp[b]["duration"]["minutes"].text("{:.1f}")]
         for b in levels]))
    parts.append(plot_duration({b: sp[b]["plies"] for b in levels}))
    parts.append("<h2>Branching factor and board coverage</h2>")
    parts.append(table(["bot", "mean legal moves (95% t)", "board coverage (95% t)"],
                       [[b, sp[b]["branching"]["mean"].text("{:.2f}"),
                         pct(sp[b]["coverage"]) if sp[b]["coverage"].n else "no fixed sites"]
                        for b in levels]))
    parts.append(plot_branching({b: sp[b]["branching"]["profile"] for b in levels},
                                min(n, max(3, n // 10))))
    parts.append("<h2>Drama and lead changes</h2><p class='small'>The evaluator: "
                 f"{r['playouts']} greedy playouts per position (the MCTS bot's leaf "
                 "evaluator). The figures use its side-to-move-neutral form: each point is "
                 "the mean of two consecutive positions, one with each side to move. A "
                 f"player leads above {0.5 + r['margin']:.2f}. A level's figures are left out "
                 "when even the neutral evaluation alternates in sign measurably more often "
                 "than noise.</p>")
    parts.append(table(
        ["bot", "raw changes alternating", "neutral changes alternating",
         "lean to the side to move", "drama (mean deficit)", "drama (max)",
         "winner clearly behind at some point", "lead changes per game", "per ply",
         f"{first}'s score at the start"],
        [[b, "{} of {}".format(*sp[b]["evaluation"]["raw_alternating"]),
          "{} of {}".format(*sp[b]["evaluation"]["neutral_alternating"]),
          sp[b]["evaluation"]["lean"].text("{:+.3f}"),
          _ev_cell(sp[b]["evaluation"], "drama"), _ev_cell(sp[b]["evaluation"], "drama_max"),
          _ev_cell(sp[b]["evaluation"], "comebacks", percent=True),
          _ev_cell(sp[b]["evaluation"], "lead_changes", "{:.2f}"),
          _ev_cell(sp[b]["evaluation"], "lead_change_rate"),
          _ev_cell(sp[b]["evaluation"], "start_eval")] for b in levels]))
    reasons = [f"{b}: {sp[b]['evaluation']['why']}" for b in levels
               if not sp[b]["evaluation"]["supported"]]
    if reasons:
        parts.append("<p class='small'>Left out: " + esc("; ".join(reasons)) + ".</p>")
    top = levels[-1]
    if any(sp[top]["curves"]):
        parts.append(plot_curves(sp[top]["curves"], sp[top]["winners"], top, names))
    parts.append("<h2>The stronger bot wins</h2>")
    parts.append(table(
        ["stronger", "weaker", "wins", "draws", "losses", "score (95%)", "Elo difference"],
        [[p["strong"], p["weak"], pct(p["wins"]), pct(p["draws"]), pct(p["losses"]),
          p["score"].text(), p["elo"].text("{:+.0f}")] for p in r["pairs"]]))
    if r["pairs"]:
        parts.append(plot_pairs(r))
    if r.get("ladder"):
        lad = r["ladder"]
        parts.append("<h2>Skill ladder</h2>")
        parts.append(table(
            ["bot", f"Elo relative to {lad['anchor']}", "95% interval", "what it plays"],
            [[x["bot"], "0 (anchor)" if x["anchor"] else f"{x['elo']:+.0f}",
              "none: the anchor" if x["anchor"] else _elo_range(x["low"], x["high"]),
              r["bots"][x["bot"]]] for x in lad["ratings"]]))
        parts.append(f"<p>Span: <b>{lad['span'].text('{:+.0f}')}</b> Elo "
                     f"({esc(lad['span'].method)}).</p>")
        parts.append(plot_ladder(r))
    parts.append("<h2>Solved facts</h2>" + solved_html(r))
    return "".join(parts)


def solved_html(r: dict[str, Any]) -> str:
    s = r["solver"]
    parts = [f"<p>{esc(next(f['text'] for f in r['findings'] if f['title'] == 'Solved facts'))}"
             "</p>"]
    if s.get("answered"):
        parts.append(table(["opening move", "value for the mover", "plies to the end",
                            "what is proven where the value is not exact"],
                           [[m["move"], "not proven" if m["value"] == "unknown" else m["value"],
                             m["distance"] if m["distance"] is not None else "",
                             m.get("detail") or ""] for m in s["moves"]]))
    return "".join(parts)


def cooperative_sections(r: dict[str, Any]) -> str:
    teams = r["teams"]
    parts = ["<h2>Win rate and actions</h2>"]
    parts.append(table(
        ["bots", "win rate", "actions (95% t)", "actions in won games", "deal's optimum",
         "above optimum (won)"],
        [[b, pct(t["win_rate"]), t["actions"].text("{:.2f}"), t["actions_won"].text("{:.2f}"),
          t["optimum"].text("{:.2f}"), t["excess"].text("{:.2f}")] for b, t in teams.items()]))
    parts.append(plot_team(r))
    if r["paired"]:
        parts.append("<p>Every team played the same deals: the differences are deal by deal "
                     "(the score interval of the deals each team alone won).</p>")
        parts.append(table(["team", "minus team", "win-rate difference (95%)"],
                           [[d["a"], d["b"], d["difference"].text("{:+.3f}")]
                            for d in r["paired"]]))
    parts.append(table(["bots", f"minutes per deal at {r['pace']:g} s per action (95% t)"],
                       [[b, t["duration"]["minutes"].text("{:.1f}")]
                        for b, t in teams.items()]))
    if r["optimum_facts"]:
        parts.append(table(["fact", "value", "source"],
                           [[f["fact"], f["value"], f["source"]] for f in r["optimum_facts"]]))
    parts.append("<h2>Duration</h2>")
    parts.append(plot_duration({b: t["plies"] for b, t in teams.items()}, "actions"))
    return "".join(parts)


def complexity_html(r: dict[str, Any]) -> str:
    c = r["complexity"]
    parts = ["<h2>Complexity</h2>",
             f"<p>{esc(next(f['text'] for f in r['findings'] if f['title'] == 'Complexity'))}</p>"]
    if c["state_space"]:
        parts.append(f"<p class='small'>State-space method: {esc(c['state_space']['method'])}.</p>")
    parts.append("<p class='small'>Game-tree methods: Knuth's estimator (the mean, over "
                 "uniformly random games, of the product of the branching factors met: an "
                 "unbiased estimate of the number of complete games; importance sampling, so it "
                 "gets a bootstrap interval only when Kish's effective sample size of its "
                 "weights reaches 30, and otherwise none); b^d as in Allis (1994) and Ludii's "
                 "GameTreeComplexity, with b the mean branching and d the mean length.</p>")
    return "".join(parts)


def config_body(r: dict[str, Any]) -> str:
    body = ["<h2>Findings</h2>", findings_html(r)]
    body.append(cooperative_sections(r) if r["kind"] == "cooperative" else zero_sum_sections(r))
    body.append(complexity_html(r))
    return "".join(body)


def methods_html(reports: Sequence[dict[str, Any]], settings: dict[str, Any]) -> str:
    r = reports[0]
    bots = table(["bot", "what it plays"], [[b, d] for b, d in r["bots"].items()])
    src = "".join(f"<li>{esc(a)} <span class='small'>{esc(b)}</span></li>" for a, b in SOURCES)
    return (
        "<h2>Method</h2>"
        f"<p>Every figure comes from seeded games played now: {r['games_per_group']} games per "
        "group (self-play at each level; each level against the one below, sides "
        "alternating; uniformly random games for the tree estimate), seed "
        f"{r['seed']}. Games still going after {r['max_plies']} plies count as draws "
        "(timeouts). Intervals are 95%: Wilson for proportions, Student's t for means, "
        "percentile bootstrap (1,000 resamples of the games, seeded) for Knuth's "
        "estimate (given only when enough games carry it); Ludii's balance from the first "
        "mover's score interval; scores (the first mover's, each pair's) use "
        "fourfold.analysis.stats.score_interval; ratings "
        "fourfold.analysis.rating (Bradley-Terry, maximum likelihood) relative to the "
        "weakest bot, the anchor, each rung's interval combining the pairs' intervals "
        "below it (MOVER). No interval is given from fewer than two games. The first "
        "mover is the player who plays the first ply, named as the rules name them.</p>"
        "<p>Ludii's definitions, with two changes stated: lead changes count switches of a "
        f"clear leader (expected score above {0.5 + r['margin']:.2f}) because a playout "
        "evaluator is noisy near 1/2; drama is reported as the mean over the game of "
        "max(0, best evaluation - winner's), on expected scores in [0, 1]. Both use the "
        "side-to-move-neutral evaluation (the mean of two consecutive positions, one with "
        "each side to move), because a playout evaluator leans toward the side to move; "
        "a level's figures are left out when even that series alternates in sign "
        "measurably more than noise. Playing time assumes "
        f"{r['pace']:g} seconds per ply or action.</p>"
        f"{bots}"
        f"<p class='small'>Command: <code>{esc(settings.get('command', ''))}</code></p>"
        f"<h2>Sources</h2><ul>{src}</ul>")


def _compare_rows(r: dict[str, Any]) -> list[tuple[str, Estimate, str]]:
    """The figures compare mode sets side by side: (label, estimate, format)."""
    if r["kind"] == "cooperative":
        rows = []
        for bot in r["levels"]:
            t = r["teams"][bot]
            rows += [(f"{bot}: win rate", t["win_rate"], "%"),
                     (f"{bot}: actions", t["actions"], "{:.2f}")]
        return rows
    top = r["levels"][-1]
    sp = r["self_play"]
    first = f"{r['first_player']['name']}'s score (acts first)"
    rows = [(f"{first}, {bot}", sp[bot]["outcomes"]["first_score"], "{:.3f}")
            for bot in r["levels"]]
    rows += [
        (f"{first}, all levels pooled", r["pooled"]["outcomes"]["first_score"], "{:.3f}"),
        (f"draws, {top}", sp[top]["outcomes"]["draws"], "%"),
        (f"mean plies, {top}", sp[top]["duration"]["mean"], "{:.1f}"),
        ("mean branching", r["all_branching"]["mean"], "{:.1f}"),
        (f"board coverage, {top}", sp[top]["coverage"], "%"),
    ]
    ev = sp[top]["evaluation"]
    if ev["supported"]:
        rows += [(f"drama, {top}", ev["drama"], "{:.3f}"),
                 (f"lead changes, {top}", ev["lead_changes"], "{:.2f}")]
    if r.get("ladder"):
        rows.append(("Elo span", r["ladder"]["span"], "{:+.0f}"))
    return rows


def _fmt(e: Estimate, f: str) -> str:
    return e.text(percent=True) if f == "%" else e.text(f)


def _signed(f: str) -> str:
    return "{:+.1f}" if f == "%" else f.replace("{:", "{:+").replace("++", "+")


def _plain_row(label: str, cells: Sequence[str]) -> list[str]:
    """A row without differences: each value's cell, the difference columns blank."""
    row = [label, cells[0]]
    for cell in cells[1:]:
        row += [cell, ""]
    return row


def compare_html(reports: Sequence[dict[str, Any]], key: str, values: Sequence[str]) -> str:
    """Each figure for every value, and its difference from the first value with a 95%
    interval (MOVER, from the two independent intervals); then overlaid plots."""
    base = _compare_rows(reports[0])
    others = [dict((label, (e, f)) for label, e, f in _compare_rows(r)) for r in reports[1:]]
    rows: list[list[Any]] = []
    for label, e0, f in base:
        cells = [label, _fmt(e0, f)]
        for other in others:
            if label not in other:
                cells += ["left out", ""]
                continue
            e1, _ = other[label]
            d = difference(e1, e0)
            if f == "%":
                d = Estimate(100 * d.value, 100 * d.low, 100 * d.high, d.n, d.method)
            text = d.text(_signed(f)) + (" points" if f == "%" and d.n else "")
            cells += [_fmt(e1, f), text + (" *" if d.excludes(0.0) else "")]
        rows.append(cells)
    if reports[0]["kind"] != "cooperative":
        rows.append(_plain_row("solver's value of the start",
                               [_solved_cell(r) for r in reports]))
    else:
        rows.append(_plain_row("optimum on public information", [
            "; ".join(f["value"] for f in r["optimum_facts"]) or "n/a" for r in reports]))
    rows.append(_plain_row("game tree (Knuth, log10)", [
        r["complexity"]["knuth_random"].text("{:.1f}") if r["complexity"]["knuth_random"]
        else "n/a" for r in reports]))
    head = [key, values[0]]
    for v in values[1:]:
        head += [v, f"{v} minus {values[0]} (95%)"]
    note = ("<p class='small'>Differences: the second value minus the first, with a 95% "
            "interval from the two intervals (the MOVER method of Zou and Donner, 2008; "
            "Newcombe's for two proportions); * marks an interval that excludes zero. "
            + ("The teams played the same deals under each value (the same seeds), but the "
               "interval treats the runs as independent, so it is conservative."
               if reports[0]["kind"] == "cooperative" else
               "Each value's games were played separately, with the same seeds.") + "</p>")
    return ("<h2>Side by side</h2>" + table(head, rows) + note + compare_plots(reports, key,
                                                                                values))


def compare_plots(reports: Sequence[dict[str, Any]], key: str, values: Sequence[str]) -> str:
    """Overlaid plots, one colour per value: the first mover's score by level (or the
    team win rates) with their intervals, and the game lengths."""
    plt = _plt()
    parts = []
    fig, ax = plt.subplots(figsize=(7.5, 2.8))
    r0 = reports[0]
    labels = r0["levels"]
    y = list(range(len(labels)))
    step = 0.8 / len(reports)
    for i, (value, r) in enumerate(zip(values, reports, strict=True)):
        if r["kind"] == "cooperative":
            est = [r["teams"][b]["win_rate"] for b in labels]
            what = "team win rate"
        else:
            est = [r["self_play"][b]["outcomes"]["first_score"] for b in labels]
            what = "first mover's score"
        ys = [v - 0.4 + step * (i + 0.5) for v in y]
        ax.errorbar([e.value for e in est], ys,
                    xerr=[[e.value - e.low for e in est], [e.high - e.value for e in est]],
                    fmt="o", color=COLOURS[i % 7], capsize=3, label=f"{key} = {value}")
    if r0["kind"] != "cooperative":
        ax.axvline(0.5, color="black", lw=0.8, ls=":")
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"{what} (95% interval)")
    legend(ax, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.25),
           ncol=len(values))
    parts.append(svg(fig))
    top = labels[-1]
    plies = {f"{key} = {v}": (r["teams"][top]["plies"] if r["kind"] == "cooperative"
                              else r["self_play"][top]["plies"])
             for v, r in zip(values, reports, strict=True)}
    unit = "actions" if r0["kind"] == "cooperative" else "plies"
    parts.append(plot_duration(plies, f"{unit} ({top}), one line per value"))
    return "".join(parts)


def _solved_cell(r: dict[str, Any]) -> str:
    s = r["solver"]
    if s.get("answered"):
        return (f"{s['value']} for {s['to_move']} "
                f"({s.get('source') or 'solver, now'})")
    if r["solver"].get("skipped"):
        row = r.get("docs_row")
        quoted = f"; docs/solutions.md: {row['value']}" if row else ""
        return f"solver not run (--solve-seconds 0){quoted}"
    row = r.get("docs_row")
    if row:
        return f"no answer in {r['solver']['seconds_limit']:g} s; docs/solutions.md: {row['value']}"
    return f"no answer in {r['solver']['seconds_limit']:g} s"


def render(reports: Sequence[dict[str, Any]], settings: dict[str, Any],
           compare: tuple[str, Sequence[str]] | None = None) -> str:
    title = f"Designer's report: {reports[0]['title']}"
    sub = (f"{esc(reports[0]['game'])}" if compare is None else
           f"{esc(reports[0]['title'])}, comparing {esc(compare[0])} = "
           f"{esc(', '.join(compare[1]))}")
    body = [f"<h1>{esc(title)}</h1><p class='sub'>{sub}. {reports[0]['games_per_group']} "
            "games per group; all intervals 95%.</p>"]
    if compare is not None:
        body.append(compare_html(reports, *compare))
        for value, r in zip(compare[1], reports, strict=True):
            body.append(f"<details open><summary>{esc(compare[0])} = {esc(value)}: "
                        f"{esc(r['game'])}</summary>{config_body(r)}</details>")
    else:
        body.append(config_body(reports[0]))
    body.append(methods_html(reports, settings))
    page = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>"
            + "".join(body) + "</body></html>\n")
    return re.sub(r"\n\s*\n", "\n", page)
