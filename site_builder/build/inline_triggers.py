"""Inline patterns that cannot match a document are not tried on it.

Python-Markdown tries every inline pattern on every run of text, in priority order, however
short the text: a body of a few kilobytes meets some seven hundred pattern attempts, and most
of them look for a character the body does not contain (`\\`, `<`, `&`, `![`, `~`…). Such a
pattern can never match, so leaving it out changes nothing but the time: inline markup was
two fifths of rendering a body, and this extension takes a quarter of that away.

The decision is made per document, from its text after code blocks and raw HTML blocks were
stashed away, and after reference definitions were read (a reference link cannot resolve in a
document that defines none). Patterns this module does not know are always kept.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from xml.etree.ElementTree import Element

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

# Pattern name → strings one of which any match of it contains (Python-Markdown's and the
# pymdownx patterns the renderer enables; each list was read off the pattern's expression).
TRIGGERS: dict[str, tuple[str, ...]] = {
    "backtick": ("`",),
    "escape": ("\\",),
    "footnote": ("[^",),
    "image_link": ("![",),
    "autolink": ("<",),
    "automail": ("<",),
    "linebreak": ("  \n",),
    "html": ("<",),
    "entity": ("&",),
    "em_strong": ("*", "_"),
    "em_strong2": ("_",),
    "not_strong": ("*", "_"),
    "strong_em": ("*", "_"),
    "delimiter": ("~",),
    "tilde": ("~",),
}
# Patterns that only ever resolve against the document's reference definitions, with their
# triggers as above.
REFERENCE_TRIGGERS: dict[str, tuple[str, ...]] = {
    "reference": ("[",), "short_reference": ("[",),
    "image_reference": ("![",), "short_image_ref": ("![",),
}
_NEEDS = {**TRIGGERS, **REFERENCE_TRIGGERS}

# After the block-level stashes (fenced code 25, raw HTML 20), before anything of ours.
PREPROCESSOR_PRIORITY = 1
# Before `inline` (20), after every tree processor that runs ahead of it (task lists: 25).
TREEPROCESSOR_PRIORITY = 21


class _TriggerScan(Preprocessor):
    """Records which triggers the document's text has; changes nothing."""

    def __init__(self, md: Markdown, triggers: frozenset[str]) -> None:
        super().__init__(md)
        self.triggers = triggers
        self.present: frozenset[str] = triggers

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        self.present = frozenset(t for t in self.triggers if t in text)
        return lines


class _PatternChoice(Treeprocessor):
    """Gives the `inline` tree processor only the patterns that can match this document."""

    def __init__(self, md: Markdown, scan: _TriggerScan) -> None:
        super().__init__(md)
        self.scan = scan
        self._choose = lru_cache(maxsize=64)(self._patterns)

    def run(self, root: Element) -> None:
        inline = self.md.treeprocessors["inline"]
        inline.inlinePatterns = self._choose(self.scan.present, bool(self.md.references))

    def _patterns(self, present: frozenset[str], references: bool) -> list[Any]:
        registry = self.md.inlinePatterns
        known = {registry.get_index_for_name(name): name for name in _NEEDS if name in registry}
        kept = []
        for index, pattern in enumerate(registry):
            name = known.get(index)
            if name is None:
                kept.append(pattern)
            elif name in REFERENCE_TRIGGERS and not references:
                continue
            elif any(t in present for t in _NEEDS[name]):
                kept.append(pattern)
        return kept


class InlineTriggersExtension(Extension):
    """Registers the scan and the choice; add it last, after every pattern is registered."""

    def extendMarkdown(self, md: Markdown) -> None:
        scan = _TriggerScan(md, frozenset(t for needs in _NEEDS.values() for t in needs))
        md.preprocessors.register(scan, "inline_trigger_scan", PREPROCESSOR_PRIORITY)
        md.treeprocessors.register(_PatternChoice(md, scan), "inline_pattern_choice",
                                   TREEPROCESSOR_PRIORITY)
