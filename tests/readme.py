"""The README's MCP tool table and examples, made from the tools' rows and example-site.

The table under `### Tools` is made from the tools' declarations (`site_builder.mcp.tools`):
one row per tool, its parameters and the sentence its row says it answers.

Each example in the README is a line naming a tool and its arguments in backticks, then a
fenced block with the answer:

    `search_records` `{"tag": "mcp", "limit": 1}`

`tests/test_readme.py` checks every block against a fresh answer; after a change to
example-site or to a tool, write them again with

    .venv/bin/python -m tests.readme --write
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from pathlib import Path
from typing import Any

from site_builder.archive.archive import Archive
from site_builder.mcp import tools
from site_builder.query import copies, governance
from site_builder.sources.load import load_archive

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
EXAMPLE_SITE = REPO / "example-site"

# `tool` `{arguments}` … (asked on YYYY-MM-DD) …, then the fenced block that follows.
EXAMPLE = re.compile(
    r"^`(?P<tool>[a-z_]+)` `(?P<arguments>\{.*?\})`(?P<rest>.*?)\n\n"
    r"```(?P<kind>json|markdown)\n(?P<block>.*?)\n```",
    re.MULTILINE | re.DOTALL)
_ASKED = re.compile(r"\(asked on (\d{4}-\d{2}-\d{2})\)")
BODY_LINES = 2  # of a Markdown copy's body, shown before "…"


def answer(archive: Archive, tool: str, arguments: dict[str, Any],
           today: dt.date | None) -> Any:
    """What the tool answers on `archive` (its structuredContent)."""
    given = tools.BY_NAME[tool].arguments(arguments)
    if tool == "due_reviews":
        return governance.due_reviews(archive, **given, today=today)
    result, _ = tools.run(tools.BY_NAME[tool], archive, given)
    return result


TABLE = re.compile(r"^\| tool \| arguments \| answers \|\n\|---\|---\|---\|\n(?:\|.*\n)+",
                   re.MULTILINE)


def _argument(param: Any) -> str:
    name = f"`{param.name}[]`" if param.kind == "paths" else f"`{param.name}`"
    if param.kind == "enum":
        return f"{name} (" + " or ".join(f"`{v}`" for v in param.values) + ")"
    return f"{name} ({param.hint})" if param.hint else name


def tool_table() -> str:
    """The README's table of tools, one row per declaration, in tools/list order."""
    rows = ["| tool | arguments | answers |", "|---|---|---|"]
    for tool in tools.TOOLS:
        taken = ", ".join(_argument(p) for p in tool.params) or "none"
        rows.append(f"| `{tool.name}` | {taken} | {tool.answers} |")
    return "\n".join(rows) + "\n"


def as_json(value: dict[str, Any]) -> str:
    """An answer as the README prints it: scalars inline, each record of a list on a line."""
    out, after_list = "{", False
    for index, (key, item) in enumerate(value.items()):
        out += "" if index == 0 else (",\n " if after_list else ", ")
        if isinstance(item, list) and item and all(isinstance(i, dict) for i in item):
            lines = ",\n".join("  " + json.dumps(i, ensure_ascii=False) for i in item)
            out += f"{json.dumps(key)}: [\n{lines}]"
            after_list = True
        else:
            out += f"{json.dumps(key)}: {json.dumps(item, ensure_ascii=False)}"
    return out + "}"


def as_markdown(archive: Archive, record_id: str) -> str:
    """A record's Markdown copy as the README prints it: the YAML block and the body's
    first lines."""
    copy = copies.markdown_copy(archive, archive.get(record_id))
    head, _, body = copy.partition("\n---\n")
    shown = [line for line in body.split("\n")[:BODY_LINES + 1]]
    return "\n".join([head, "---", *shown, "…"])


def examples(text: str) -> list[re.Match[str]]:
    return list(EXAMPLE.finditer(text))


def expected(archive: Archive, match: re.Match[str]) -> str:
    """The block the example `match` should hold."""
    arguments = json.loads(match["arguments"])
    asked = _ASKED.search(match["rest"])
    today = dt.date.fromisoformat(asked.group(1)) if asked else None
    if match["kind"] == "markdown":
        return as_markdown(archive, arguments["id"])
    return as_json(answer(archive, match["tool"], arguments, today))


def rewrite(text: str, archive: Archive) -> str:
    """`text` with every example block made again."""
    def block(match: re.Match[str]) -> str:
        start = match.start("block") - match.start()
        end = match.end("block") - match.start()
        whole = match.group(0)
        return whole[:start] + expected(archive, match) + whole[end:]
    return TABLE.sub(lambda _: tool_table(), EXAMPLE.sub(block, text), count=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite README.md in place")
    args = parser.parse_args(argv)
    text = README.read_text(encoding="utf-8")
    new = rewrite(text, load_archive(EXAMPLE_SITE))
    if args.write:
        README.write_text(new, encoding="utf-8")
    elif new != text:
        print("README.md examples are out of date; run: python -m tests.readme --write",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
