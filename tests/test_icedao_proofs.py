"""Ice Dao's proof-number search, its certificates and their independent checker
(fourfold.solve.pns, fourfold.solve.certificates, games/icedao/proofs/, issue 34)."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from fourfold.cli.main import main
from fourfold.core.errors import FourfoldError
from fourfold.core.registry import load
from fourfold.games.icedao import solver as icedao
from fourfold.games.icedao.proof_build import DIAGRAMS
from fourfold.games.icedao.proof_hooks import PROOFS
from fourfold.solve.certificates import Certificate, check
from fourfold.solve.pns.dfpn import Claim, DfPn, Status
from fourfold.solve.pns.pieces import Piece, run_piece
from fourfold.solve.pns.prove import settle
from fourfold.solve.pns.stored import index_entries, stored_bound
from fourfold.solve.pns.table import DiskTable

GAME = load("icedao")
BLUE, GREEN = 0, 1


def settled(position: str | None, attacker: int, moves: int) -> tuple[Status, Certificate]:
    state = GAME.initial_state() if position is None else GAME.parse_position(position)
    status, certificate = settle(GAME, state, attacker, moves)
    assert certificate is not None
    return status, certificate


def tampered(certificate: Certificate, at: int, choice: int) -> Certificate:
    choices = list(certificate.choices)
    choices[at] = choice
    return dataclasses.replace(certificate, choices=tuple(choices))


# -- the search against the bounded solver -------------------------------------------------------


def test_dfpn_agrees_with_the_bounded_solver_on_random_positions(tmp_path: Path) -> None:
    rng = random.Random(34)
    assert isinstance(GAME, icedao.IceDaoGame)
    seen = {True: 0, False: 0}
    for i in range(40):
        state = icedao.random_position(GAME, rng)
        if GAME.outcome(state) is not None:
            continue
        board, side = icedao.ProofSearch.key_of(state)
        for n in (1, 2):
            expected = icedao.ProofSearch(GAME).win_within(board, side, n)
            table = DiskTable(tmp_path / f"t{i}-{n}.sqlite")
            status = DfPn(PROOFS.positions(GAME), table, Claim(side, n)).run((board, side))
            table.close()
            assert status is (Status.PROVEN if expected else Status.DISPROVEN), \
                GAME.format_position(state)
            seen[expected] += 1
    assert seen[True] and seen[False]


def test_fast_successors_follow_the_readable_rules_in_order() -> None:
    rng = random.Random(3434)
    assert isinstance(GAME, icedao.IceDaoGame)
    positions = PROOFS.positions(GAME)
    for _ in range(200):
        state = icedao.random_position(GAME, rng)
        if GAME.outcome(state) is not None:
            continue
        expected = []
        for move in GAME.legal_moves(state):
            child = GAME.next_state(state, move)
            outcome = GAME.outcome(child)
            won = outcome is not None and outcome.winner == state.to_play
            expected.append((PROOFS.position_of(GAME, child), won))
        assert positions.successors(PROOFS.position_of(GAME, state)) == expected
        assert positions.wins_at_once(PROOFS.position_of(GAME, state)) == \
            any(won for _, won in expected)


def test_a_piece_stops_saves_and_resumes_on_its_table(tmp_path: Path) -> None:
    start = GAME.format_position(GAME.initial_state())
    piece = Piece("icedao", start, BLUE, 3, str(tmp_path / "t.sqlite"), seconds=0.0)
    first = run_piece(piece)
    assert first.status == "open" and first.entries > 0
    rest = run_piece(dataclasses.replace(piece, seconds=None))
    assert rest.status == "disproven"
    assert rest.total_nodes == first.nodes + rest.nodes
    again = run_piece(piece)  # settled: nothing more to do
    assert (again.status, again.nodes) == ("disproven", 0)
    with pytest.raises(FourfoldError, match="belongs to another claim"):
        run_piece(dataclasses.replace(piece, moves=4))
    with pytest.raises(FourfoldError, match="has seats 0 to 1"):
        run_piece(dataclasses.replace(piece, attacker=2))
    with pytest.raises(FourfoldError, match="give 1 to 255 moves"):
        run_piece(dataclasses.replace(piece, moves=0))


def test_pieces_run_as_tasks_of_the_task_runner(tmp_path: Path) -> None:
    from fourfold.distributed.runner import run_tasks

    start = GAME.format_position(GAME.initial_state())
    pieces = [Piece("icedao", start, side, 2, str(tmp_path / f"side{side}.sqlite"), None)
              for side in (BLUE, GREEN)]
    reports = run_tasks(run_piece, pieces, workers=1, progress=False)
    assert [r.status for r in reports] == ["disproven", "disproven"]
    assert all(r.entries > 0 for r in reports)


# -- certificates and the checker ----------------------------------------------------------------


@pytest.mark.parametrize(("attacker", "moves"), [(BLUE, 3), (GREEN, 3)])
def test_a_small_bound_from_the_start_checks(attacker: int, moves: int) -> None:
    status, certificate = settled(None, attacker, moves)
    assert status is Status.DISPROVEN
    again = Certificate.from_json(certificate.to_json())
    assert again == certificate
    verdict = check(again)
    assert verdict.accepted, verdict.describe()
    assert certificate.plies() == 2 * moves - (attacker == BLUE)


def test_a_tampered_win_is_refused_at_the_changed_node() -> None:
    # Diagram 1: Blue wins on her move whatever Green plays; choice k is Blue's answer to
    # Green's k-th legal move.
    _, certificate = settled(DIAGRAMS["diagram1"], BLUE, 1)
    assert check(certificate).accepted
    state = GAME.parse_position(DIAGRAMS["diagram1"])
    k = 5
    green = GAME.legal_moves(state)[k]
    after = GAME.next_state(state, green)
    losing = next(i for i, m in enumerate(GAME.legal_moves(after))
                  if GAME.outcome(GAME.next_state(after, m)) is None)
    verdict = check(tampered(certificate, k, losing))
    assert not verdict.accepted
    assert verdict.line == (GAME.format_move(state, green),
                            GAME.format_move(after, GAME.legal_moves(after)[losing]))
    assert verdict.reason == "the attacker's last move does not win"
    out_of_range = check(tampered(certificate, k, 99))
    assert out_of_range.line == (GAME.format_move(state, green),)
    assert out_of_range.reason.startswith("choice 99 but only")


def test_a_tampered_no_win_is_refused_where_the_attacker_wins() -> None:
    # After Green's pin in diagram 3 Blue cannot win within 2 moves; choice k is Green's
    # reply to Blue's k-th move. Make it a reply after which Blue wins at once, and the
    # checker names the line to that Blue win.
    pinned = GAME.format_position(GAME.play(GAME.parse_position(DIAGRAMS["diagram3"]), "a3-c5"))
    _, certificate = settled(pinned, BLUE, 2)
    assert check(certificate).accepted
    state = GAME.parse_position(pinned)
    for k, blue in enumerate(GAME.legal_moves(state)):
        after = GAME.next_state(state, blue)
        for j, green in enumerate(GAME.legal_moves(after)):
            reply = PROOFS.forget(GAME.next_state(after, green))
            wins = [m for m in GAME.legal_moves(reply)
                    if GAME.outcome(GAME.next_state(reply, m)) is not None]
            if wins:
                verdict = check(tampered(certificate, k, j))
                assert not verdict.accepted
                assert verdict.line == (GAME.format_move(state, blue),
                                        GAME.format_move(after, green),
                                        GAME.format_move(reply, wins[0]))
                assert verdict.reason == "the attacker wins at once with this move"
                return
    pytest.fail("no Green reply lets Blue win at once")


def test_a_cut_or_padded_certificate_is_refused() -> None:
    _, certificate = settled(None, GREEN, 2)
    cut = check(dataclasses.replace(certificate, choices=certificate.choices[:-1]))
    assert not cut.accepted and "a choice is missing" in cut.reason
    padded = check(dataclasses.replace(certificate, choices=(*certificate.choices, 0)))
    assert not padded.accepted and "left over" in padded.reason
    deeper = check(dataclasses.replace(certificate, moves=3))
    assert not deeper.accepted


def test_unreadable_certificates_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(FourfoldError, match="not a readable certificate"):
        Certificate.from_json('{"format": "something else"}', "x.json")
    with pytest.raises(FourfoldError, match="cannot read the certificate"):
        Certificate.read(tmp_path / "missing.json")


# -- the committed certificates -------------------------------------------------------------------


def committed() -> list[tuple[str, int, Certificate]]:
    return [(p.name, i, c) for p in sorted(PROOFS.folder.glob("*.json")) if p.name != "index.json"
            for i, c in enumerate(Certificate.read_all(p))]


#: certificates larger than this are checked by ``python -m fourfold.solve.certificates``
#: (docs/solutions.md gives the command and its time), not by every test run
TEST_CHOICES = 100_000
#: files whose *no-win* certificates that command checks, all but the smallest, instead
#: of every test run (Blue's 20 first moves that do not win in 11 plies)
COMMAND_CHECKED = frozenset({"start-blue-first-moves.json"})


def checked_here() -> list[tuple[str, int, Certificate]]:
    every = [c for c in committed() if len(c[2].choices) <= TEST_CHOICES]
    sample = {name: min((c for c in every if c[0] == name and c[2].claim == "no-win"),
                        key=lambda c: len(c[2].choices))[1]
              for name in COMMAND_CHECKED if any(c[0] == name for c in every)}
    return [c for c in every if c[0] not in COMMAND_CHECKED or c[2].claim == "win"
            or sample.get(c[0]) == c[1]]


@pytest.mark.parametrize("name, item, certificate", checked_here(),
                         ids=lambda v: str(v) if not isinstance(v, Certificate) else "")
def test_every_committed_certificate_checks(name: str, item: int,
                                            certificate: Certificate) -> None:
    verdict = check(certificate)
    assert verdict.accepted, f"{name} [{item}]: {verdict.describe()}"


def test_the_index_lists_the_committed_certificates() -> None:
    listed = [(e["file"], e["item"], e["claim"], e["attacker"], e["moves"], e["position"])
              for e in index_entries(PROOFS)]
    assert listed == [(n, i, c.claim, c.attacker, c.moves, c.position)
                      for n, i, c in committed()]


def test_the_diagrams_answer_greens_question() -> None:
    by_file: dict[str, list[Certificate]] = {}
    for name, _, certificate in committed():
        by_file.setdefault(name, []).append(certificate)
    # 3: Blue wins within 3 moves whatever Green does; after the pin a3-c5 not within 2,
    # after each other move at once: the pin is Green's best move, a loss in 6 plies
    pin = GAME.parse_position(DIAGRAMS["diagram3"])
    win3, after_pin, *others = by_file["diagram3.json"]
    assert (win3.position, win3.claim, win3.attacker, win3.moves) == \
        (DIAGRAMS["diagram3"], "win", BLUE, 3)
    pinned = GAME.format_position(GAME.play(pin, "a3-c5"))
    assert (after_pin.position, after_pin.claim, after_pin.moves) == (pinned, "no-win", 2)
    rest = {GAME.format_position(GAME.next_state(pin, m)) for m in GAME.legal_moves(pin)
            if GAME.format_move(pin, m) != "a3-c5"}
    assert {c.position for c in others} == rest
    assert all((c.claim, c.attacker, c.moves) == ("win", BLUE, 1) for c in others)
    # 2: Green wins within 3 moves and not within 2
    claims = {(c.claim, c.attacker, c.moves) for c in by_file["diagram2.json"]}
    assert claims == {("win", GREEN, 3), ("no-win", GREEN, 2)}


# -- fourfold solve icedao ------------------------------------------------------------------


def run_cli(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    code = main(argv)
    return code, out.getvalue()


def test_solve_from_the_start_reads_the_stored_value(monkeypatch: pytest.MonkeyPatch) -> None:
    from fourfold.solve.pns.stored import stored_value

    searched: list[str] = []

    def no_search(game: Any, state: Any, *args: Any) -> None:
        searched.append(GAME.format_position(state))  # and find nothing

    monkeypatch.setattr(icedao, "solve_within", no_search)
    start = GAME.format_position(GAME.initial_state())
    # the no-win bounds are still read (Blue not within 5 moves, Green not within 6)
    bound = stored_bound(GAME, GAME.initial_state())
    assert bound is not None
    blue, green = bound.no_win_moves
    assert bound.no_forced_win_within() == min(2 * blue - 1, 2 * green)
    # and the value: a committed certificate proves Blue's win within 6 moves, another
    # that she has none within 5, so the quickest forced win takes exactly 11 plies
    value = stored_value(GAME, GAME.initial_state())
    assert value is not None and (value.winner, value.moves, value.exact) == (BLUE, 6, True)
    assert any((c.position, c.claim, c.attacker, c.moves) == (start, "win", BLUE, 6)
               for _, _, c in committed())
    assert blue == 5 and any((c.position, c.claim, c.attacker, c.moves) ==
                             (start, "no-win", BLUE, 5) for _, _, c in committed())
    code, text = run_cli(["solve", "icedao", "--json"], monkeypatch)
    assert code == 0
    answer = json.loads(text)
    assert (answer["value"], answer["winner"], answer["distance"], answer["win_within"]) == \
        ("win", "Blue", 11, 11)
    first = GAME.initial_state()
    assert answer["best_move"] in [GAME.format_move(first, m) for m in GAME.legal_moves(first)]
    code, text = run_cli(["solve", "icedao"], monkeypatch)
    assert code == 0 and "exactly 11 plies (not within 9)" in text
    assert searched == []  # the start is answered from the certificates alone
    # a position whose certificates prove a win that may not be the quickest: with no
    # search, the answer is the bound (the search, when it runs, gives the exact 6 plies:
    # tests/test_icedao_stored_routes.py)
    code, text = run_cli(["solve", "icedao", "--setup", DIAGRAMS["diagram3"], "--json"],
                         monkeypatch)
    answer = json.loads(text)
    assert (answer["value"], answer["winner"], answer["distance"]) == ("loss", "Blue", None)
    assert "at most 6 plies" in answer["detail"]


# -- the lemma and the certificates written on the compiled kernel -------------------------------


def test_the_lemma_agrees_with_the_kernel_and_never_misses_a_win() -> None:
    from fourfold.games.icedao.proof_bound import moves_needed
    from fourfold.games.icedao.proof_kernel import KernelWalk

    rng = random.Random(343)
    assert isinstance(GAME, icedao.IceDaoGame)
    search = icedao.ProofSearch(GAME)
    seen: set[int] = set()
    for _ in range(150):
        state = icedao.random_position(GAME, rng)
        if GAME.outcome(state) is not None:
            continue
        for side in (BLUE, GREEN):
            needed = moves_needed(GAME, state, side)
            walk = KernelWalk(GAME, side)
            walk.engine.load(state)
            assert walk.moves_needed() == needed, GAME.format_position(state)
            seen.add(needed)
        mover = state.to_play
        needed = moves_needed(GAME, state, mover)
        board, _ = icedao.ProofSearch.key_of(state)
        for n in range(1, min(needed, 3)):  # the lemma says: no win within n
            assert not search.win_within(board, mover, n), GAME.format_position(state)
    assert {1, 2} <= seen  # (a full set keeps two squares on some line: 3 is rare)
    # without a Green small on the board the lemma says nothing about Blue
    bare = GAME.parse_position("Bl,.,.,.,./.,.,.,.,./.,.,Gl,.,./.,.,.,.,./Bs,.,.,.,. B")
    assert moves_needed(GAME, bare, BLUE) == 1
    assert moves_needed(GAME, bare, GREEN) == 3


@pytest.mark.parametrize(("attacker", "moves"), [(BLUE, 3), (GREEN, 3)])
def test_the_kernel_writer_s_certificates_check(attacker: int, moves: int) -> None:
    from fourfold.games.icedao.proof_kernel import write_no_win

    certificate, _ = write_no_win(GAME, GAME.initial_state(), attacker, moves)
    assert certificate is not None and certificate.bound == "icedao-lines"
    again = Certificate.from_json(certificate.to_json())
    assert again == certificate and '"fourfold-certificate 2"' in certificate.to_json()
    verdict = check(again)
    assert verdict.accepted, verdict.describe()
    # the same walk without the lemma reads more choices; with a lemma it does not name,
    # or without the one it names, the checker refuses
    plain, _ = write_no_win(GAME, GAME.initial_state(), attacker, moves, bound=False)
    assert plain is not None and plain.bound == "" and check(plain).accepted
    assert len(plain.choices) >= len(certificate.choices)
    unknown = check(dataclasses.replace(certificate, bound="no-such-lemma"))
    assert not unknown.accepted and "no lemma named 'no-such-lemma'" in unknown.reason
    if len(plain.choices) > len(certificate.choices):
        assert not check(dataclasses.replace(certificate, bound="")).accepted


def test_the_kernel_writer_refuses_a_false_claim() -> None:
    from fourfold.games.icedao.proof_kernel import write_no_win

    # diagram 2: Green wins within 3 moves, so "no win within 3" cannot be written
    state = GAME.parse_position(DIAGRAMS["diagram2"])
    with pytest.raises(FourfoldError, match="the claim is false"):
        write_no_win(GAME, state, GREEN, 3)
    certificate, _ = write_no_win(GAME, state, GREEN, 2)
    assert certificate is not None and check(certificate).accepted


def test_the_kernel_writer_stops_saves_and_resumes_on_its_journal(tmp_path: Path) -> None:
    from fourfold.games.icedao.proof_kernel import main as write_main

    journal, out = tmp_path / "j.sqlite", tmp_path / "c.json"
    assert write_main(["1", "3", str(journal), str(out), "--seconds", "0"]) == 0
    assert not out.exists()
    assert write_main(["1", "3", str(journal), str(out)]) == 0
    resumed = Certificate.read(out)
    assert check(resumed).accepted
    assert write_main(["0", "3", str(journal), str(out)]) == 1  # another claim's journal
    assert write_main(["2", "3", str(journal), str(out)]) == 1


def test_kernel_pieces_run_as_tasks_of_the_task_runner(tmp_path: Path) -> None:
    from fourfold.distributed.runner import run_tasks
    from fourfold.games.icedao.proof_kernel import KernelPiece, run_kernel_piece

    pieces = [KernelPiece(side, 2, str(tmp_path / f"j{side}.sqlite"),
                          str(tmp_path / f"{side}.json")) for side in (BLUE, GREEN)]
    reports = run_tasks(run_kernel_piece, pieces, workers=1, progress=False)
    assert [r.status for r in reports] == ["written", "written"]
    assert all(check(Certificate.read(p.out)).accepted for p in pieces)


def test_the_null_window_test_agrees_with_the_full_search_and_the_solver() -> None:
    from fourfold.games.icedao import kernel as k
    from fourfold.games.icedao.kernel_engine import IceDaoEngine
    from fourfold.games.icedao.proof_search import attacker_wins_within
    from fourfold.kernels.search import WIN

    rng = random.Random(3434_2)
    assert isinstance(GAME, icedao.IceDaoGame)
    search = icedao.ProofSearch(GAME)
    engine = IceDaoEngine(GAME)
    seen = {True: 0, False: 0}
    for _ in range(40):
        state = icedao.random_position(GAME, rng)
        if GAME.outcome(state) is not None:
            continue
        board, mover = icedao.ProofSearch.key_of(state)
        for attacker in (BLUE, GREEN):
            for plies in (1, 2, 3, 4, 5):
                engine.load(state)
                engine.st[k.S_KEYS] = 0
                won, nodes = attacker_wins_within(engine, attacker, plies, 1 << 40)
                assert nodes > 0
                full = engine.search(engine.legal(), plies, 1 << 40)
                best = max(full.values)
                expected = best >= WIN - plies if mover == attacker else best <= -(WIN - plies)
                assert won == expected, (GAME.format_position(state), attacker, plies)
                if mover == attacker and plies in (1, 3):
                    assert won == search.win_within(board, mover, (plies + 1) // 2)
                seen[won] += 1
    assert seen[True] and seen[False]
    with pytest.raises(RuntimeError, match="node limit"):
        engine.load(GAME.initial_state())
        attacker_wins_within(engine, BLUE, 7, 10)


def test_the_kernel_win_writer_s_certificates_check(tmp_path: Path) -> None:
    from fourfold.games.icedao.proof_win import main as win_main
    from fourfold.games.icedao.proof_win import write_win

    # diagram 3: Blue wins within 3 moves whatever Green does
    state = GAME.parse_position(DIAGRAMS["diagram3"])
    certificate, _ = write_win(GAME, state, BLUE, 3)
    assert certificate is not None and certificate.claim == "win"
    assert check(Certificate.from_json(certificate.to_json())).accepted
    # diagram 2: Green wins within 3 (its first move a quickest win), not within 2
    certificate, _ = write_win(GAME, GAME.parse_position(DIAGRAMS["diagram2"]), GREEN, 3)
    assert certificate is not None and check(certificate).accepted
    with pytest.raises(FourfoldError, match="the claim is false"):
        write_win(GAME, GAME.parse_position(DIAGRAMS["diagram2"]), GREEN, 2)
    # stopped at once, then resumed on its journal
    journal, out = tmp_path / "j.sqlite", tmp_path / "c.json"
    args = ["0", "3", str(journal), str(out), "--setup", DIAGRAMS["diagram3"]]
    assert win_main([*args, "--seconds", "0"]) == 0 and not out.exists()
    assert win_main(args) == 0
    assert check(Certificate.read(out)).accepted
    assert win_main(["1", "3", str(journal), str(out), "--setup", DIAGRAMS["diagram3"]]) == 1
    assert win_main(["2", "3", str(journal), str(out)]) == 1


def test_blue_s_quickest_first_moves_are_certified() -> None:
    # after each of Blue's first moves a certificate: she wins within 5 more moves (11
    # plies in all) or she cannot; the two that do are mirror images
    start = GAME.initial_state()
    claims = {(c.position, c.claim, c.attacker, c.moves) for _, _, c in committed()}
    winning = []
    for move in GAME.legal_moves(start):
        after = GAME.format_position(PROOFS.forget(GAME.next_state(start, move)))
        wins = (after, "win", BLUE, 5) in claims
        assert wins != ((after, "no-win", BLUE, 5) in claims), GAME.format_move(start, move)
        if wins:
            winning.append(GAME.format_move(start, move))
    assert winning == ["b5-a4", "d5-e4"]
