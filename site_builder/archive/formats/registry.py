"""The formats the reader modules of this package declare, collected once.

Every module of `site_builder.archive.formats` that holds a `FORMAT` (a `declared.Format`)
is a format: adding one is adding its module. The names must be those site.yml allows
(`config_keys.FORMAT_NAMES`, declared below the archive layer as plain data so that config
can check a `format:` value without importing a reader); a mismatch is a programming error,
raised when the package is first imported.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

from site_builder.archive.formats.declared import Format
from site_builder.config.keys import FORMAT_NAMES

_PACKAGE = __name__.rpartition(".")[0]


@functools.cache
def formats() -> tuple[Format, ...]:
    """Every declared format, in rank order (then by name).

    Raises RuntimeError when the declared names are not exactly `FORMAT_NAMES`, or when not
    exactly one format is the fallback.
    """
    package = importlib.import_module(_PACKAGE)
    found = []
    for info in pkgutil.iter_modules(package.__path__):
        declared = getattr(importlib.import_module(f"{_PACKAGE}.{info.name}"), "FORMAT", None)
        if isinstance(declared, Format):
            found.append(declared)
    found.sort(key=lambda f: (f.rank, f.name))
    names = sorted(f.name for f in found)
    if names != sorted(FORMAT_NAMES):
        raise RuntimeError(f"format readers declare {names}, but site.yml allows "
                           f"{sorted(FORMAT_NAMES)} (config_keys.FORMAT_NAMES)")
    if sum(f.fallback for f in found) != 1:
        raise RuntimeError("exactly one format reader must declare fallback=True")
    return tuple(found)


def named(name: str) -> Format:
    """The format called `name`. Raises KeyError for a name no reader declares."""
    for declared in formats():
        if declared.name == name:
            return declared
    raise KeyError(name)


def recognising(text: str, file_name: str | None = None) -> Format:
    """The format one file is in: the first (by rank) that recognises its text, and its
    name when `file_name` is given and the format names its files its own way; else the
    fallback format."""
    for declared in formats():
        if declared.recognises is None or not declared.recognises(text):
            continue
        if file_name is None or declared.file_names is None or \
                declared.file_names.match(file_name):
            return declared
    return next(f for f in formats() if f.fallback)


def has_markers(text: str) -> bool:
    """True when some format recognises `text` (a `Status` or `Date` marker of its own)."""
    return any(f.recognises is not None and f.recognises(text) for f in formats())


def folder_hints() -> tuple[str, ...]:
    """The folders the formats keep records in by default, each once, in rank order."""
    return tuple(dict.fromkeys(folder for f in formats() for folder in f.folders))
