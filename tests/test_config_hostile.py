"""site.yml addresses that would add lines or markup wherever they are written (robots.txt,
feed.xml, llms.txt, HTML attributes) are errors at their line."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.config.site import load_config


@pytest.mark.parametrize("line, key", [
    ('url: "https://decisions.example.org\\nDisallow: /"', "url"),
    ('url: "https://decisions.example.org/\\"><script>"', "url"),
    ("url: https://decisions.example.org/a b", "url"),
    ('base: "/a b/"', "base"),
    ('base: "/docs/?x=1"', "base"),
    ("base: /docs/<x>/", "base"),
])
def test_an_address_with_spaces_breaks_or_markup_is_an_error_at_its_line(
        tmp_path: Path, line: str, key: str) -> None:
    (tmp_path / "site.yml").write_text(f"title: Decisions\n{line}\n")
    config, findings = load_config(tmp_path)
    assert [(f.line, f.level) for f in findings] == [(2, "error")]
    assert findings[0].message.startswith(f"'{key}' must be ")
    assert config is not None and config.url is None and config.base == "/"


def test_plain_addresses_are_kept(tmp_path: Path) -> None:
    (tmp_path / "site.yml").write_text(
        "title: Decisions\nurl: https://decisions.example.org/x/\nbase: /decisions/\n")
    config, findings = load_config(tmp_path)
    assert findings == []
    assert config is not None
    assert (config.url, config.base) == ("https://decisions.example.org/x", "/decisions/")
