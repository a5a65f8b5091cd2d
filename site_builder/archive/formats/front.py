"""Front matter in another tool's format (MADR 3/4, Log4brains, docs sites): keys → Fields.

Only decision metadata is taken; the keys of the docs site the folder is published with
(Just-the-Docs `parent`, `nav_order`…) are left alone without a word, and any other key is
warned about as a typo guard, as in native records.
"""

from __future__ import annotations

import difflib

from site_builder.archive.formats.fields import RELATED, SUPERSEDED_BY, SUPERSEDES, Fields, Relation
from site_builder.archive.formats.text import read_status
from site_builder.archive.records import split_front_matter
from site_builder.text import yamlfile

# Keys of the docs sites such folders are published with: not decision metadata.
DOCS_SITE_KEYS = frozenset({
    "parent", "grand_parent", "nav_order", "nav_exclude", "has_children", "has_toc", "layout",
    "permalink", "sidebar_position", "sidebar_label", "slug", "id", "weight", "aliases",
    "last_modified_date", "toc", "hide", "search_exclude", "redirect_from", "menu", "type",
})
_LISTS = {"deciders": "deciders", "decision-makers": "deciders", "tags": "tags",
          "consulted": "consulted", "informed": "informed", "authors": "authors"}
_PLAIN = ("title", "date", "description", "draft")
_RELATIONS = {"supersedes": SUPERSEDES, "supersededBy": SUPERSEDED_BY, "related": RELATED}


def read_front(text: str, fields: Fields, custom: frozenset[str]) -> tuple[str, int]:
    """Take the front matter's keys into `fields` (`custom`: declared field names).

    Returns the body after the front matter and the file line it starts on; the text itself
    and line 1 when there is no front matter. Bad YAML is a problem at its line.
    """
    front, body, body_line = split_front_matter(text)
    if front is None:
        return text, 1
    try:
        data, lines = yamlfile.parse_with_lines(front)
    except yamlfile.YamlError as exc:
        fields.problem(exc.line + 1, "error", exc.message)
        return body, body_line
    if data is None:
        return body, body_line
    if not isinstance(data, dict):
        fields.problem(2, "error", "front matter must be a mapping of keys to values")
        return body, body_line
    for key, value in data.items():
        line = lines.get(str(key), 0) + 1
        if key == "status" and isinstance(value, str):
            read_status(value, line, fields)
        elif key in _LISTS:
            fields.set(_LISTS[key], value, line)
        elif key in _PLAIN or key in custom:
            fields.set(str(key), value, line)
        elif key in _RELATIONS:
            items = value if isinstance(value, list) else [value]
            for index, item in enumerate(items):
                at = lines.get(f"{key}.{index}", line - 1) + 1 if isinstance(value, list) else line
                fields.relations.append(Relation(_RELATIONS[key], str(item), at, is_link=False))
        elif key == "status":
            fields.problem(line, "error", f"'status' must be a single status, not {value!r}")
        elif key not in DOCS_SITE_KEYS:
            known = sorted({*_LISTS, *_PLAIN, *_RELATIONS, "status", *custom})
            hint = difflib.get_close_matches(str(key), known, n=1)
            extra = f" (did you mean '{hint[0]}'?)" if hint else ""
            fields.problem(line, "warning", f"unknown key '{key}'{extra}")
    return body, body_line
