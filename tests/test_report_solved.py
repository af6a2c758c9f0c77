"""The designer's report's solved facts: the row of docs/solutions.md each ruleset quotes
(Dao's is "Classic Dao", never Ice Dao's), and the words on a solver's answer (Ice Dao's
value read from its stored proof certificates: exact where they prove it, bounds where
they do not, never "unknown" for a move whose bound is proven)."""

from __future__ import annotations

from pathlib import Path

from fourfold.analysis.report.html import solved_html
from fourfold.analysis.report.solved import docs_row, solved_text, solver_facts
from fourfold.core.registry import load

HEAD = ("| game | value with perfect play from the start | what proved it | how long | "
        "reproduce |\n| --- | --- | --- | --- | --- |\n")


def _table(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "solutions.md"
    path.write_text("# Solutions\n\n" + HEAD + "".join(r + "\n" for r in rows))
    return path


def test_dao_finds_its_row_in_the_docs() -> None:
    dao = docs_row(load("dao"))
    assert dao is not None and dao["ruleset"] == "Classic Dao"
    assert dao["section"] == "Classic Dao" and dao["value"].startswith("draw")
    ice = docs_row(load("icedao"))
    assert ice is not None and ice["ruleset"] == "Ice Dao"


def test_a_longer_title_holding_the_game_s_is_the_other_game_s_row(tmp_path: Path) -> None:
    path = _table(tmp_path,
                  "| Ice Dao | **Blue wins** | certificates (*Ice Dao*) | 1 s | `x` |",
                  "| Classic Dao | draw | retrograde analysis (*Classic Dao*) | 5 s | `y` |")
    dao = docs_row(load("dao"), path)
    assert dao is not None and (dao["ruleset"], dao["value"]) == ("Classic Dao", "draw")
    ice = docs_row(load("icedao"), path)
    assert ice is not None and (ice["ruleset"], ice["value"]) == ("Ice Dao", "Blue wins")
    # no row for Dao at all: Ice Dao's is not taken for it
    only_ice = _table(tmp_path, "| Ice Dao | Blue wins | certificates (*Ice Dao*) | 1 s | x |")
    assert docs_row(load("dao"), only_ice) is None


def test_describing_words_may_not_name_another_variant(tmp_path: Path) -> None:
    path = _table(tmp_path,
                  "| no-grid Folio | Rl wins | search (*Folio*) | 3 min | x |",
                  "| Folio fixed-grid, same-colour-or-size | draw | search (*Folio*) | 3 min | x |",
                  "| Classic Folio fixed-grid, colours-or-sizes | the second player wins "
                  "| search (*Folio*) | 1 h | x |")
    row = docs_row(load("folio", "fixed-grid"), path)
    assert row is not None and row["ruleset"] == "Classic Folio fixed-grid, colours-or-sizes"
    nogrid = docs_row(load("folio", "no-grid"), path)
    assert nogrid is not None and nogrid["ruleset"] == "no-grid Folio"


def test_the_stored_value_of_ice_dao_reads_as_proven() -> None:
    game = load("icedao")
    r = {"solver": solver_facts(game, 5.0), "docs_row": docs_row(game)}
    text = solved_text(r)
    assert text.startswith("The start is a win for Blue, the side to move: Blue forces a "
                           "win within 6 of its moves; the quickest forced win takes "
                           "exactly 11 plies (not within 9).")
    assert "Source: stored proof certificates (read at once, no search)." in text
    assert text.count("stored proof certificates (") == 1 and "unknown" not in text
    assert ("b5-a4 and d5-e4: win in 11 plies; a1-a4, a1-d4, c1-e3 and 17 other moves: "
            "not proven (Blue cannot force a win within 11 plies)") in text
    assert "not solved" not in text and "docs/solutions.md" not in text
    page = solved_html({**r, "findings": [{"title": "Solved facts", "text": text}]})
    assert "<td>b5-a4</td><td>win</td><td>11</td><td></td>" in page
    assert "<td>pass</td><td>not proven</td><td></td><td>Blue cannot force a win within 11 " \
           "plies</td>" in page and "unknown" not in page


def test_without_an_answer_the_docs_row_is_quoted_without_markdown() -> None:
    game = load("icedao")
    r = {"solver": {"solver": "a bounded search", "answered": False, "seconds_limit": 0.5},
         "docs_row": docs_row(game)}
    text = solved_text(r)
    assert text.startswith("The solver found no answer for the start within 0.5 s. "
                           "Solver: a bounded search.")
    assert "section 'Ice Dao') says for Ice Dao: \"Blue (who moves first) wins," in text
    assert "**" not in text and "`" not in text
