"""Links in record bodies: what `check` looks at, and how relative links resolve."""

from __future__ import annotations

from pathlib import Path

from site_builder.archive.links import BodyLink, body_links, is_local, local_path, split_target

BODY = """\
Intro with [a record](../adr/0002-x.md) and ![a picture](img/p.png "Title").
An [angle link](<other file.md>) and [a site link](https://example.org/x.md).

```markdown
[inside a fence](0099-fenced.md)
```

~~~~
[inside tildes](0098-tilde.md)
~~~~

Code span `[not a link](0097-span.md)` then [after the span](0003-after.md).

    [indented code](0096-indented.md)

- a list item
    - [nested item](0004-nested.md)

Paragraph text
    [lazy continuation](0005-lazy.md)

A [reference link][ref] and <a href="0006-raw.md">raw HTML</a>; [unused]: is text.

[ref]: ../rfc/0001-ref.md "Reference title"
[unused-def]: 0007-unused.md
"""


def test_links_as_the_renderer_parses_them_with_their_lines() -> None:
    """What cmark-gfm renders as a link, nothing in code, no definition nobody uses."""
    assert body_links(BODY) == (
        BodyLink("../adr/0002-x.md", 1),
        BodyLink("img/p.png", 1),
        BodyLink("other file.md", 2),
        BodyLink("https://example.org/x.md", 2),
        BodyLink("0003-after.md", 12),
        BodyLink("0004-nested.md", 17),
        BodyLink("0005-lazy.md", 20),
        BodyLink("../rfc/0001-ref.md", 24),  # where it is defined
        BodyLink("0006-raw.md", 22),
    )


def test_an_unclosed_fence_hides_the_rest() -> None:
    assert body_links("[a](a.md)\n```\n[b](b.md)\n") == (BodyLink("a.md", 1),)


def test_no_links() -> None:
    assert body_links("") == ()
    assert body_links("Plain text with [brackets] and (parens).") == ()


def test_which_links_are_local() -> None:
    assert is_local("../adr/0001-x.md")
    assert is_local("0001-x.md#context")
    assert not is_local("https://example.org/")
    assert not is_local("mailto:a@example.org")
    assert not is_local("#context")
    assert not is_local("/absolute/on/the/site")


def test_relative_targets_resolve_against_the_linking_file() -> None:
    source = Path("/a/content/sre/adr/0003-y.md")
    assert local_path(source, "../rfc/0001-z.md#part") == Path("/a/content/sre/rfc/0001-z.md")
    assert local_path(source, "0001-x%20y.md") == Path("/a/content/sre/adr/0001-x y.md")
    assert split_target("../x.md?raw=1#part") == ("../x.md", "?raw=1#part")


def test_garbled_raw_html_is_read_once() -> None:
    # An HTML block passes through as written: 50,000 tag openings that never close, which
    # a scan restarting at each `<a` would read 50,000 times over.
    assert body_links("<div>\n" + "<a " * 50_000 + "\n") == ()
    assert body_links('<div>\n<a title="x" href="0001-x.md">x</a>\n') == (
        BodyLink("0001-x.md", 2),)


def _native(tmp_path: Path, body: str) -> Path:
    adr = tmp_path / "content" / "build" / "adr"
    adr.mkdir(parents=True)
    (tmp_path / "site.yml").write_text("title: T\n")
    front = "---\ntitle: {t}\nstatus: accepted\ndate: 2024-01-01\ndescription: d\n---\n"
    (adr / "0001-one.md").write_text(front.format(t="One") + body)
    (adr / "0002-two.md").write_text(front.format(t="Two") + "Two.\n")
    return tmp_path


def test_a_link_without_md_names_the_record_in_native_content_too(tmp_path: Path) -> None:
    from site_builder.render.site import build_site
    from site_builder.sources.load import load_archive

    root = _native(tmp_path, "See [two](./0002-two) and [two again](0002-two#why).\n")
    assert load_archive(root).findings == ()
    page = (build_site(root, jobs=1, cache=False).output / "build/adr/0001-one/index.html")
    assert page.read_text().count('href="../0002-two/') == 2


def test_a_link_to_a_missing_native_record_stays_an_error(tmp_path: Path) -> None:
    from site_builder.sources.load import load_archive

    root = _native(tmp_path, "See [three](0003-three.md).\n")
    [finding] = load_archive(root).findings
    assert (finding.level, finding.message) == ("error",
                                                "link to a missing record: 0003-three.md")
