"""No script on the site's origin: attachments, links and folder names from hostile bodies.

Each test builds or checks a real archive (the command in a subprocess, or `build_site`), and
reads what was published with real parsers (xml.etree, html.parser, json), so the rules keep
guarding whatever renders the bodies.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest

from site_builder.archive.attachments import SvgRefused, clean_svg
from site_builder.render.markdown.links import safe_url
from site_builder.render.site import build_site
from tests.conftest import run_cli
from tests.sources.conftest import make_archive, record_text

RECORD = Path("content/local/adr/0001-local-choice.md")
PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00"
       b"\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N"
       b"\x00\x00\x00\x00IEND\xaeB`\x82")
EVIL_SVG = b"""<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     viewBox="0 0 10 10" onload="alert('onload')">
  <script>alert('script')</script>
  <style>@import url(http://x.example/a.css); rect { fill: red }</style>
  <style>rect { stroke: url(#g) }</style>
  <defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>
  <a href="javascript:alert('a')"><text x="1" y="5">click</text></a>
  <rect width="5" height="5" fill="url(#g)" onclick="alert('click')"
        style="fill: url(http://x.example/track)"/>
  <use xlink:href="http://x.example/sprite.svg#icon"/>
  <use href="#g"/>
  <image href="http://x.example/pixel.png" width="1" height="1"/>
  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><script>alert('html')</script>
  </div></foreignObject>
  <animate attributeName="href" to="javascript:alert('animate')"/>
  <circle r="2" cx="5" cy="5" fill="blue"/>
</svg>
"""


def _archive(tmp_path: Path, body: str) -> Path:
    root = make_archive(tmp_path / "site", extra="url: https://decisions.example.org\n")
    (root / RECORD).write_text(record_text("Local choice") + "\n" + body, encoding="utf-8")
    return root


def _errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ": error:" in line]


def _svg_ok(data: bytes) -> None:
    """Fail unless `data` is an SVG with no script, handler or outside reference."""
    root = ElementTree.fromstring(data)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    for element in root.iter():
        local = element.tag.rpartition("}")[2]
        assert local not in ("script", "foreignObject", "a", "image", "animate", "set"), local
        for name, value in element.attrib.items():
            assert not name.rpartition("}")[2].lower().startswith("on"), name
            if name.endswith("href"):
                assert value.startswith("#"), value
            assert "x.example" not in value and "javascript" not in value.lower(), value
        assert "x.example" not in (element.text or ""), element.text


def test_safe_kinds_are_copied_svg_cleaned_and_other_kinds_left_out(tmp_path: Path) -> None:
    root = _archive(tmp_path, "![dot](dot.png) [drawing](drawing.svg) [data](table.csv) "
                              "[tool](tool.wasm) [script](code.js)\n")
    folder = (root / RECORD).parent
    (folder / "dot.png").write_bytes(PNG)
    (folder / "drawing.svg").write_bytes(EVIL_SVG)
    (folder / "table.csv").write_text("a,b\n1,2\n")
    (folder / "tool.wasm").write_bytes(b"\x00asm\x01\x00\x00\x00")
    (folder / "code.js").write_text("alert(1)\n")
    checked = run_cli("check", cwd=root, timeout=60)
    assert checked.returncode == 0, checked.stderr
    warnings = [line for line in checked.stderr.splitlines() if ": warning:" in line]
    assert [w.split("link to ")[1].split(":")[0] for w in warnings] == ["code.js", "tool.wasm"]
    built = run_cli("build", cwd=root, timeout=120)
    assert built.returncode == 0, built.stderr
    site = root / "_site" / "local" / "adr"
    assert (site / "dot.png").read_bytes() == PNG
    assert (site / "table.csv").read_text() == "a,b\n1,2\n"
    assert not (site / "tool.wasm").exists() and not (site / "code.js").exists()
    published = (site / "drawing.svg").read_bytes()
    _svg_ok(published)
    assert b"<circle" in published and b'fill="url(#g)"' in published  # the drawing stays


@pytest.mark.parametrize("name", ["page.html", "page.HTM", "page.xhtml"])
def test_an_html_attachment_is_a_check_error_at_the_linking_line(tmp_path: Path,
                                                                 name: str) -> None:
    root = _archive(tmp_path, f"Intro.\n\nSee [the page]({name}).\n")
    (root / RECORD).parent.joinpath(name).write_text("<script>alert(1)</script>\n")
    for command in ("check", "build"):
        result = run_cli(command, cwd=root, timeout=120)
        assert result.returncode == 1, result.stdout + result.stderr
        errors = _errors(result.stderr)
        assert len(errors) == 1, errors
        assert errors[0].startswith(f"{RECORD.as_posix()}:14: error: link to {name}: HTML "
                                    "files are not published"), errors[0]
    assert not (root / "_site").exists()


@pytest.mark.parametrize("svg, why", [
    (b"<svg xmlns='http://www.w3.org/2000/svg'><rect", "is not well-formed XML"),
    (b"<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY a 'lol'>]>"
     b"<svg xmlns='http://www.w3.org/2000/svg'><text>&a;</text></svg>", "declares entities"),
    (b"<html xmlns='http://www.w3.org/1999/xhtml'><script>alert(1)</script></html>",
     "is not an SVG image"),
])
def test_an_svg_that_cannot_be_cleaned_is_a_check_error(tmp_path: Path, svg: bytes,
                                                        why: str) -> None:
    root = _archive(tmp_path, "[d](d.svg)\n")
    (root / RECORD).parent.joinpath("d.svg").write_bytes(svg)
    result = run_cli("check", cwd=root, timeout=60)
    assert result.returncode == 1
    errors = _errors(result.stderr)
    assert len(errors) == 1 and f"this SVG cannot be published: it {why}" in errors[0], errors
    with pytest.raises(SvgRefused):
        clean_svg(svg)


HOSTILE_LINKS = [
    "[a](javascript:alert(1))",
    "[b](JaVaScRiPt:alert(2))",
    "[c](<javascript :alert(3)>)",
    "[d](data:text/html;base64,PHNjcmlwdD5hbGVydCg0KTwvc2NyaXB0Pg==)",
    "[e](vbscript:msgbox(5))",
    "![f](data:image/svg+xml,%3Csvg%20onload=alert(6)%3E)",
    "[g]: javascript:alert(7)\n\n[g]",
    '<a href="javascript:alert(8)">h</a>',
    '<a href=" &#106;avascript:alert(9)">i</a>',
    "<a href='java&#x09;script:alert(10)'>j</a>",
    '<img src="javascript:alert(11)" alt="k">',
    '<a HREF="feed:javascript:alert(12)">l</a>',
]
SAFE_LINKS = ["[ok](https://example.org/a)", "[mail](mailto:a@example.org)",
              "[rel](../adr/0001-local-choice.md)", "[frag](#decision)"]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.values: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.values.extend(v or "" for k, v in attrs if k in ("href", "src"))


def _browser_scheme(value: str) -> str | None:
    """The scheme a browser reads in `value` (tabs and line breaks dropped, C0 trimmed)."""
    cleaned = re.sub(r"[\t\n\r]", "", value).strip("".join(map(chr, range(0x21))))
    found = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", cleaned)
    return found.group(1).lower() if found else None


def test_every_href_and_src_of_a_body_is_http_https_mailto_or_relative(tmp_path: Path) -> None:
    body = "\n\n".join(HOSTILE_LINKS + SAFE_LINKS) + "\n"
    root = _archive(tmp_path, body)
    built = run_cli("build", cwd=root, timeout=120)
    assert built.returncode == 0, built.stderr
    page = (root / "_site" / "local" / "adr" / "0001-local-choice" / "index.html").read_text()
    parser = _Links()
    parser.feed(page)
    schemes = {_browser_scheme(value) for value in parser.values}
    assert schemes <= {None, "http", "https", "mailto"}, schemes
    assert "https://example.org/a" in parser.values
    assert "mailto:a@example.org" in parser.values
    for text in ("h", "i", "j", "l"):  # the link text stays, without its target
        assert f">{text}</a>" in page


@pytest.mark.parametrize("value, safe", [
    ("javascript:alert(1)<!--/adr/0001-x/", False),
    (" \x01JAVASCRIPT:alert(1)", False),
    ("java\tscript:alert(1)", False),
    ("data:text/html,x", False),
    ("https://example.org", True),
    ("mailto:a@example.org", True),
    ("./javascript:alert(1)<!--/adr/", True),
    ("../x/javascript:y", True),
    ("#javascript:x", True),
])
def test_safe_url_reads_schemes_as_a_browser_does(value: str, safe: bool) -> None:
    assert safe_url(value) is safe


@pytest.mark.parametrize("folder", ["javascript:alert(1)<!--", "a b", "q?x", "100%", 'x"y'])
def test_a_folder_name_that_is_no_url_path_segment_is_a_check_error(tmp_path: Path,
                                                                    folder: str) -> None:
    root = make_archive(tmp_path / "site")
    (root / "content" / "local" / "adr" / "0002-link.md").write_text(record_text(
        "Link", extra="") + f"\n[other](../../{folder}/adr/0001-x.md)\n")
    project = root / "content" / folder / "adr"
    project.mkdir(parents=True)
    (project / "0001-x.md").write_text(record_text("X"))
    result = run_cli("check", cwd=root, timeout=60)
    assert result.returncode == 1
    errors = _errors(result.stderr)
    assert len(errors) == 1, errors
    assert errors[0].startswith(f"content/{folder}:1: error: folder name "), errors[0]
    assert run_cli("build", cwd=root, timeout=120).returncode == 1
    assert not (root / "_site").exists()


ODD_TITLES = [
    "Ampersands & <angles> and ]]> and \"quotes\" 'too'",
    "Line\u2028separator, BOM \ufeff, RTL \u202eoverride, emoji \U0001f600, NBSP\u00a0x",
    "<![CDATA[ x ]]> &amp; &#0; &#x1;",
]


def test_feed_sitemap_and_json_artifacts_are_well_formed_for_any_title(tmp_path: Path) -> None:
    def scalar(text: str) -> str:
        return json.dumps(text, ensure_ascii=False)  # the characters themselves, raw

    root = make_archive(tmp_path / "site", extra=(
        f"description: {scalar(ODD_TITLES[0])}\n"
        "url: https://decisions.example.org\n"))
    folder = root / "content" / "local" / "adr"
    for number, title in enumerate(ODD_TITLES, start=2):
        (folder / f"000{number}-odd.md").write_text(
            f"---\ntitle: {scalar(title)}\nstatus: accepted\ndate: 2026-03-0{number}\n"
            f"description: {scalar(title)}\ntags: [{scalar(title)}]\n"
            f"authors: [{scalar(title)}]\n---\n\nBody.\n", encoding="utf-8")
    site = build_site(root, jobs=1, cache=False).output
    feed = ElementTree.parse(site / "feed.xml").getroot()
    atom = "{http://www.w3.org/2005/Atom}"
    titles = [e.findtext(f"{atom}title") for e in feed.iter(f"{atom}entry")]
    for title in ODD_TITLES:
        assert any(t is not None and t.endswith(title) for t in titles), (title, titles)
    urls = ElementTree.parse(site / "sitemap.xml").getroot()
    assert len(list(urls)) > 4
    for path in site.rglob("*.json"):
        text = path.read_text(encoding="utf-8")
        assert "NaN" not in text and "Infinity" not in text, path
        json.loads(text)
    for path in [*site.rglob("*.txt"), *site.rglob("*.md")]:
        path.read_bytes().decode("utf-8")
