"""One self-contained HTML page: the findings, tables and inline SVG plots (matplotlib,
Agg backend), and the methods and sources. Pure: figures in, a string out."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Sequence
from typing import Any

from fourfold.analysis.report.intervals import Estimate
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
    levels = r["levels"]
    sp = r["self_play"]
    fig, ax = plt.subplots(figsize=(7.5, 2.6))
    y = list(range(len(levels)))
    w = [sp[b]["outcomes"]["first_wins"] for b in levels]
    d = [sp[b]["outcomes"]["draws"].value for b in levels]
    lo = [sp[b]["outcomes"]["first_losses"].value for b in levels]
    ax.barh(y, [e.value for e in w], color=COLOURS[0], label="first player wins")
    ax.barh(y, d, left=[e.value for e in w], color="#b8c0cc", label="draws")
    ax.barh(y, lo, left=[a.value + b for a, b in zip(w, d, strict=True)], color=COLOURS[1],
            label="second player wins")
    ax.errorbar([e.value for e in w], y, xerr=[[e.value - e.low for e in w],
                                               [e.high - e.value for e in w]],
                fmt="none", ecolor="black", capsize=3, lw=1)
    ax.axvline(0.5, color="black", lw=0.8, ls=":")
    ax.set_yticks(y, levels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of self-play games (bars: 95% Wilson interval of first-player wins)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=3, frameon=False)
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
    ax.legend(frameon=False)
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
    ax.legend(frameon=False)
    return svg(fig)


def plot_curves(curves: list[list[float]], winners: list[int | None], bot: str) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 2.8))
    for i, (c, w) in enumerate(zip(curves, winners, strict=False)):
        label = f"game {i}: " + ("draw" if w is None else f"P{w + 1} won")
        ax.plot(range(len(c)), c, marker="o", ms=2.5, lw=1.2, color=COLOURS[i % 7], label=label)
    ax.axhspan(0.35, 0.65, color="#eef2f7", zorder=0)
    ax.axhline(0.5, color="black", lw=0.6, ls=":")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(f"ply ({bot} self-play; shaded: nobody clearly ahead)")
    ax.set_ylabel("P1's expected score")
    ax.legend(frameon=False, fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.22))
    return svg(fig)


def plot_ladder(r: dict[str, Any]) -> str:
    plt = _plt()
    rows = r["ladder"]["ratings"]
    fig, ax = plt.subplots(figsize=(7.5, 2.4))
    y = list(range(len(rows)))
    ax.errorbar([x["elo"] for x in rows], y,
                xerr=[[x["elo"] - x["low"] for x in rows], [x["high"] - x["elo"] for x in rows]],
                fmt="o", color=COLOURS[0], capsize=3)
    ax.set_yticks(y, [x["bot"] for x in rows])
    ax.set_xlabel(f"Elo relative to {rows[0]['bot']} (95% interval)")
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


def zero_sum_sections(r: dict[str, Any]) -> str:
    levels = r["levels"]
    sp = r["self_play"]
    n = r["games_per_group"]
    parts = []
    parts.append("<h2>Balance</h2><p>Each level plays itself; the first player is seat 1. "
                 f"{n} games per level.</p>")
    parts.append(table(
        ["bot", "P1 wins", "draws", "P1 losses", "P1 score", "Ludii balance"],
        [[b, pct(sp[b]["outcomes"]["first_wins"]), pct(sp[b]["outcomes"]["draws"]),
          pct(sp[b]["outcomes"]["first_losses"]), sp[b]["outcomes"]["first_score"].text(),
          sp[b]["outcomes"]["balance"].text()] for b in levels]))
    parts.append(plot_balance(r))
    parts.append("<h2>Decisiveness and drawishness</h2>")
    parts.append(table(
        ["bot", "completion (a winner)", "drawishness (rules)", "timeouts (cap)",
         "decided after (share of game)"],
        [[b, pct(sp[b]["outcomes"]["completion"]), pct(sp[b]["outcomes"]["drawishness"]),
          pct(sp[b]["outcomes"]["timeouts"]), pct(sp[b]["evaluation"]["decided_at"])]
         for b in levels]))
    parts.append("<h2>Duration</h2>")
    parts.append(table(
        ["bot", "mean plies (95% t)", "median", "quartiles", "range"],
        [[b, sp[b]["duration"]["mean"].text("{:.1f}"), sp[b]["duration"].get("median", ""),
          f"{sp[b]['duration'].get('q1', '')}-{sp[b]['duration'].get('q3', '')}",
          f"{sp[b]['duration'].get('min', '')}-{sp[b]['duration'].get('max', '')}"]
         for b in levels]))
    parts.append(plot_duration({b: sp[b]["plies"] for b in levels}))
    parts.append("<h2>Branching factor</h2>")
    parts.append(table(["bot", "mean legal moves (95% t)"],
                       [[b, sp[b]["branching"]["mean"].text("{:.2f}")] for b in levels]))
    parts.append(plot_branching({b: sp[b]["branching"]["profile"] for b in levels},
                                max(3, n // 10)))
    parts.append("<h2>Drama and lead changes</h2><p class='small'>The evaluator: "
                 f"{r['playouts']} greedy playouts per position (the MCTS bot's leaf "
                 "evaluator), giving P1's expected score. A player leads above "
                 f"{0.5 + r['margin']:.2f}.</p>")
    parts.append(table(
        ["bot", "drama (mean deficit)", "drama (max)", "winner clearly behind at some point",
         "lead changes per game",
         "per ply", "P1's score at the start"],
        [[b, sp[b]["evaluation"]["drama"].text(), sp[b]["evaluation"]["drama_max"].text(),
          pct(sp[b]["evaluation"]["comebacks"]),
          sp[b]["evaluation"]["lead_changes"].text("{:.2f}"),
          sp[b]["evaluation"]["lead_change_rate"].text(),
          sp[b]["evaluation"]["start_eval"].text()] for b in levels]))
    top = levels[-1]
    if sp[top]["curves"]:
        parts.append(plot_curves(sp[top]["curves"], sp[top]["winners"], top))
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
        parts.append(table(["bot", "Elo", "95% interval", "what it plays"],
                           [[x["bot"], f"{x['elo']:+.0f}", f"{x['low']:+.0f} to {x['high']:+.0f}",
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
        parts.append(table(["opening move", "value for the mover", "plies to the end"],
                           [[m["move"], m["value"], m["distance"] if m["distance"] is not None
                             else ""] for m in s["moves"]]))
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
                 "unbiased estimate of the number of complete games; heavy-tailed, so read its "
                 "interval as a rough range); b^d as in Allis (1994) and Ludii's "
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
        "percentile bootstrap (1,000 resamples of the games, seeded) for the balance, the "
        "first player's score and Knuth's estimate; match scores use "
        "fourfold.analysis.stats.score_interval, ratings fourfold.analysis.rating "
        "(Bradley-Terry, maximum likelihood) with a bootstrap of the Elo span.</p>"
        "<p>Ludii's definitions, with two changes stated: lead changes count switches of a "
        f"clear leader (expected score above {0.5 + r['margin']:.2f}) because a playout "
        "evaluator is noisy near 1/2; drama is reported as the mean over the game of "
        "max(0, best evaluation - winner's), on expected scores in [0, 1].</p>"
        f"{bots}"
        f"<p class='small'>Command: <code>{esc(settings.get('command', ''))}</code></p>"
        f"<h2>Sources</h2><ul>{src}</ul>")


def compare_html(reports: Sequence[dict[str, Any]], key: str, values: Sequence[str]) -> str:
    rows: list[list[Any]] = []
    r0 = reports[0]
    if r0["kind"] == "cooperative":
        for bot in r0["levels"]:
            rows.append([f"{bot}: win rate"] + [pct(r["teams"][bot]["win_rate"]) for r in reports])
            rows.append([f"{bot}: actions"] + [r["teams"][bot]["actions"].text("{:.2f}")
                                                for r in reports])
        rows.append(["optimum on public information"] + [
            "; ".join(f["value"] for f in r["optimum_facts"]) or "n/a" for r in reports])
    else:
        top = r0["levels"][-1]
        for bot in r0["levels"]:
            rows.append([f"P1 score, {bot}"] + [
                r["self_play"][bot]["outcomes"]["first_score"].text() for r in reports])
        rows += [
            [f"draws, {top}"] + [pct(r["self_play"][top]["outcomes"]["draws"]) for r in reports],
            [f"mean plies, {top}"] + [r["self_play"][top]["duration"]["mean"].text("{:.1f}")
                                      for r in reports],
            ["mean branching"] + [r["all_branching"]["mean"].text("{:.1f}") for r in reports],
            [f"drama, {top}"] + [r["self_play"][top]["evaluation"]["drama"].text()
                                 for r in reports],
            [f"lead changes, {top}"] + [r["self_play"][top]["evaluation"]["lead_changes"]
                                        .text("{:.2f}") for r in reports],
            ["Elo span"] + [r["ladder"]["span"].text("{:+.0f}") if r.get("ladder") else "n/a"
                            for r in reports],
            ["solver's value of the start"] + [_solved_cell(r) for r in reports],
        ]
    rows.append(["game tree (Knuth, log10)"] + [
        r["complexity"]["knuth_random"].text("{:.1f}") if r["complexity"]["knuth_random"]
        else "n/a" for r in reports])
    return ("<h2>Side by side</h2>"
            + table([key, *list(values)], rows))


def _solved_cell(r: dict[str, Any]) -> str:
    if r["solver"].get("answered"):
        return f"{r['solver']['value']} (solver, now)"
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
