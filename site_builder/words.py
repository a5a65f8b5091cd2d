"""Counts in messages, as people write them: `1 error`, `2 errors`, `0 warnings`."""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, noun: str) -> str:
    """`count` and `noun`, the noun in the plural unless the count is one (nouns that take
    an `s`: record, file, error, warning)."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
