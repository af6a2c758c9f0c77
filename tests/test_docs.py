"""``docs/rules/`` holds exactly what ``fourfold rules GAME`` prints (one source)."""

from __future__ import annotations

from pathlib import Path

from fourfold.cli.gendocs import documents

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def test_rules_docs_are_generated_from_the_rules_texts() -> None:
    for filename, text in documents().items():
        path = DOCS / filename
        assert path.exists(), f"{path} is missing: run python -m fourfold.cli.gendocs"
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} is stale: run python -m fourfold.cli.gendocs"
        )


def test_every_ruling_is_marked() -> None:
    for text in documents().values():
        if "ruling" in text.lower():
            assert "**Ruling" in text
