"""Counts in messages, as people write them: `1 error`, `2 errors`, `0 warnings`."""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`count` and `noun`, the noun in the plural unless the count is one: `many`, or for
    nouns that take an `s` (record, file, error, warning) the noun and an `s`."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"
