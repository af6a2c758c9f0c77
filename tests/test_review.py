"""``fourfold review``: every ply's values, labels and best moves, checked against what
``fourfold solve --json`` says about the same position (with the same history), on
records of real games played by the bots; estimates are marked as such; bad input is
refused in one line."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from fourfold.cli.main import main
from fourfold.core.record import format_record, parse_records
from support.cli import run_json

CLASS = {"win": 2, "draw": 1, "loss": 0}


@pytest.fixture(autouse=True)
def use_cache(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOURFOLD_CACHE", str(cache))


def played_record(tmp_path: Path, game: str, bots: str, seed: int,
                  capsys: pytest.CaptureFixture[str], max_plies: int = 1000) -> Path:
    path = tmp_path / f"{game}.rec"
    argv = ["match", game, "--bots", bots, "--games", "1", "--seed", str(seed),
            "--max-plies", str(max_plies), "--records", str(path), "--json"]
    assert main(argv) == 0
    capsys.readouterr()
    return path


def solve_before(path: Path, ply: int, game: str, tmp_path: Path,
                 capsys: pytest.CaptureFixture[str], seconds: str = "60") -> Any:
    """``fourfold solve GAME --record`` of the game cut just before ``ply`` (from 1)."""
    record = parse_records(path.read_text())[0]
    cut = dataclasses.replace(record, moves=record.moves[:ply - 1], result="*",
                              termination="")
    part = tmp_path / f"cut-{ply}.rec"
    part.write_text(format_record(cut))
    return run_json(["solve", game, "--record", str(part), "--json", "--seconds", seconds],
                    capsys)


def expected_label(solved: Any, played: dict[str, Any]) -> str:
    """The label the issue defines, from solve's answer: a win to a draw or a draw to a
    loss is a mistake, a win to a loss a blunder; a kept value is best at the best
    distance, else good."""
    drop = CLASS[solved["value"]] - CLASS[played["value"]]
    if drop == 2:
        return "blunder"
    if drop == 1:
        return "mistake"
    top = solved["moves"][0]
    same = (played["value"], played["distance"]) == (top["value"], top["distance"])
    return "best" if same else "good"


def check_exact_ply(ply: dict[str, Any], solved: dict[str, Any]) -> None:
    assert ply["before"] == {"value": solved["value"], "distance": solved["distance"],
                             "exact": True}
    moves = {m["move"]: m for m in solved["moves"]}
    played = moves[ply["move"]]
    assert ply["after"] == {"value": played["value"], "distance": played["distance"],
                            "exact": True}
    assert ply["label"] == expected_label(solved, played)
    top = solved["moves"][0]
    assert set(ply["best"]) == {m["move"] for m in solved["moves"]
                                if (m["value"], m["distance"]) == (top["value"], top["distance"])}


def test_dao_review_agrees_with_fourfold_solve_on_every_ply(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = played_record(tmp_path, "dao", "greedy,level2", 3, capsys, max_plies=80)
    review = run_json(["review", str(path), "--json"], capsys)
    record = parse_records(path.read_text())[0]
    assert [p["move"] for p in review["plies"]] == list(record.moves)
    assert [p["ply"] for p in review["plies"]] == list(range(1, len(record.moves) + 1))
    for ply in review["plies"]:
        solved = solve_before(path, ply["ply"], "dao", tmp_path, capsys)
        assert ply["player"] == solved["to_move"]
        check_exact_ply(ply, solved)
    labels = {p["label"] for p in review["plies"]}
    assert labels & {"mistake", "blunder"}, "the bots' game should hold a real mistake"


def test_quarto_review_is_exact_where_the_solver_answers_and_marks_estimates(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = played_record(tmp_path, "quarto", "greedy,level2", 1, capsys)
    review = run_json(["review", str(path), "--json", "--seconds", "1",
                       "--iterations", "400"], capsys)
    exact = [p for p in review["plies"] if p["source"] == "solver"]
    estimated = [p for p in review["plies"] if p["source"] == "estimate"]
    assert exact and estimated
    for ply in estimated:  # the opening: never claimed exact
        for side in (ply["before"], ply["after"]):
            assert side["exact"] is False and side["estimate"] is True
            assert 0 <= side["score"] <= 1 and side["distance"] is None
    for ply in exact:
        check_exact_ply(ply, solve_before(path, ply["ply"], "quarto", tmp_path, capsys))
    decisive = [p for p in exact if p["label"] in ("mistake", "blunder")]
    assert decisive, "greedy against level2 loses a won or drawn Quarto ending"
    for ply in decisive:
        assert ply["best"] and ply["move"] not in ply["best"]


def test_the_text_review_shows_the_labels_and_the_chart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = played_record(tmp_path, "dao", "greedy,level2", 3, capsys, max_plies=80)
    assert main(["review", str(path)]) == 0
    out = capsys.readouterr().out
    review = run_json(["review", str(path), "--json"], capsys)
    first = next(p for p in review["plies"] if p["label"] in ("mistake", "blunder"))
    assert f"First {first['label']}: ply {first['ply']}" in out
    assert "Value chart" in out
    chart = out[out.index("Value chart"):].splitlines()[2:]
    assert len(chart) == len(review["plies"]) + 1  # the start and after every ply


def test_ice_dao_review_marks_what_the_bounded_solver_could_not_prove(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = played_record(tmp_path, "icedao", "greedy,greedy", 2, capsys, max_plies=10)
    review = run_json(["review", str(path), "--json", "--seconds", "0.3",
                       "--iterations", "200"], capsys)
    assert len(review["plies"]) == 10
    for ply in review["plies"]:
        if ply["after"]["value"] == "unknown" or ply["source"] == "estimate":
            assert ply["after"]["exact"] is False
        if ply["source"] == "estimate":
            assert ply["before"]["exact"] is False and "score" in ply["before"]
        if ply["before"]["exact"] and not ply["after"]["exact"]:
            # proven, but not the move: the position it left is estimated, and said so
            assert ply["estimate"] is True and "score" in ply["after"], ply
            drop = CLASS[ply["before"]["value"]] - CLASS[ply["after"]["value"]]
            assert ply["label"] == {0: "inaccuracy", 1: "mistake"}.get(drop, "blunder"), ply
        assert ply["estimate"] is (not ply["before"]["exact"] or "score" in ply["after"])
    for ply, following in zip(review["plies"], review["plies"][1:], strict=False):
        if ply["before"]["exact"] and following["before"]["exact"]:  # settled by the next
            assert ply["after"]["exact"] and ply["estimate"] is False, ply


def test_a_proven_value_left_for_an_unproven_move_is_labelled_by_its_estimate() -> None:
    from fourfold.analysis.review.judgement import UNKNOWN, estimated, exact
    from fourfold.analysis.review.labels import label
    from fourfold.solve.position import Value

    win, draw = exact(Value.WIN, 3), exact(Value.DRAW, None)
    assert label(win, estimated(0.9), win) == "inaccuracy"
    assert label(win, estimated(0.5), win) == "mistake"
    assert label(win, estimated(0.1), win) == "blunder"
    assert label(draw, estimated(0.2), draw) == "mistake"
    assert label(win, UNKNOWN, win) == "inaccuracy"  # nothing estimated: unproven only


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


def test_review_refuses_bad_input_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.rec"
    assert main(["review", str(missing)]) == 2
    assert "missing.rec" in one_line(capsys)
    garbage = tmp_path / "garbage.rec"
    garbage.write_text("not a record\n")
    assert main(["review", str(garbage)]) == 2
    assert "garbage.rec" in one_line(capsys)
    path = played_record(tmp_path, "dao", "greedy,greedy", 1, capsys, max_plies=6)
    assert main(["review", str(path), "--game", "2"]) == 2
    assert "--game 2" in one_line(capsys)
    for bad in ("0", "-1", "nan"):
        assert main(["review", str(path), "--seconds", bad]) == 2
        assert "--seconds" in one_line(capsys)
    coop = tmp_path / "quatrefoil.rec"
    coop.write_text(format_record(dataclasses.replace(
        parse_records(path.read_text())[0], game="quatrefoil", variant="nothing-to-hide",
        options={}, players=(), moves=(), result="*", termination="")))
    assert main(["review", str(coop)]) == 2  # Quatrefoil's own review: only once it is over
    refused = one_line(capsys)
    assert "once the game is over" in refused and "solution" not in refused


def test_estimates_are_seeded_and_never_exact() -> None:
    import fourfold
    from fourfold.analysis.review.assess import estimate

    game = fourfold.load("quarto")
    state = game.next_state(game.initial_state(), game.legal_moves(game.initial_state())[0])
    first = estimate(game, state, 300, seed=5)
    assert first == estimate(game, state, 300, seed=5)
    assert len(first.moves) == len(game.legal_moves(state))
    assert all(not judged.exact and judged.score is not None for _, judged in first.moves)
    # the position's value is its best move's: the one the search visited most, not the
    # highest mean (a thinly visited move's luck)
    assert len(first.best) == 1 and first.value == first.of(first.best[0])


def test_an_estimated_label_rests_on_a_duel_of_the_move_played_and_the_best() -> None:
    """A drawn Quarto opening once read 'blunder (est.)' on most plies: the position's
    value was the highest mean of up to 240 moves (mostly a thin one's luck) and the move
    played had a handful of visits. Played against the best in a search of their own,
    the quiet opening moves of a level 2 game are no mistakes."""
    import fourfold
    from fourfold.analysis.review.assess import estimate
    from fourfold.analysis.review.labels import BLUNDER, MISTAKE, label

    game = fourfold.load("quarto")
    state = game.initial_state()
    for text in ("TLQH", "a3 SDRH", "d2 TDQF", "c4 SLRH"):
        move = game.parse_move(state, text)
        found = estimate(game, state, 1_000, seed=3, asked=(move,))
        assert label(found.value, found.of(move), found.best_value()) not in (MISTAKE, BLUNDER)
        state = game.next_state(state, move)


def test_the_servers_analysis_values_the_move_played_even_unlisted() -> None:
    """Issue 32's opening complaint: a move handing the opponent a win showed only 'not
    listed' (the analysis lists the best 12). The move played now has its own value."""
    import fourfold
    from fourfold.analysis.match import play_game
    from fourfold.server.analysis import MOVES_SHOWN, _position
    from fourfold.solve.position import solver_for

    game = fourfold.load("quarto")
    entry = solver_for(game)
    assert entry is not None
    match = play_game(game, ("greedy", "greedy"), 3, 0, max_plies=16)
    for state in reversed(match.states[:len(match.moves)]):  # the latest the solver answers
        if len(game.legal_moves(state)) <= MOVES_SHOWN:
            continue
        solution = entry.solve(game, state, 20.0)
        if solution is not None:
            break
    assert solution is not None and len(solution.moves) > MOVES_SHOWN
    worst = solution.moves[-1]  # best first: the last is the worst
    played = game.format_move(state, worst.move)
    item = _position(game, 5, state, played, 20.0)
    assert played not in [m["move"] for m in item["moves"]]
    assert item["played_value"] == {"value": worst.value.value, "distance": worst.distance}


def test_a_move_the_solver_could_not_prove_takes_the_value_of_what_it_left() -> None:
    from fourfold.analysis.review.judgement import Judgement, estimated, exact
    from fourfold.analysis.review.review import Ply, settled
    from fourfold.solve.position import Value

    unproven = Ply(1, "b2-a2", 0, exact(Value.WIN, 3), estimated(0.3), "blunder", ("c4-d4",),
                   "solver")
    assert unproven.estimated
    after_it = Ply(2, "c2-e2", 1, exact(Value.WIN, 5), exact(Value.WIN, 4), "good", ("c5-e3",),
                   "solver")
    first, second = settled([unproven, after_it])
    assert first.after == Judgement("loss", 6, True) and first.label == "blunder"
    assert not first.estimated and second == after_it
    kept = Ply(2, "c2-e2", 1, estimated(0.5), estimated(0.5), "best", (), "estimate")
    assert settled([unproven, kept])[0] == unproven  # an estimate settles nothing
