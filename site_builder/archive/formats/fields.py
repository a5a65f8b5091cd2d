"""Fields: what a reader found in one file of another tool's format, each with its line.

Readers (nygard, madr, log4brains) are pure functions from a file's text to `Fields`; `settle`
(in `settle.py`) turns Fields into a Record against the site's statuses and the folder's
numbers. Lines are the file's own 1-based lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from site_builder.base.findings import Level

# Relation lines become one of these three kinds of reference.
SUPERSEDES, SUPERSEDED_BY, RELATED = "supersedes", "supersededBy", "related"


@dataclass(frozen=True, slots=True)
class Value:
    """A value as written (`text`: a string, a list, or YAML's own value) and its line."""

    text: Any
    line: int


@dataclass(frozen=True, slots=True)
class Relation:
    """A reference to another record: a link target (`0005-use-go.md`, `../x/adr/y.md`) or
    a record number (`ADR-0123`, `0123`), and what it says (SUPERSEDES, SUPERSEDED_BY or
    RELATED)."""

    kind: str
    target: str
    line: int
    is_link: bool = True


@dataclass(slots=True)
class Fields:
    """Everything one file states about its record, before anything is looked up.

    `values` holds the metadata by key (`title`, `status`, `date`, `deciders`, `tags`,
    `consulted`, `informed`, `description`, `authors`, custom fields…), each with the line
    it was found on; `body` is the text published (the H1 and the metadata lines that became
    fields blanked, leading blank lines dropped), starting at file line `body_line`.
    `problems` are (line, level, message) found while reading.
    """

    reader: str
    values: dict[str, Value] = field(default_factory=dict)
    relations: list[Relation] = field(default_factory=list)
    body: str = ""
    body_line: int = 1
    problems: list[tuple[int, Level, str]] = field(default_factory=list)

    def set(self, key: str, text: Any, line: int) -> None:
        """Keep the first place that states `key`: the first place wins."""
        if key not in self.values and text not in (None, ""):
            self.values[key] = Value(text, line)

    def problem(self, line: int, level: Level, message: str) -> None:
        self.problems.append((line, level, message))
