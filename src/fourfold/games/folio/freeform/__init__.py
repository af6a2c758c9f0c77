"""Folio freeform: no grid at all; pieces go anywhere on the table (RULES.md §1)."""
