"""The inputs of cmark-gfm's test/pathological_tests.py, as record bodies.

Each is built here from its description (the counts are cmark-gfm's), so the test data is
a few lines rather than megabytes.
"""

from __future__ import annotations

import itertools


def _reference_collisions() -> str:
    """50,000 reference definitions whose labels all fall into one bucket of a 16-bucket
    table under cmark's old label hash, each followed by a use of the first one."""

    start = ord("x")  # every label is `x<n>`: the hash of the `x` is the same for all

    def collides(label: str) -> bool:
        value = start
        for char in label[1:]:
            # The hash modulo 2**32; masking once at the end gives the same value.
            value = (ord(char) + (value << 6) + (value << 16) - value) & 0xFFFFFFFF
        return value % 16 == 0

    labels = (f"x{n}" for n in itertools.count())
    colliding = itertools.islice((label for label in labels if collides(label)), 50_000)
    first = next(colliding)
    return "".join(f"[{label}]: /url\n\n[{first}]\n\n" for label in colliding)


def inputs() -> dict[str, str]:
    """Description → input, every input of pathological_tests.py (made on each call)."""
    return {**INPUTS, "reference-collisions": _reference_collisions()}


INPUTS: dict[str, str] = {
    "nested-strong-emph": "*a **a " * 65_000 + "b" + " a** a*" * 65_000,
    "emph-closers-without-openers": "a_ " * 65_000,
    "emph-openers-without-closers": "_a " * 65_000,
    "link-closers-without-openers": "a]" * 65_000,
    "link-openers-without-closers": "[a" * 65_000,
    "mismatched-openers-and-closers": "*a_ " * 50_000,
    "openers-and-closers-multiple-of-3": "a**b" + "c* " * 50_000,
    "link-openers-and-emph-closers": "[ a_" * 50_000,
    "pattern-bracket-paren-repeated": "[ (](" * 80_000,
    "pattern-image-brackets-repeated": "![[]()" * 160_000,
    "hard-link-emph-case": "**x [a*b**c*](d)",
    "nested-brackets": "[" * 50_000 + "a" + "]" * 50_000,
    "nested-block-quotes": "> " * 50_000 + "a",
    "deeply-nested-lists": "".join("  " * depth + "* a\n" for depth in range(1_000)),
    "nul-in-input": "abc\u0000de\u0000",
    "backticks": "".join("e" + "`" * count for count in range(1, 5_000)),
    "unclosed-links-a": "[a](<b" * 30_000,
    "unclosed-links-b": "[a](b" * 30_000,
    "unclosed-comment": "</" + "<!--" * 300_000,
    "tables": "aaa\rbbb\n-\v\n" * 30_000,
}
