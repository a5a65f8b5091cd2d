"""Decisions cited in code, through the commands: `check` in text and for GitHub, `build`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from site_builder.archive.codescan import CACHE_FILE
from tests.citing import CITED, MISSING, REPO_URL, make_repository
from tests.conftest import run_cli


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_repository(tmp_path / "shop")


def test_check_prints_each_citation_problem_at_the_codes_line(root: Path):
    result = run_cli("check", "--root", "decisions", cwd=root.parent)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert ("src/billing.py:3: warning: cites PAY-ADR-0001, superseded by PAY-ADR-0002 "
            "(Use Stripe)") in lines
    assert "src/billing.py:2: warning: cites PAY-ADR-0003, which is rejected, not in force" \
        in lines
    for path, line, token in MISSING:
        assert f"{path}:{line}: warning: cites {token}, which names no record of this " \
               "archive" in lines
    assert run_cli("check", "--root", "decisions", "--strict", cwd=root.parent).returncode == 1


def test_check_for_github_annotates_the_code_file_by_its_repository_path(root: Path):
    result = run_cli("check", "--root", "decisions", "--format", "github", cwd=root.parent)
    annotations = result.stdout.splitlines()
    assert ("::warning file=src/links.py,line=2::cites PAY-ADR-0001, superseded by "
            "PAY-ADR-0002 (Use Stripe)") in annotations
    assert ("::warning file=src/billing.py,line=4::cites PAY-ADR-0009, which names no record "
            "of this archive") in annotations


def test_the_build_lists_and_publishes_where_code_cites_each_record(root: Path, tmp_path: Path):
    out = tmp_path / "out"
    result = run_cli("build", "--root", str(root), "--output", str(out))
    assert result.returncode == 0, result.stderr
    page = (out / "pay/adr/0002-use-stripe/index.html").read_text()
    section = page.split("Cited in code", 1)[1].split("</ul>", 1)[0]
    expected = [(path, line) for path, line, cited in sorted(CITED)
                if cited == "pay/adr/0002-use-stripe"]
    links = re.findall(r'<a href="([^"]+)"><code>([^<]+)</code></a>', section)
    base = REPO_URL.removesuffix("decisions/")
    assert links == [(f"{base}{path}#L{line}", f"{path}:{line}") for path, line in expected]
    index = json.loads((out / "decisions.json").read_text())
    by_id = {r["id"]: r["citedBy"] for r in index["records"]}
    for record_id, cited_by in by_id.items():
        assert cited_by == [{"path": p, "line": n} for p, n, cited in sorted(CITED)
                            if cited == record_id]
    schema = json.loads((out / "decisions.schema.json").read_text())
    assert "citedBy" in schema["$defs"]["record"]["required"]
    assert (root / ".site-builder" / "cache" / CACHE_FILE).is_file()


def test_without_repo_url_the_places_are_plain_text(tmp_path: Path):
    root = make_repository(tmp_path / "shop")
    site = root / "site.yml"
    site.write_text(site.read_text().replace(f"repo_url: {REPO_URL}\n", ""))
    out = tmp_path / "out"
    assert run_cli("build", "--root", str(root), "--output", str(out)).returncode == 0
    page = (out / "pay/adr/0002-use-stripe/index.html").read_text()
    section = page.split("Cited in code", 1)[1].split("</ul>", 1)[0]
    assert "<a " not in section and "<code>src/billing.py:1</code>" in section


def test_a_code_change_makes_the_next_build_run_again(root: Path, tmp_path: Path):
    out = tmp_path / "out"
    assert run_cli("build", "--root", str(root), "--output", str(out)).returncode == 0
    again = run_cli("build", "--root", str(root), "--output", str(out))
    assert "Up to date" in again.stderr, again.stderr
    billing = root.parent / "src" / "billing.py"
    billing.write_text("\n" + billing.read_text())
    moved = run_cli("build", "--root", str(root), "--output", str(out))
    assert moved.returncode == 0 and "Up to date" not in moved.stderr, moved.stderr
    assert "src/billing.py:2" in (out / "pay/adr/0002-use-stripe/index.html").read_text()
