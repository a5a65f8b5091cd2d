"""Mermaid fences: kept as plain code blocks, found in rendered HTML, and only the pages that
hold one load the vendored Mermaid release under a CSP relaxed for styles alone."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from site_builder.render.diagrams import has_mermaid
from site_builder.render.links import Origin
from site_builder.render.markdown import BodyRenderer
from site_builder.render.pages import CONTENT_SECURITY_POLICY, DIAGRAM_CONTENT_SECURITY_POLICY
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
                     r'data-mermaid="../../../assets/mermaid\.min\.[0-9a-f]{10}\.js" defer>',
                     drawn)
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
    makefile = (REPO / "Makefile").read_text("utf-8")
    version = re.search(r"^MERMAID_VERSION \?= (\S+)$", makefile, re.MULTILINE).group(1)
    digest = re.search(r"^MERMAID_SHA256  \?= ([0-9a-f]{64})$", makefile, re.MULTILINE).group(1)
    bundle = (REPO / "theme" / "mermaid.min.js").read_bytes()
    assert hashlib.sha256(bundle).hexdigest() == digest
    assert f'version:"{version}"'.encode() in bundle
    assert "MIT License" in (REPO / "theme" / "mermaid-LICENSE.txt").read_text("utf-8")
