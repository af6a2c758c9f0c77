"""Every error raised on purpose is a ``FourfoldError`` (docs/ARCHITECTURE.md, Conventions).

The CLI prints a ``FourfoldError`` as one line and exits 2; a bare ``ValueError``,
``RuntimeError``, ``TypeError`` or ``KeyError`` would reach the user as a traceback.
The scan below reads the source of the packages that raise on the user's behalf and
refuses a ``raise`` of those built-in classes, except an internal invariant (a state
the code itself guarantees, never the user's input), which says so in a comment on
the line above: ``# invariant: <why it cannot happen>``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import fourfold

SOURCE = Path(fourfold.__file__).parent
PACKAGES = ("ai", "kernels", "solve", "analysis", "bench", "cli/commands")
BUILTINS = {"ValueError", "RuntimeError", "TypeError", "KeyError", "IndexError", "Exception"}
MARK = "# invariant:"


def raised_name(node: ast.Raise) -> str | None:
    exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
    if isinstance(exc, ast.Name):
        return exc.id
    if isinstance(exc, ast.Attribute):
        return exc.attr
    return None


def bare_raises(path: Path, root: Path = SOURCE) -> list[str]:
    """``file:line: raise X`` for every unmarked raise of a built-in class in ``path``."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = []
    raises = [n for n in ast.walk(ast.parse(text, filename=str(path))) if isinstance(n, ast.Raise)]
    for node in sorted(raises, key=lambda n: n.lineno):
        if node.exc is None:
            continue
        name = raised_name(node)
        if name not in BUILTINS:
            continue
        above = lines[node.lineno - 2].strip() if node.lineno >= 2 else ""
        if above.startswith(MARK) and above[len(MARK):].strip():
            continue
        found.append(f"{path.relative_to(root)}:{node.lineno}: raise {name}")
    return found


#: the game folders' kernels and solvers (they moved there from kernels/ and solve/)
GAME_PARTS = ("games/*/kernel*.py", "games/*/solver*.py", "games/*/solver*/**/*.py")


def source_files() -> list[Path]:
    found = {p for package in PACKAGES for p in (SOURCE / package).rglob("*.py")}
    found |= {p for pattern in GAME_PARTS for p in SOURCE.glob(pattern)}
    return sorted(found)


def test_the_scan_covers_the_packages() -> None:
    files = {str(p.relative_to(SOURCE)) for p in source_files()}
    for expected in ("ai/random_bot.py", "games/dao/kernel.py", "games/dao/solver/lookup.py",
                     "analysis/tournament.py", "bench/solvers.py", "cli/commands/match.py"):
        assert expected in files


def test_no_bare_builtin_errors_are_raised() -> None:
    offenders = [line for path in source_files() for line in bare_raises(path)]
    assert not offenders, (
        "raise a FourfoldError (fourfold.core.errors) or a subclass, or mark an internal"
        f" invariant with '{MARK} <why>' on the line above:\n" + "\n".join(offenders)
    )


def test_the_scan_finds_what_it_should(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(x):\n"
        "    if x == 1:\n"
        "        raise ValueError('bad')\n"
        "    if x == 2:\n"
        "        raise KeyError\n"
        "    if x == 3:\n"
        "        # invariant: callers never pass 3\n"
        "        raise RuntimeError('three')\n"
        "    if x == 4:\n"
        "        # invariant:\n"
        "        raise TypeError('an empty reason does not count')\n"
        "    raise FourfoldError('fine')\n",
        encoding="utf-8",
    )
    found = [line.split(": ", 1)[1] for line in bare_raises(sample, tmp_path)]
    assert found == ["raise ValueError", "raise KeyError", "raise TypeError"]

