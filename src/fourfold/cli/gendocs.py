"""Write ``docs/rules/<game>.md`` from the rules texts that ``fourfold rules`` prints.

Run ``python -m fourfold.cli.gendocs [DOCS_DIR]`` after editing a game's ``rules.md``;
``tests/test_docs.py`` fails while the two disagree.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fourfold.cli.commands.rules import rules_document
from fourfold.core.registry import game_names, get_spec

DEFAULT_DIR = Path("docs/rules")


def documents() -> dict[str, str]:
    """File name -> text for every registered game."""
    return {f"{name}.md": rules_document(get_spec(name)) for name in game_names()}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else DEFAULT_DIR
    target.mkdir(parents=True, exist_ok=True)
    for filename, text in documents().items():
        (target / filename).write_text(text, encoding="utf-8")
        print(f"wrote {target / filename}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
