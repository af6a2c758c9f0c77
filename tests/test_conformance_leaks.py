"""Conformance: no hidden-information ruleset tells a recipient what it may not know.

The property is checked by construction (see ``leak_harness``): two tables dealt
twin deals that agree on everything a recipient may know are driven through the
same attempted actions, and everything the recipient is sent must be byte-identical
wire JSON. ``benchmarks/leak_property.py`` runs the same cases by the hundred thousand.
"""

from __future__ import annotations

import ast
import dataclasses
from collections import Counter
from pathlib import Path

import pytest

import fourfold.table.table as table_module
from fourfold.core.game import View
from fourfold.games.quatrefoil.game import QuatrefoilGame
from fourfold.games.quatrefoil.state import QuatrefoilState
from support.leak_harness import RECIPIENTS, RULESETS, run_case

SEEDS_PER_PAIR = 75  # 8 rulesets x 5 recipients x 75 = 3,000 cases, about 50 s on 2 cores


@pytest.mark.parametrize("label", [r[0] for r in RULESETS])
def test_no_recipient_learns_a_hidden_card(label: str) -> None:
    counts: Counter[str] = Counter()
    for recipient in RECIPIENTS:
        for i in range(SEEDS_PER_PAIR):
            result = run_case(label, recipient, 7_000_000 + 1000 * i + (recipient or 0) * 7)
            assert result.failure is None, result.failure
            counts["compared" if result.compared else "no twin"] += 1
            counts["trivial" if result.trivial else "hidden"] += result.compared
    assert counts["compared"] >= 0.9 * len(RECIPIENTS) * SEEDS_PER_PAIR
    if label != "nothing-to-hide":
        assert counts["hidden"] > 0, "no twin ever differed from the deal: the test is vacuous"


def test_the_harness_catches_a_planted_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view that shows the north card in the base game must be caught."""
    real_view = QuatrefoilGame.view

    def leaky_view(self: QuatrefoilGame, state: QuatrefoilState, player: int | None) -> View:
        view = real_view(self, state, player)
        return View(view.player, dataclasses.replace(view.observation, north=state.deal.north))

    monkeypatch.setattr(QuatrefoilGame, "view", leaky_view)
    failures = [run_case("base", None, seed).failure for seed in range(10)]
    assert any(f is not None and "leak" in f for f in failures)


# -- statically: the table sends views, never the referee's state ----------------------------

#: game methods the table may hand the referee's state to: ``view``/``revealed_view``
#: filter it; ``actors``, ``to_move`` and ``time_out`` answer public questions (whose turn,
#: the ending of a clock) that every game computes from public facts.
ALLOWED_CALLS = {"view", "revealed_view", "actors", "to_move", "time_out"}
REFEREE = {"state", "states", "start"}


def _referee_access(node: ast.AST) -> bool:
    """``self._match.state`` / ``.states`` / ``.start`` (or ``_match.states[i]``)."""
    if isinstance(node, ast.Subscript):
        node = node.value
    return (isinstance(node, ast.Attribute) and node.attr in REFEREE
            and isinstance(node.value, ast.Attribute) and node.value.attr == "_match")


def test_table_passes_the_referee_state_only_to_view_functions() -> None:
    tree = ast.parse(Path(table_module.__file__).read_text())
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    tainted: set[str] = set()
    offending: list[str] = []

    def allowed_use(node: ast.AST) -> bool:
        parent = parents[node]
        if isinstance(parent, ast.Subscript) and parent.value is node:
            node, parent = parent, parents[parent]
        if isinstance(parent, ast.Call) and node in parent.args:
            func = parent.func
            return isinstance(func, ast.Attribute) and func.attr in ALLOWED_CALLS
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(
                parent.targets[0], ast.Name):
            tainted.add(parent.targets[0].id)  # e.g. ``before = self._match.state``
            return True
        return False

    for node in ast.walk(tree):
        if (isinstance(node, (ast.Attribute, ast.Subscript)) and _referee_access(node)
                and not (isinstance(parents[node], ast.Subscript)
                         and _referee_access(parents[node]))
                and not allowed_use(node)):
            offending.append(f"line {node.lineno}: {ast.unparse(parents[node])}")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Name) and node.id in tainted
                and isinstance(node.ctx, ast.Load) and not allowed_use(node)):
            offending.append(f"line {node.lineno}: {ast.unparse(parents[node])}")
    assert not offending, "the referee's state reaches something other than a view:\n" + \
        "\n".join(offending)


def test_every_event_the_table_builds_carries_a_match_view() -> None:
    tree = ast.parse(Path(table_module.__file__).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "Event":
            view = node.args[3]
            text = ast.unparse(view)
            assert text.startswith("self._match.view(") or text == "rview", text
