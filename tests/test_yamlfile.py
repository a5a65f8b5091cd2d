"""yamlfile: YAML with dates as dates, impossible dates kept for their own finding, key lines."""

from __future__ import annotations

import datetime as dt

import pytest
import yaml

from site_builder.text import yamlfile


def test_the_c_loader_is_used_when_pyyaml_has_it() -> None:
    if yaml.__with_libyaml__:
        assert issubclass(yamlfile._Loader, yaml.CSafeLoader)
    assert issubclass(yamlfile._Loader, (yaml.SafeLoader, getattr(yaml, "CSafeLoader", ())))


@pytest.mark.parametrize("text", [
    "when: 2026-05-01\n",                      # the fast path
    "when: &a 2026-05-01\nagain: *a\n",        # PyYAML
])
def test_dates_become_dates(text: str) -> None:
    assert yamlfile.parse(text)["when"] == dt.date(2026, 5, 1)


def test_timestamps_become_dates() -> None:
    value = yamlfile.parse("at: 2026-05-01 10:30:00\n")["at"]
    assert value == dt.date(2026, 5, 1) and not isinstance(value, dt.datetime)


def test_an_impossible_date_is_kept_as_written() -> None:
    for text in ("date: 2026-13-45\n", "date: !!timestamp 2026-13-45\n"):
        value = yamlfile.parse(text)["date"]
        assert isinstance(value, yamlfile.InvalidDate) and value == "2026-13-45"


def test_nothing_unsafe_is_constructed() -> None:
    with pytest.raises(yamlfile.YamlError) as failed:
        yamlfile.parse("a: !!python/object/apply:os.system [echo]\n")
    assert failed.value.line == 1


def test_key_lines_of_both_paths_agree() -> None:
    text = "a: 1\nb:\n  - x\n  - y\nc: {d: 1}\ne:\n  f: 2\n"
    fast = yamlfile.parse_with_lines(text)[1]
    slow = yamlfile.parse_with_lines(text + "g: &anchor 1\n")[1]  # an anchor: PyYAML reads it
    assert fast == {"a": 1, "b": 2, "b.0": 3, "b.1": 4, "c": 5, "c.d": 5, "e": 6, "e.f": 7}
    assert slow == {**fast, "g": 8}


def test_line_of_falls_back_to_the_parent() -> None:
    lines = {"statuses": 3, "statuses.1": 5, "statuses.1.open": 6}
    assert yamlfile.line_of(lines, "statuses", 1, "open") == 6
    assert yamlfile.line_of(lines, "statuses", 1, "label") == 5
    assert yamlfile.line_of(lines, "statuses", 7) == 3
    assert yamlfile.line_of(lines, "title") == 1
    assert yamlfile.line_of(lines, "title", default=0) == 0


def test_an_empty_document_is_null() -> None:
    assert yamlfile.parse("") is None
    assert yamlfile.parse("# only a comment\n") is None
