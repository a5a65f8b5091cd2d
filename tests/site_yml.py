"""docs/site-yml.md, the site.yml reference, made from the key tables of site_builder/config/.

`tests/test_site_yml_doc.py` checks the page against a fresh one; after changing a table in
site_builder/config/site.py or keys.py, write it again with

    .venv/bin/python -m tests.site_yml --write
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from site_builder.config.keys import REQUIRED, Key, Table
from site_builder.config.site import SITE, TABLES

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "site-yml.md"

_INTRO = """\
# `site.yml` reference

<!-- Generated from site_builder/config/site.py and keys.py by `python -m tests.site_yml --write`;
     edit those files, not this one. -->

`site.yml` sits at the archive root and says how the archive is read and built. Only
`title` is required; every other key has the default shown. An unknown key is a `check`
error naming the nearest known one, at its line. Paths are relative to the folder holding
`site.yml`.

A small `site.yml` (the keys it leaves out take their defaults):

```yaml
{example}
```
"""


def default_text(key: Key) -> str:
    """How the reference shows `key`'s default."""
    if key.shown_default is not None:
        return key.shown_default
    if key.default is REQUIRED:
        return "**required**"
    if key.default is None:
        return "none"
    if isinstance(key.default, bool):
        return f"`{str(key.default).lower()}`"
    if key.default == "":
        return "empty"
    return f"`{key.default}`"


def table(section: Table) -> str:
    """One section: a heading, where the mapping sits, then a row per key."""
    rows = [f"## {section.title}", "", f"In {section.where}.", "",
            "| key | type | default | example | meaning |", "|---|---|---|---|---|"]
    for key in section.keys:
        example = key.example.replace("|", "\\|")
        rows.append(f"| `{key.name}` | {key.type} | {default_text(key)} | `{example}` | "
                    f"{key.description} |")
    return "\n".join(rows) + "\n"


def example() -> str:
    """A site.yml using the first few keys with their examples."""
    shown = ("title", "description", "url", "edit_url", "review")
    return "\n".join(f"{key.name}: {key.example}" for key in SITE.keys if key.name in shown)


def page() -> str:
    """The whole reference page."""
    return "\n".join([_INTRO.format(example=example()), *map(table, TABLES)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite docs/site-yml.md")
    args = parser.parse_args(argv)
    fresh = page()
    if args.write:
        PAGE.parent.mkdir(exist_ok=True)
        PAGE.write_text(fresh, encoding="utf-8")
    elif not PAGE.is_file() or PAGE.read_text(encoding="utf-8") != fresh:
        print("docs/site-yml.md is out of date; run: python -m tests.site_yml --write",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
