"""The outside solver of Quarto and Folio fixed-grid positions (quarto_outside.c: a plain
negamax in C, written from the rules, sharing no code with fourfold's solvers): building
it, running it, and comparing its answers with stored or fourfold's ones.

Used by tests/test_solve_quarto_outside.py and benchmarks/quarto_outside.py (which writes
tests/data/quarto_outside_positions.json)."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from fourfold.bench.runner import c_compiler  # finding a compiler is no solver code

SOURCE = Path(__file__).with_name("quarto_outside.c")
DATA = Path(__file__).parent.parent / "data" / "quarto_outside_positions.json"

#: the outside solver's name of each ruleset: (game, variant, line_rule option or None)
RULESETS: dict[str, tuple[str, str | None, str | None]] = {
    "quarto": ("quarto", None, None),
    "folio-colours-or-sizes": ("folio", "fixed-grid", None),
    "folio-same-colour-or-size": ("folio", "fixed-grid", "same-colour-or-size"),
}


@dataclass(frozen=True)
class Answer:
    """The value (win, draw or loss for the side to move) and the plies to the end
    (``nodes``: what the outside solver searched for it; not compared)."""

    value: str
    distance: int
    nodes: int | None = field(default=None, compare=False)


def build(directory: Path) -> Path:
    """Compile the outside solver into ``directory``; raises ``RuntimeError`` when no C
    compiler is found or the program does not compile (with the compiler's message)."""
    compiler = c_compiler()
    if compiler is None:
        raise RuntimeError("no C compiler (cc, gcc or clang) on the PATH")
    binary = directory / "quarto_outside"
    done = subprocess.run(
        [compiler, "-O2", "-std=c99", "-o", str(binary), str(SOURCE)],
        capture_output=True, text=True, check=False, timeout=120,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{SOURCE.name} did not compile: {done.stderr.strip()}")
    return binary


def solve(binary: Path, positions: list[tuple[str, str]], timeout: float = 600.0
          ) -> list[Answer]:
    """The outside solver's answers to ``(ruleset, position text)`` pairs, in order."""
    lines = "".join(f"{ruleset} {text}\n" for ruleset, text in positions)
    done = subprocess.run([str(binary)], input=lines, capture_output=True, text=True,
                          check=False, timeout=timeout)
    out = done.stdout.splitlines()
    if done.returncode != 0 or len(out) != len(positions):
        raise RuntimeError(f"the outside solver failed (status {done.returncode}): "
                           f"{(out or [done.stderr.strip()])[-1]}")
    answers = []
    for line in out:
        value, distance, nodes = line.split()
        answers.append(Answer(value, int(distance), int(nodes)))
    return answers


def disagreements(expected: list[Answer], found: list[Answer], names: list[str]) -> list[str]:
    """One line for each position whose answers differ (empty: they all agree)."""
    if len(expected) != len(found):
        return [f"{len(expected)} answers expected, {len(found)} found"]
    return [
        f"{name}: expected {want.value} in {want.distance}, found {got.value} in {got.distance}"
        for name, want, got in zip(names, expected, found, strict=True)
        if want != got
    ]
