"""Front matter in another tool's format (MADR 3/4, Log4brains, docs sites): keys → Fields.

Only decision metadata is taken; the keys of the site generator the folder is published with
(Jekyll, Just the Docs, VitePress, Docusaurus: `parent`, `nav_order`, `layout`, `slug`…) are
left alone without a word, and any other key is warned about as a typo guard, as in native
records. Front matter may follow comments and blank lines (an SPDX licence header).
"""

from __future__ import annotations

import difflib
import re

from site_builder.archive.formats.fields import RELATED, SUPERSEDED_BY, SUPERSEDES, Fields, Relation
from site_builder.archive.formats.status import read_status, title_of
from site_builder.archive.records import split_front_matter
from site_builder.text import yamlfile

# Keys of the site generators such folders are published with: not decision metadata.
DOCS_SITE_KEYS = frozenset({
    # Jekyll and Just the Docs
    "parent", "grand_parent", "nav_order", "nav_exclude", "nav_fold", "has_children", "has_toc",
    "layout", "permalink", "last_modified_date", "search_exclude", "redirect_from", "categories",
    "excerpt", "published", "render_with_liquid", "child_nav_order",
    # Hugo and MkDocs
    "weight", "aliases", "toc", "hide", "menu", "type", "url", "linkTitle", "summary",
    # Docusaurus
    "id", "slug", "sidebar_position", "sidebar_label", "sidebar_class_name", "sidebar_custom_props",
    "pagination_label", "pagination_next", "pagination_prev", "custom_edit_url", "keywords",
    "image", "hide_title", "hide_table_of_contents", "toc_min_heading_level",
    "toc_max_heading_level", "displayed_sidebar",
    # VitePress and the teams' own generators
    "outline", "aside", "lastUpdated", "editLink", "prev", "next", "navbar", "sidebar", "footer",
    "head", "titleTemplate", "pageClass", "github_org", "github_repo", "github_source_path",
})
# Comments and blank lines that may come before the front matter (`<!-- SPDX-… -->`).
_LEAD = re.compile(r"\A(?:[ \t]*\n|[ \t]*<!--.*?-->[ \t]*\n)+(?=---\n)", re.DOTALL)
_LISTS = {"deciders": "deciders", "decision-makers": "deciders", "tags": "tags",
          "consulted": "consulted", "informed": "informed", "authors": "authors",
          "author": "authors"}
# Other names teams give the date (`date-issued`, LBHackney-IT/Data-Platform-Playbook), read
# when no `date` is written.
_DATES = ("date-issued", "date_issued", "issued")
# A line of a flat mapping, for front matter YAML cannot read (`author: @jstvz`).
_FLAT_LINE = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*$")
_PLAIN = ("title", "date", "description", "draft")
_RELATIONS = {"supersedes": SUPERSEDES, "supersededBy": SUPERSEDED_BY, "related": RELATED}


def front_of(text: str) -> tuple[str | None, str, int, int]:
    """(front matter or None, body, body's first file line, front matter's first line less
    one) of `text`, whose front matter may follow comments and blank lines."""
    lead = _LEAD.match(text) if text[:1] in "\n <" else None
    skipped = text.count("\n", 0, lead.end()) if lead else 0
    front, body, body_line = split_front_matter(text[lead.end():] if lead else text)
    if front is None:
        return None, text, 1, 0
    return front, body, body_line + skipped, skipped + 1


def read_front(text: str, fields: Fields, custom: frozenset[str]) -> tuple[str, int]:
    """Take the front matter's keys into `fields` (`custom`: declared field names).

    Returns the body after the front matter and the file line it starts on; the text itself
    and line 1 when there is no front matter. Every oddity is a warning at its line: YAML
    that cannot be read (which the folder's own tool published) is read line by line.
    """
    front, body, body_line, offset = front_of(text)
    if front is None:
        return text, 1
    try:
        data, lines = yamlfile.parse_with_lines(front)
    except yamlfile.YamlError as exc:
        # The folder's own tool published it: read what the lines say rather than refuse it.
        data, lines = _flat(front)
        fields.problem(exc.line + offset, "warning", f"{exc.message}; the front matter is "
                                                     "read line by line, each value as text")
    if data is None:
        return body, body_line
    if not isinstance(data, dict):
        fields.problem(offset + 1, "warning", "front matter is not a mapping of keys to values; "
                                              "it is not read")
        return body, body_line
    for key, value in data.items():
        line = lines.get(str(key), 0) + offset
        if key == "status" and isinstance(value, str):
            read_status(value, line, fields)
        elif key == "title" and isinstance(value, str):
            fields.set("title", title_of(value, line, fields), line)
        elif key in _LISTS:
            fields.set(_LISTS[key], value, line)
        elif key in _PLAIN or key in custom:
            fields.set(str(key), value, line)
        elif key in _DATES and "date" not in data:
            fields.set("date", value, line)
        elif key in _RELATIONS:
            items = value if isinstance(value, list) else [value]
            for index, item in enumerate(items):
                at = (lines.get(f"{key}.{index}", line - offset) + offset
                      if isinstance(value, list) else line)
                fields.relations.append(Relation(_RELATIONS[key], str(item), at, is_link=False))
        elif key == "status":
            fields.problem(line, "warning", f"'status' must be a single status, not {value!r}; "
                                            "it is not read")
        elif key not in DOCS_SITE_KEYS:
            known = sorted({*_LISTS, *_PLAIN, *_RELATIONS, *_DATES, "status", *custom})
            hint = difflib.get_close_matches(str(key), known, n=1)
            extra = f" (did you mean '{hint[0]}'?)" if hint else ""
            fields.problem(line, "warning", f"unknown key '{key}'{extra}")
    return body, body_line


def _flat(front: str) -> tuple[dict[str, str], dict[str, int]]:
    """The `key: value` lines of front matter YAML cannot read, each value as text (quotes
    taken off), with the line of each key."""
    data: dict[str, str] = {}
    lines: dict[str, int] = {}
    for number, row in enumerate(front.splitlines(), start=1):
        match = _FLAT_LINE.match(row)
        if match and match[1] not in data:
            data[match[1]] = match[2].strip("\"'")
            lines[match[1]] = number
    return data, lines
