"""markdown.py: bodies become sanitised HTML with highlighted code, a toc and working links."""

from __future__ import annotations

from site_builder.archive.archive import Archive
from site_builder.render.markdown.links import SourceLinks
from site_builder.render.markdown.to_html import BodyRenderer, TocEntry, sanitise


def render(archive: Archive, reference: str, body: str | None = None):
    record = archive.get(reference)
    return BodyRenderer(SourceLinks.of(archive)).render(record, record.body if body is None
                                                     else body)


def test_tables_tasks_strikethrough_and_footnotes(archive: Archive) -> None:
    html = render(archive, "platform/adr/2").html
    assert "<table>" in html and "<th>char</th>" in html
    assert '<input type="checkbox" disabled="" checked="" aria-label="done"> checked' in html
    assert '<input type="checkbox" disabled="" aria-label="not done"> open' in html
    assert "<del>struck</del>" in html
    assert "~5 ms" in html  # a lone tilde is prose, not a subscript
    assert 'class="footnotes"' in html and 'id="fn-1"' in html


def test_fenced_code_is_highlighted_with_css_classes(archive: Archive) -> None:
    html = render(archive, "platform/adr/3").html
    assert '<div class="highlight"><pre>' in html
    assert '<span class="k">def</span>' in html
    assert "style=" not in html


def test_the_table_of_contents_comes_back_as_data(archive: Archive) -> None:
    body = render(archive, "platform/adr/2", "# A & B\n\n## Ça `va`\n\ntext\n")
    assert body.toc == (TocEntry(1, "a-b", "A & B"), TocEntry(2, "ça-va", "Ça va"))
    assert 'id="ça-va"' in body.html


def test_raw_html_is_sanitised(archive: Archive) -> None:
    html = render(archive, "platform/adr/3").html
    assert "<script" not in html and "owned" not in html
    assert "onerror" not in html and "javascript:" not in html
    assert "<a>click</a>" in html
    assert '<a href="https://example.com/">a real link</a>' in html
    assert "<details><summary>More</summary>" in html
    assert "<kbd>Ctrl</kbd>" in html and "<sub>2</sub>" in html and "<sup>2</sup>" in html


def test_sanitise_keeps_only_inert_labelled_checkboxes() -> None:
    assert sanitise('<p><input type="text" value="x"><input name="q"></p>') == "<p></p>"
    assert sanitise('<input type="checkbox" checked onclick="x()">') == (
        '<input type="checkbox" disabled="" checked="" aria-label="done">')
    assert sanitise('<img src="x.png" onload="steal()" style="x">') == '<img src="x.png">'
    assert sanitise('<a href="data:text/html,hi">x</a>') == "<a>x</a>"


def test_links_between_source_files_point_at_pages(archive: Archive) -> None:
    html = render(archive, "platform/adr/3").html
    # same folder, with and without ./ and an anchor
    assert '<a href="../0001-use-postgres/">old decision</a>' in html
    assert '<a href="../0001-use-postgres/#context">its context</a>' in html
    # another project, with an anchor
    assert '<a href="../../../web/adr/0001-static-pages/#decision">' in html
    # the record itself, and a bare anchor
    assert '<a href="./#context">this very record</a>' in html
    assert '<a href="#context">the top</a>' in html
    # another type folder of the same project
    rfc = render(archive, "platform/rfc/1").html
    assert '<a href="../../adr/0002-brackets-and-parens/">the naming rule</a>' in rfc


def test_files_beside_records_are_linked_where_the_build_copies_them(archive: Archive) -> None:
    body = render(archive, "platform/adr/3")
    assert '<img src="../img/schema.png" alt="Schema" title="The schema">' in body.html
    assert '<img src="../img/schema.png" alt="raw schema" width="40">' in body.html
    assert body.assets == ("platform/adr/img/schema.png",)


def test_links_that_are_not_source_files_stay_as_written(archive: Archive) -> None:
    body = render(archive, "platform/adr/2",
                  "[a](https://x.org/a.md) [b](/abs/path.md) [c](missing.png) "
                  "[d](../../../../outside.txt) [e](mailto:a@b.c)\n")
    assert 'href="https://x.org/a.md"' in body.html
    assert 'href="/abs/path.md"' in body.html
    assert 'href="missing.png"' in body.html
    assert 'href="../../../../outside.txt"' in body.html
    assert 'href="mailto:a@b.c"' in body.html
    assert body.assets == ()


def test_one_renderer_renders_many_bodies_without_leaking_state(archive: Archive) -> None:
    renderer = BodyRenderer(SourceLinks.of(archive))
    record = archive.get("platform/adr/2")
    first = renderer.render(record, record.body)
    renderer.render(archive.get("platform/adr/3"), archive.get("platform/adr/3").body)
    again = renderer.render(record, record.body)
    assert again == first
    assert again.assets == ()


def test_table_column_alignment_survives_as_a_class(archive: Archive) -> None:
    html = render(archive, "platform/adr/2",
                  "| left | middle | right |\n|:---|:---:|---:|\n| a | b | 1 |\n").html
    assert '<th class="align-left">left</th>' in html
    assert '<td class="align-center">b</td>' in html
    assert '<td class="align-right">1</td>' in html
    assert "style=" not in html and "align=" not in html


MKDOCS_BODY = """\
## Options {#choices}

!!! note "Keep in mind"
    An admonition with a [link](0001-use-postgres.md).

Term
:   Its definition.

```python
def f(): pass
```
"""


def test_python_markdown_goes_through_the_same_html_pass(archive: Archive) -> None:
    record = archive.get("platform/adr/3")
    body = BodyRenderer(SourceLinks.of(archive), "python-markdown").render(record, MKDOCS_BODY)
    assert body.toc == (TocEntry(2, "choices", "Options"),)  # attribute list, kept as id
    assert '<div class="admonition note">' in body.html
    assert '<a href="../0001-use-postgres/">link</a>' in body.html  # rewritten inside it
    assert "<dl>" in body.html and "<dd>" in body.html
    assert '<span class="k">def</span>' in body.html


def test_gfm_alerts_are_callouts_and_the_rest_stays_quotes(archive: Archive) -> None:
    html = render(archive, "platform/adr/2",
                  "> [!TIP]\n> Use it.\n\n> [!NOTE] not alone on its line\n\n> plain\n").html
    assert '<blockquote class="markdown-alert markdown-alert-tip">' in html
    assert '<p class="markdown-alert-title">Tip</p>' in html
    assert html.count("<blockquote>") == 2 and "[!NOTE] not alone" in html


def test_mermaid_fences_stay_for_the_browser(archive: Archive) -> None:
    html = render(archive, "platform/adr/2", "```mermaid\ngraph TD; A-->B\n```\n").html
    assert '<pre><code class="language-mermaid">graph TD; A--&gt;B\n</code></pre>' in html
