"""Mermaid fences: kept as plain code blocks, found in rendered HTML, and only the pages that
hold one load the vendored Mermaid release under a CSP relaxed for styles alone."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from site_builder.render.markdown.diagrams import has_mermaid
from site_builder.render.markdown.links import Origin
from site_builder.render.markdown.to_html import BodyRenderer
from site_builder.render.pages.csp import CONTENT_SECURITY_POLICY, DIAGRAM_CONTENT_SECURITY_POLICY
from site_builder.render.pages.mermaid_release import MermaidRelease, release
from site_builder.render.site import build_site
from tests.conftest import REPO


def render(body: str) -> str:
    renderer = BodyRenderer(lambda origin, target: None)
    origin = Origin("p/adr/0001-x/index.html", Path("/archive/content/p/adr/0001-x.md"))
    return renderer.render(origin, body).html


def test_a_mermaid_fence_stays_an_unhighlighted_code_block() -> None:
    # As on GitHub, a fence whose info string is `mermaid` is a diagram (an attribute-list
    # fence, `~~~ {.mermaid}`, was Python-Markdown's own syntax).
    html = render("Intro\n```mermaid\ngraph TD\n  A-->B & C\n  B -- \"x<y\" --> C\n```\n\n"
                  "~~~mermaid\nflowchart LR\n  a --> b\n~~~\n\n```python\nx = 1\n```\n")
    assert ('<pre><code class="language-mermaid">graph TD\n  A--&gt;B &amp; C\n'
            '  B -- "x&lt;y" --&gt; C\n</code></pre>') in html
    assert '<pre><code class="language-mermaid">flowchart LR\n  a --&gt; b\n</code></pre>' in html
    assert '<span class="n">x</span>' in html  # other fences are still highlighted
    assert has_mermaid(html)


def test_a_mermaid_fence_quoted_inside_a_longer_fence_is_only_text() -> None:
    html = render("````markdown\n```mermaid\ngraph LR\n```\n````\n")
    assert "language-mermaid" not in html and not has_mermaid(html)


def test_has_mermaid_reads_both_renderers_output() -> None:
    assert has_mermaid('<pre lang="mermaid"><code>graph TD</code></pre>')
    assert has_mermaid("<pre><code class='highlight language-mermaid'>graph</code></pre>")
    assert not has_mermaid("<p>We chose <code>mermaid</code> over Graphviz.</p>")
    assert not has_mermaid('<pre><code class="language-mermaidish">x</code></pre>')


def test_only_pages_with_a_diagram_load_mermaid_and_relax_styles(tmp_path: Path) -> None:
    root = tmp_path / "archive"
    folder = root / "content" / "p" / "adr"
    folder.mkdir(parents=True)
    (root / "site.yml").write_text("title: T\ndescription: D\n", "utf-8")
    front = "---\ntitle: {}\nstatus: accepted\ndate: 2026-01-0{}\ndescription: d\n---\n\n"
    (folder / "0001-drawn.md").write_text(
        front.format("Drawn", 1) + "```mermaid\nflowchart LR\n  a --> b\n```\n", "utf-8")
    (folder / "0002-plain.md").write_text(
        front.format("Plain", 2) + "Mentions `mermaid` in passing.\n", "utf-8")
    build_site(root, jobs=1)
    site = root / "_site"
    drawn = (site / "p/adr/0001-drawn/index.html").read_text("utf-8")
    assert re.search(r'<script src="../../../assets/diagrams\.[0-9a-f]{10}\.js" '
                     r'data-mermaid="../../../assets/mermaid\.[0-9a-f]{10}/mermaid\.esm\.min\.mjs"'
                     r' defer>', drawn)
    assert DIAGRAM_CONTENT_SECURITY_POLICY.replace("'", "&#39;") in drawn
    pages = [p for p in site.rglob("*.html") if p.parent.name != "0001-drawn"]
    assert len(pages) > 5
    for page in pages:
        html = page.read_text("utf-8")
        assert "mermaid" not in html.replace("`mermaid`", "").replace("<code>mermaid</code>", "")
        assert CONTENT_SECURITY_POLICY.replace("'", "&#39;") + '">' in html, page


def test_the_diagram_policy_differs_only_by_inline_styles() -> None:
    strict = dict(d.split(" ", 1) for d in CONTENT_SECURITY_POLICY.split("; "))
    relaxed = dict(d.split(" ", 1) for d in DIAGRAM_CONTENT_SECURITY_POLICY.split("; "))
    assert relaxed.pop("style-src") == "'self' 'unsafe-inline'"
    strict.pop("style-src")
    assert relaxed == strict and strict["script-src"] == "'self'"


def test_the_vendored_mermaid_is_the_pinned_release() -> None:
    """The Makefile's pin covers SHA256SUMS, SHA256SUMS covers every file, and the folder
    holds nothing it leaves out: what `make mermaid-verify` checks, without make."""
    makefile = (REPO / "Makefile").read_text("utf-8")
    version = re.search(r"^MERMAID_VERSION \?= (\S+)$", makefile, re.MULTILINE).group(1)
    digest = re.search(r"^MERMAID_SHA256  \?= ([0-9a-f]{64})$", makefile, re.MULTILINE).group(1)
    folder = REPO / "theme" / "mermaid"
    shipped = release()
    assert shipped.folder == folder
    assert hashlib.sha256((folder / "SHA256SUMS").read_bytes()).hexdigest() == digest
    assert shipped.site_folder == f"assets/mermaid.{digest[:10]}"
    present = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert present - {"SHA256SUMS"} == set(shipped.listed)
    for rel, sha in shipped.listed.items():
        assert hashlib.sha256((folder / rel).read_bytes()).hexdigest() == sha, rel
    assert f'"{version}"'.encode() in (folder / "mermaid.esm.min.mjs").read_bytes()
    assert "MIT License" in (folder / "LICENSE").read_text("utf-8")
    # The entry's own imports are all in the set: a page never asks for a missing chunk.
    entry = (folder / "mermaid.esm.min.mjs").read_text("utf-8")
    imported = set(re.findall(r'"\./(chunks/mermaid\.esm\.min/[\w.-]+\.mjs)"', entry))
    assert imported and imported <= set(shipped.listed)


def test_a_sums_file_that_leaves_the_folder_is_refused(tmp_path: Path) -> None:
    bad = MermaidRelease(tmp_path, b"0" * 64 + b"  ../../site.yml\n")
    with pytest.raises(ValueError, match=r"SHA256SUMS:1: not '<sha256>  <path>'"):
        bad.listed  # noqa: B018 (the property raises)


def test_only_a_site_with_a_diagram_publishes_mermaid(tmp_path: Path) -> None:
    """The release is published once, in full, by a site that draws a diagram, and not at
    all by one that has none (not even its licence)."""
    plain = _archive(tmp_path / "plain", "Mentions `mermaid` in passing.\n")
    build_site(plain, jobs=1)
    assert not [p for p in (plain / "_site").rglob("*") if "mermaid" in p.name.lower()]
    drawn = _archive(tmp_path / "drawn", "```mermaid\nflowchart LR\n  a --> b\n```\n")
    build_site(drawn, jobs=1)
    folder = drawn / "_site" / release().site_folder
    published = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert published == set(release().listed)
    assert (folder / "mermaid.esm.min.mjs").read_bytes() == (
        release().folder / "mermaid.esm.min.mjs").read_bytes()
    others = [p for p in (drawn / "_site").rglob("*")
              if "mermaid" in p.name.lower() and folder not in (p, *p.parents)]
    assert others == []
    # The diagram gone, the next build takes the release away again.
    (drawn / "content/p/adr/0001-one.md").write_text(_FRONT + "No picture now.\n", "utf-8")
    build_site(drawn, jobs=1)
    assert not folder.exists()


_FRONT = "---\ntitle: One\nstatus: accepted\ndate: 2026-01-01\ndescription: d\n---\n\n"


def _archive(root: Path, body: str) -> Path:
    """A one-record archive at `root` whose record has `body`; returns `root`."""
    folder = root / "content" / "p" / "adr"
    folder.mkdir(parents=True)
    (root / "site.yml").write_text("title: T\ndescription: D\n", "utf-8")
    (folder / "0001-one.md").write_text(_FRONT + body, "utf-8")
    return root
