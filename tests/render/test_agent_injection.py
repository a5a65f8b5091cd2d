"""Agent files cannot be steered by content: hostile names, descriptions, titles and tags.

A pull request may set any `_project.yml` description or record title. Whatever it holds,
AGENTS.md, llms.txt and llms-full.txt keep exactly the headings, list items and links the
build writes: AGENTS.md and llms.txt are rendered by a real Markdown parser (Python-Markdown,
as the site's own pages are) and llms.txt is read by the `llms-txt` reference parser.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
import yaml
from llms_txt import parse_llms_file

from site_builder.render.site import build_site

EVIL = "x.example"
INJECTED = f"\n## INJECTED\n- [evil](http://{EVIL}/1)\n"
HOSTILE = {
    "site title": f"Acme{INJECTED}# top [evil](http://{EVIL}/2)",
    "site description": f"- [evil](http://{EVIL}/3)\n## INJECTED <http://{EVIL}/4>",
    "project name": f"## [evil](http://{EVIL}/5)",
    "project description": INJECTED,
    "record title": f"`x` [evil](http://{EVIL}/6) <a href='http://{EVIL}/7'>a</a>",
    "record description": f"> quote\n```\n1. [evil][r]\n\n[r]: http://{EVIL}/8",
    "tag": f"[evil](http://{EVIL}/9)",
    "second tag": "## tag\n- item",
}


def _scalar(value: str) -> str:
    return json.dumps(value)  # JSON strings are YAML: escapes and all


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("injection")
    (root / "site.yml").write_text(
        f"title: {_scalar(HOSTILE['site title'])}\n"
        f"description: {_scalar(HOSTILE['site description'])}\n")
    project = root / "content" / "evil"
    (project / "adr").mkdir(parents=True)
    (project / "_project.yml").write_text(
        f"name: {_scalar(HOSTILE['project name'])}\n"
        f"description: {_scalar(HOSTILE['project description'])}\n")
    for number, status in ((1, "accepted"), (2, "rejected")):
        (project / "adr" / f"000{number}-choice.md").write_text(
            f"---\ntitle: {_scalar(HOSTILE['record title'])}\nstatus: {status}\n"
            f"date: 2026-03-0{number}\n"
            f"description: {_scalar(HOSTILE['record description'])}\n"
            f"tags: [{_scalar(HOSTILE['tag'])}, {_scalar(HOSTILE['second tag'])}]\n"
            "---\n\nThe body.\n")
    return build_site(root, jobs=1, cache=False).output


class _Structure(HTMLParser):
    """The headings, list items and link targets of rendered HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[str] = []
        self.items = 0
        self.links: list[str] = []
        self._heading: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._heading = [tag]
        elif tag == "li":
            self.items += 1
        elif tag in ("a", "img"):
            self.links.extend(v or "" for k, v in attrs if k in ("href", "src"))

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._heading.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._heading is not None and tag == self._heading[0]:
            self.headings.append(f"{tag}:{''.join(self._heading[1:])}")
            self._heading = None


def _structure(text: str) -> _Structure:
    parsed = _Structure()
    parsed.feed(markdown.markdown(text, extensions=["tables", "fenced_code"]))
    return parsed


def test_agents_md_keeps_only_its_own_headings_items_and_links(site: Path) -> None:
    text = (site / "AGENTS.md").read_text(encoding="utf-8")
    parsed = _structure(text)
    assert [h.split(":")[0] for h in parsed.headings] == ["h1", "h2", "h2", "h2", "h2"]
    assert parsed.headings[1:] == ["h2:Which records are in force", "h2:Projects",
                                   "h2:How to query this archive", "h2:MCP"]
    assert parsed.items == 4 + 1  # the four rules, then the one project
    assert sorted(parsed.links) == sorted([
        "decisions.json", "decisions.schema.json", "evil/adr/0002-choice.md", "llms.txt",
        "llms-full.txt"])
    assert EVIL not in "".join(parsed.links)
    assert "\n## INJECTED" not in text and "\n- [evil]" not in text


def test_llms_txt_keeps_only_its_own_sections_and_links(site: Path) -> None:
    text = (site / "llms.txt").read_text(encoding="utf-8")
    parsed = parse_llms_file(text)
    assert "\n" not in parsed.title and "\n" not in parsed.summary
    assert len(parsed.sections) == 2 and list(parsed.sections)[1] == "Optional"
    links = [link["url"] for links in parsed.sections.values() for link in links]
    assert links == ["evil/adr/0001-choice.md", "evil/adr/0002-choice.md"]
    rendered = _structure(text)
    assert len(rendered.headings) == 1 + 2
    assert rendered.items == 2
    assert all(EVIL not in link for link in rendered.links), rendered.links
    assert sum(EVIL not in link for link in rendered.links) == len(rendered.links) == 2 + 4


def test_llms_full_txt_header_and_copies_hold_the_values_as_data(site: Path) -> None:
    text = (site / "llms-full.txt").read_text(encoding="utf-8")
    header, _, copies = text.partition("\n---\n")
    header_structure = _structure(header)
    assert len(header_structure.headings) == 1
    assert all(EVIL not in link for link in header_structure.links)
    parsed = parse_llms_file(header)
    assert parsed.sections == {}
    blocks = text.split("\n---\nid: ")[1:]
    assert len(blocks) == 2
    for block in blocks:
        front = yaml.safe_load("id: " + block.split("\n---\n", 1)[0])
        assert front["title"] == HOSTILE["record title"]
        assert front["description"] == HOSTILE["record description"]
        assert front["tags"] == [HOSTILE["tag"], HOSTILE["second tag"]]
    assert copies.count("\n## INJECTED") == 0
