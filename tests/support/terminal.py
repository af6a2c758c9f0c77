"""Driving ``fourfold play`` in the terminal from a test: a scripted person at standard
input (``Player``), a whole session (``play``) and the text after a prompt (``after``)."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterable

import pytest

from fourfold.cli.main import main

Line = str | Callable[[str], str]


class Player:
    """Standard input of a person who types ``script`` first, then, turn after turn, the
    example move that the turn line suggests. A callable in the script receives that
    example and returns the line to type."""

    def __init__(self, out: io.StringIO, script: Iterable[Line] = (), follow: bool = True):
        self.out = out
        self.script = list(script)
        self.follow = follow
        self.lines = 0

    def example(self) -> str:
        turns = [line for line in self.out.getvalue().splitlines() if " to move: " in line]
        return turns[-1].rsplit("e.g. ", 1)[1] if turns else ""

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        self.lines += 1
        if self.lines > 500:
            return ""
        if self.script:
            item = self.script.pop(0)
            return (item(self.example()) if callable(item) else item) + "\n"
        return self.example() + "\n" if self.follow else ""


def play(
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    script: Iterable[Line] = (),
    follow: bool = False,
) -> tuple[int, str, str]:
    """Run ``fourfold play ARGS``; return the exit status, standard output and error."""
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdin", Player(out, script, follow))
    monkeypatch.delenv("NO_COLOR", raising=False)
    code = main(["play", *args])
    return code, out.getvalue(), err.getvalue()


def after(output: str, prompt_answer: str) -> str:
    """The line printed right after the prompt answered with ``prompt_answer``."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if line.endswith("> " + prompt_answer):
            return lines[i + 1]
    raise AssertionError(f"{prompt_answer!r} was never typed:\n{output}")
