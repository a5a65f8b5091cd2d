"""A format is its reader module: declared there, it is a `format:` value, auto's choice and
init's guess.

The end-to-end test copies the package, adds one reader module and its name in
`config_keys.FORMAT_NAMES` (the one other file), and runs the copy: nothing else lists the
formats.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from site_builder.archive.formats import registry
from site_builder.config.keys import FORMAT_NAMES
from site_builder.config.source_formats import FORMATS
from tests.conftest import REPO

NEW_READER = '''"""Decision logs: `Decision:`, `State:` and `When:` lines, then the body."""

from __future__ import annotations

from site_builder.archive.formats.declared import Format
from site_builder.archive.formats.fields import Fields

_KEYS = {"Decision": "title", "State": "status", "When": "date"}


def read(text: str, custom: frozenset[str] = frozenset()) -> Fields:
    fields = Fields("decisionlog")
    lines = text.split("\\n")
    start = 0
    for start, line in enumerate(lines):
        key, sep, value = line.partition(":")
        if not sep or key not in _KEYS:
            break
        fields.set(_KEYS[key], value.strip(), start + 1)
    fields.body, fields.body_line = "\\n".join(lines[start:]).strip() + "\\n", start + 1
    return fields


def recognises(text: str) -> bool:
    return text.startswith("Decision:")


FORMAT = Format("decisionlog", read, recognises=recognises, rank=5,
                folders=("decisions/log",), layout="Decision/State/When lines")
'''


def log_record(title: str, day: int) -> str:
    return f"Decision: {title}\nState: accepted\nWhen: 2024-05-0{day}\n\nBecause.\n"


def test_every_allowed_name_is_a_declared_reader() -> None:
    assert FORMATS == FORMAT_NAMES
    assert sorted(f.name for f in registry.formats()) == sorted(FORMATS)
    assert [f.name for f in registry.formats() if f.fallback] == ["nygard"]


def test_auto_asks_the_declarations_in_rank_order() -> None:
    assert registry.recognising("---\nstatus: accepted\n---\n# A\n").name == "madr"
    assert registry.recognising("# A\n\n- Status: accepted\n").name == "log4brains"
    assert registry.recognising("# A\n\n- Status: accepted\n", "0001-a.md").name == "madr"
    assert registry.recognising("# 1. A\n\n## Status\n\nAccepted\n").name == "nygard"
    assert registry.recognising("no markers at all\n").name == "nygard"


def _copy(tmp_path: Path) -> dict[str, str]:
    """The package copied under tmp_path with the new reader module; the environment that
    runs the copy."""
    shutil.copytree(REPO / "site_builder", tmp_path / "site_builder",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "site_builder/archive/formats/decisionlog.py").write_text(NEW_READER)
    return {**os.environ, "PYTHONPATH": str(tmp_path)}


def _run(env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, check=False)


def test_a_format_declared_in_one_module_is_allowed_chosen_and_guessed(tmp_path: Path) -> None:
    env = _copy(tmp_path / "pkg")
    code = "from site_builder.archive.formats import registry; registry.formats()"
    unregistered = _run(env, "-c", code, cwd=tmp_path)
    assert "format readers declare" in unregistered.stderr  # the name is not allowed yet
    keys = tmp_path / "pkg/site_builder/config/keys.py"
    text = keys.read_text()
    assert '"log4brains", "auto")' in text
    keys.write_text(text.replace('"log4brains", "auto")', '"log4brains", "decisionlog", "auto")'))

    allowed = _run(env, "-c", "from site_builder.config.source_formats import FORMATS; "
                   "print(FORMATS)", cwd=tmp_path)
    assert "'decisionlog'" in allowed.stdout, allowed.stderr
    listed = _run(env, "-m", "site_builder", "import", "--help", cwd=tmp_path)
    assert "decisionlog" in listed.stdout, listed.stderr

    repo = tmp_path / "repo"
    (repo / "decisions/log").mkdir(parents=True)
    for number, title in ((1, "Use tabs"), (2, "Use spaces")):
        (repo / f"decisions/log/000{number}-x{number}.md").write_text(log_record(title, number))
    adopted = _run(env, "-m", "site_builder", "init", "--from", str(repo), cwd=tmp_path)
    assert adopted.returncode == 0, adopted.stderr
    assert "found decisions/log: format decisionlog" in adopted.stdout
    assert "check passes: 2 records" in adopted.stderr  # site.yml's format: decisionlog
    assert "format: decisionlog" in (repo / "site.yml").read_text()

    mixed = tmp_path / "mixed"
    (mixed / "adr").mkdir(parents=True)
    (mixed / "adr/0001-tabs-please.md").write_text(log_record("Use tabs", 1))
    (mixed / "adr/0002-use-go.md").write_text(
        "# 2. Use Go\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n")
    (mixed / "site.yml").write_text("title: Mixed\nsources:\n  - path: adr\n"
                                    "    format: auto\n    project: p\n")
    shown = _run(env, "-m", "site_builder", "show", "p/adr/0001-tabs-please", "--root",
                 str(mixed), "--json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert '"title": "Use tabs"' in shown.stdout
