"""``fourfold analyze``: small runs give valid HTML and JSON with every section; bad
``--compare`` and unknown games or options are one clear line and exit 2."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from fourfold.analysis.report import Config, Settings, analyze
from fourfold.analysis.report.games import Job, play_job, read_cache
from fourfold.cli.commands.analyze import parse_compare
from fourfold.cli.main import main
from fourfold.core.errors import FourfoldError

pytest.importorskip("matplotlib")


class _Checker(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.headings: list[str] = []
        self.svgs = 0
        self._in_h2 = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "svg":
            self.svgs += 1
        if tag == "h2":
            self._in_h2 = True
        if tag not in ("meta", "br", "path", "use", "rect", "circle", "line", "polyline",
                       "stop", "img") and not tag.startswith("svg:"):
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "svg":
            self.svgs += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "h2":
            self._in_h2 = False
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self._in_h2:
            self.headings.append(data.strip())


def _check_page(text: str) -> _Checker:
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert "<script" not in text and "src=" not in text  # self-contained
    checker = _Checker()
    checker.feed(text)
    return checker


def test_icedao_report_html_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ice.html"
    # one worker: the games run in this process, where Ice Dao's kernels compile once (a
    # pool of two compiles them in each process); that workers do not change the
    # results is test_the_same_seed_replays_and_workers_do_not_matter's job
    argv = ["analyze", "icedao", "--games", "4", "--levels", "1,3", "--workers", "1",
            "--playouts", "4", "--solve-seconds", "0.5", "-o", str(out), "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    r = data["reports"][0]
    assert r["kind"] == "zero-sum" and r["levels"] == ["level1", "level3"]
    o = r["self_play"]["level3"]["outcomes"]
    assert set(o) >= {"first_wins", "draws", "first_losses", "balance", "completion",
                      "drawishness", "timeouts"}
    assert o["first_wins"]["n"] == 4 and o["first_wins"]["method"] == "wilson"
    assert 0 <= o["first_wins"]["low"] <= o["first_wins"]["value"] <= o["first_wins"]["high"] <= 1
    ev = r["self_play"]["level3"]["evaluation"]
    assert set(ev) >= {"raw_alternating", "neutral_alternating", "lean", "supported", "why"}
    if ev["supported"]:
        assert set(ev) >= {"drama", "lead_changes", "decided_at", "comebacks"}
    assert r["first_player"] == {"seat": 0, "name": "Blue", "other": "Green"}
    assert r["pairs"][0]["strong"] == "level3" and r["pairs"][0]["wins"]["n"] == 4
    assert r["ladder"]["span"]["n"] == 4
    assert r["ladder"]["ratings"][0] == {"bot": "level1", "elo": 0.0, "low": 0.0,
                                         "high": 0.0, "anchor": True}
    assert r["complexity"]["state_space"]["positions"] == 854_589_098_446_512
    assert r["complexity"]["state_space"]["exact"] is False
    assert r["docs_row"]["ruleset"] == "Ice Dao"
    titles = [f["title"] for f in r["findings"]]
    assert titles == ["Balance", "Decisiveness and drawishness", "How games end",
                      "Duration and playing time", "Branching factor and board coverage",
                      "Drama and lead changes", "The stronger bot wins",
                      "Skill ladder (strategy depth)", "Solved facts", "Complexity"]
    page = _check_page(out.read_text())
    for h in ("Findings", "Balance", "Decisiveness and drawishness", "How games end",
              "Duration", "Branching factor and board coverage", "Drama and lead changes",
              "The stronger bot wins",
              "Skill ladder", "Solved facts", "Complexity", "Method", "Sources"):
        assert h in page.headings
    assert page.svgs >= 6
    assert "Ludii" in out.read_text() and "Browne" in out.read_text()


def test_the_same_seed_replays_and_workers_do_not_matter(tmp_path: Path) -> None:
    config = Config("dao")
    one = analyze([config], Settings(games=2, levels=("level1", "level2"), workers=1,
                                     playouts=2, solve_seconds=0))
    two = analyze([config], Settings(games=2, levels=("level1", "level2"), workers=2,
                                     playouts=2, solve_seconds=0))
    for key in ("self_play", "pairs"):
        assert str(one[0][key]) == str(two[0][key])


def test_the_cache_resumes(tmp_path: Path) -> None:
    cache = tmp_path / "games.jsonl"
    settings = Settings(games=2, levels=("level1", "level2"), playouts=0, solve_seconds=0,
                        cache=cache)
    analyze([Config("quarto")], settings)
    lines = cache.read_text().splitlines()
    assert len(lines) == 2 * 2 + 2 + 2  # two self-play groups, one pair, random games
    settings.games = 3
    seen: list[str] = []
    analyze([Config("quarto")], settings, lambda t: seen.append(t.key))
    assert len(cache.read_text().splitlines()) == 4 * 3  # only the new games were added
    assert len(seen) == 12
    job = Job(Config("quarto"), "self:level1", ("level1", "level1"), 5, 0, 0)
    assert play_job(job) == play_job(job)
    assert len(read_cache(cache)) == 12


def test_cooperative_report_compares_options(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "q.html"
    argv = ["analyze", "quatrefoil", "--variant", "half-and-half", "--compare",
            "face-up=colour,position", "--games", "3", "--levels", "random,quatrefoil",
            "--workers", "1", "-o", str(out), "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["compare"] == {"key": "face-up", "values": ["colour", "position"]}
    for r in data["reports"]:
        assert r["kind"] == "cooperative" and "self_play" not in r and "pairs" not in r
        team = r["teams"]["quatrefoil"]
        assert team["win_rate"]["n"] == 3 and team["optimum"]["n"] == 3
        assert r["optimum_facts"][0]["float"] > 3.4
    assert data["reports"][0]["optimum_facts"][0]["value"].startswith("491/119")
    assert data["reports"][1]["optimum_facts"][0]["value"].startswith("583/119")
    page = _check_page(out.read_text())
    assert "Side by side" in page.headings and "Win rate and actions" in page.headings


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["analyze", "chess"], "unknown game 'chess'"),
        (["analyze", "icedao", "--option", "colour=red"], "unknown option 'colour'"),
        (["analyze", "folio", "--compare", "line-rule"], "not of the form K=V1,V2"),
        (["analyze", "folio", "--compare", "line-rule=colours-or-sizes"], "two or more values"),
        (["analyze", "folio", "--compare", "line-rule=colours-or-sizes,,x"], "none empty"),
        (["analyze", "folio", "--compare", "line-rule=colours-or-sizes,bogus"],
         "must be one of colours-or-sizes, same-colour-or-size"),
        (["analyze", "folio", "--compare", "shape=a,b"], "unknown option 'shape'"),
        (["analyze", "folio", "--compare", "variant=standard,hex"], "valid variants"),
        (["analyze", "icedao", "--compare", "first=blue,blue"], "names a value twice"),
        (["analyze", "icedao", "--compare", "first=blue,green", "--option", "first=green"],
         "cannot both be given"),
        (["analyze", "icedao", "--levels", "1,wizard"], "unknown bot 'wizard'"),
        (["analyze", "icedao", "--levels", "3"], "at least two bots"),
        (["analyze", "icedao", "--games", "0"], "--games"),
        (["analyze", "icedao", "--pace", "0"], "--pace"),
        (["analyze", "icedao", "-o", "line-rule=x"], "not a game option"),
    ],
)
def test_bad_input_is_one_clear_line(argv: list[str], message: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:  # refused by the argument parser
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_parse_compare_returns_the_values() -> None:
    assert parse_compare("line-rule=colours-or-sizes, same-colour-or-size", "folio", None,
                         {}) == ("line-rule", ["colours-or-sizes", "same-colour-or-size"])
    with pytest.raises(FourfoldError):
        parse_compare("variant=standard,fixed-grid", "folio", "standard", {})
