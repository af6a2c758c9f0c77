"""Every route to a solver answers Ice Dao's start from the stored proof certificates:
``fourfold solve`` with or without ``--seconds``, the colour-swapped start, the server's
hint (a real server on loopback), the terminal's hint, ``explore`` and the report's
solved facts. A position the certificates do not settle is still searched, and the
search's exact values beat the certificates' bounds."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import fourfold
from fourfold.analysis.report.solved import docs_row, solver_facts
from fourfold.cli.main import main
from fourfold.games.icedao import solver as icedao
from fourfold.solve.position import Value, solver_for
from support.server import Server, auth, running, tokens_of

GAME = fourfold.load("icedao")
#: Blue's two first moves that keep the quickest win (start-blue-first-moves.json)
WINNING = {"b5-a4", "d5-e4"}
#: the same start with the colours swapped and the board turned: Green's twins of them
GREEN_WINNING = {"b1-a2", "d1-e2"}
#: the pinning position of the worked examples (docs/solutions.md; diagram3.json)
PIN = "Gl,.,Bm,Bs,./.,.,.,.,Gl/Gs,.,.,.,./Bl,Bs,.,Bl,./Gs,Gm,Bm,.,Gm G"
#: the start after c4-c3 b1-b4: no certificate covers it
FAR = "Gl,Bs,Gm,Bs,Gl/.,Gs,.,.,./.,.,Bm,.,./.,.,Gm,.,./Bl,.,Bm,Gs,Bl B"


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The positions the bounded search was asked about (it still runs)."""
    asked: list[str] = []
    real = icedao.solve_within

    def spy(game: Any, state: Any, *args: Any) -> Any:
        asked.append(game.format_position(state))
        return real(game, state, *args)

    monkeypatch.setattr(icedao, "solve_within", spy)
    return asked


def cli(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    code = main(argv)
    return code, out.getvalue(), err.getvalue()


def check_start(moves: list[dict[str, Any]], winning: set[str]) -> None:
    assert {m["move"] for m in moves[:2]} == winning
    assert all((m["value"], m["distance"]) == ("win", 11) for m in moves[:2])
    rest = moves[2:]
    assert len(rest) == 20
    assert all(m["value"] == "unknown" and m["distance"] is None for m in rest)
    # what the certificates prove about each other first move
    assert all(m["detail"] == "Blue cannot force a win within 11 plies" for m in rest)


def test_solve_with_seconds_answers_the_start_at_once(monkeypatch: pytest.MonkeyPatch,
                                                       searches: list[str]) -> None:
    code, out, _ = cli(["solve", "icedao", "--seconds", "60", "--json"], monkeypatch)
    assert code == 0 and searches == []
    answer = json.loads(out)
    assert (answer["value"], answer["distance"], answer["winner"]) == ("win", 11, "Blue")
    assert answer["best_move"] in WINNING and "stored proof certificates" in answer["source"]
    check_start(answer["moves"], WINNING)
    code, out, _ = cli(["solve", "icedao", "--seconds", "60"], monkeypatch)
    assert code == 0 and "Blue to move: win in 11 plies" in out
    assert "exactly 11 plies (not within 9)" in out and "not solved" not in out


def test_the_colour_swapped_start_is_the_same_game(monkeypatch: pytest.MonkeyPatch,
                                                  searches: list[str]) -> None:
    code, out, _ = cli(["solve", "icedao", "--option", "first=green", "--seconds", "60",
                        "--json"], monkeypatch)
    assert code == 0 and searches == []
    answer = json.loads(out)
    assert (answer["to_move"], answer["value"], answer["distance"], answer["winner"]) == \
        ("Green", "win", 11, "Green")
    moves = answer["moves"]
    assert {m["move"] for m in moves[:2]} == GREEN_WINNING
    assert all(m["detail"] == "Green cannot force a win within 11 plies" for m in moves[2:])
    # the twin of each winning move, played, is the twin of Blue's position after it
    green = fourfold.load("icedao", first="green")
    start = green.initial_state()
    for text in GREEN_WINNING:
        after = green.next_state(start, green.parse_move(start, text))
        assert green.format_position(after).endswith(" B")


def test_the_search_s_exact_values_beat_the_certificates_bound(
        monkeypatch: pytest.MonkeyPatch, searches: list[str]) -> None:
    # the certificates alone: a loss within 6 plies at most
    code, out, _ = cli(["solve", "icedao", "--setup", PIN, "--seconds", "20", "--json"],
                       monkeypatch)
    assert code == 0 and searches == [PIN]
    answer = json.loads(out)
    assert (answer["value"], answer["distance"], answer["winner"]) == ("loss", 6, "Blue")
    assert answer["source"] == "search, and stored proof certificates"
    moves = answer["moves"]
    assert len(moves) == len(GAME.legal_moves(GAME.parse_position(PIN))) == 19
    assert moves[0] == {"move": "a3-c5", "value": "loss", "distance": 6}
    assert all((m["value"], m["distance"]) == ("loss", 2) for m in moves[1:])


def test_a_position_the_proofs_do_not_cover_is_searched(monkeypatch: pytest.MonkeyPatch,
                                                       searches: list[str]) -> None:
    code, _, err = cli(["solve", "icedao", "--setup", FAR, "--seconds", "0.3"], monkeypatch)
    assert code == 2 and searches == [FAR] and "no answer within 0.3 seconds" in err
    assert "itself is not solved" not in err


def test_explore_and_the_report_give_the_stored_answer(monkeypatch: pytest.MonkeyPatch,
                                                      searches: list[str]) -> None:
    code, out, _ = cli(["explore", "icedao", "--seconds", "10", "--json"], monkeypatch)
    assert code == 0 and searches == []
    found = json.loads(out)
    assert (found["value"], found["distance"]) == ("win", 11)
    facts = solver_facts(GAME, 5.0)
    assert facts["answered"] and (facts["value"], facts["distance"]) == ("win", 11)
    assert facts["source"] == "stored proof certificates"
    assert {m["move"] for m in facts["moves"] if m["value"] == "win"} == WINNING
    row = docs_row(GAME)
    assert row is not None and "*" not in row["section"] and "_" not in row["section"]
    entry = solver_for(GAME)
    assert entry is not None and "not solved" not in entry.summary


def test_the_terminal_hint_gives_the_stored_answer(searches: list[str]) -> None:
    from test_cli_play_hint import session_output

    text = session_output("icedao", None, "hint\nquit\n")
    assert "Blue to move: win in 11 plies" in text and searches == []
    lines = text.split("Blue to move: win in 11 plies", 1)[1].splitlines()[1:23]
    assert {line.split()[0] for line in lines[:2]} == WINNING
    assert all(line.split()[1:4] == ["win", "in", "11"] for line in lines[:2])
    assert "No hint" not in text


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("icedao-hint")) as s:
        yield s


def test_the_server_hint_gives_the_stored_answer(server: Server, tmp_path: Path) -> None:
    api = server.client()
    try:
        made = api.create(game="icedao", seats=["human", "bot:level1"], seed=1)
        token = tokens_of(made)[0]
        r = api.http.get(f"/api/tables/{made['id']}/hint", headers=auth(token))
        assert r.status_code == 200, r.text
        hint = r.json()
        assert (hint["kind"], hint["value"], hint["distance"]) == ("solver", Value.WIN.value, 11)
        assert {m["move"] for m in hint["moves"][:2]} == WINNING
        assert all(m["distance"] == 11 for m in hint["moves"][:2])
    finally:
        api.http.close()
