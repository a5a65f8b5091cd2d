"""YAML from many hands: alias bombs, huge numbers, NaN, absurd intervals, control characters.

Each oddity must be one finding at its line in every command (`check`, `build`, `serve`,
`mcp`), never a traceback, a MemoryError or a hang. The commands run as real subprocesses
with a timeout, so an alias bomb that is walked (25 s and gigabytes before this was fixed)
fails the test instead of freezing the suite.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from site_builder.text import yamlfile
from tests.conftest import run_cli
from tests.mcp.client import mcp_client
from tests.serve.conftest import Serving
from tests.sources.conftest import make_archive, record_text

# The classic "billion laughs": nine levels of nine aliases, 9^9 strings once expanded.
BOMB = "".join(
    [f'a: &a [{",".join(["lol"] * 9)}]\n']
    + [f"{name}: &{name} [{','.join([f'*{prev}'] * 9)}]\n"
       for prev, name in zip("abcdefgh", "bcdefghi", strict=True)])
RECORD = Path("content/local/adr/0001-local-choice.md")
TIMEOUT = 30  # generous on a loaded machine; the bomb took ~25 s and 5 GB before the fix

# (front matter lines after description, message part, 1-based line of the culprit within
# those lines). Each is refused at its own line.
ODDITIES = {
    "alias bomb": (BOMB, "aliases here expand to more than", 5),
    "recursive alias": ("loop: &x [*x]\n", "an alias refers to the value that contains it", 1),
    "5,000-digit integer": ("effort: " + "9" * 5000 + "\n", "is too large", 1),
    "NaN": ("effort: .nan\n", "is not a finite number", 1),
    "infinity": ("effort: -.inf\n", "is not a finite number", 1),
    "absurd interval": ("review: {every: 1000000000000 years}\n", "falls due after the year 9999",
                        1),
    "escaped control character": ('tags: ["ok", "bell\\x07"]\n', "control character U+0007", 1),
    "raw control character": ("tags: [ok, bell\x07]\n", "character U+0007 is not allowed", 1),
    "deep nesting": ("deep: " + "[" * 200 + "]" * 200 + "\n", "nested more than", 1),
}
# The first extra line of record_text's front matter is the file's line 6.
FIRST_EXTRA_LINE = 6


def _broken(tmp_path: Path, extra: str) -> Path:
    root = make_archive(tmp_path / "site")
    (root / RECORD).write_text(record_text("Local choice", extra=extra), encoding="utf-8")
    return root


def _errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ": error:" in line]


YAML_ODDITIES = {name: case for name, case in ODDITIES.items() if name != "absurd interval"}


@pytest.mark.parametrize("extra, message, line", YAML_ODDITIES.values(),
                         ids=YAML_ODDITIES.keys())
def test_parsing_refuses_each_oddity_at_its_line(extra: str, message: str, line: int) -> None:
    with pytest.raises(yamlfile.YamlError) as refused:
        yamlfile.parse_with_lines("title: x\n" + extra)
    assert message in refused.value.message
    assert refused.value.line == line + 1


def test_the_interval_is_refused_by_validation_not_by_yaml() -> None:
    value = yamlfile.parse("review: {every: 1000000000000 years}\n")
    assert value == {"review": {"every": "1000000000000 years"}}


@pytest.mark.parametrize("extra, message, line", ODDITIES.values(), ids=ODDITIES.keys())
def test_check_and_build_report_each_oddity_as_one_error_at_its_line(
        tmp_path: Path, extra: str, message: str, line: int) -> None:
    root = _broken(tmp_path, extra)
    for command in ("check", "build"):
        result = run_cli(command, cwd=root, timeout=TIMEOUT)
        assert result.returncode == 1, result.stdout + result.stderr
        assert "Traceback" not in result.stderr and "Error:" not in result.stderr
        errors = _errors(result.stderr)
        assert len(errors) == 1, errors
        where = f"{RECORD.as_posix()}:{FIRST_EXTRA_LINE + line - 1}: error: "
        assert errors[0].startswith(where) and message in errors[0], errors[0]
    assert not (root / "_site" / "decisions.json").exists()


def test_nan_never_reaches_decisions_json(tmp_path: Path) -> None:
    """A declared number field set to `.nan` is refused, so no NaN (invalid JSON) is written;
    a finite value of the same field builds into valid JSON."""
    root = make_archive(tmp_path / "site")
    site_yml = root / "site.yml"
    site_yml.write_text(site_yml.read_text() + "fields:\n  - {name: effort, type: number}\n")
    (root / RECORD).write_text(record_text("Local choice", extra="effort: .nan\n"))
    assert run_cli("build", cwd=root, timeout=TIMEOUT).returncode == 1
    (root / RECORD).write_text(record_text("Local choice", extra="effort: 2.5\n"))
    built = run_cli("build", cwd=root, timeout=TIMEOUT)
    assert built.returncode == 0, built.stderr
    text = (root / "_site" / "decisions.json").read_text()
    records = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in JSON"))
    assert records["records"][0]["fields"]["effort"] == 2.5


@pytest.mark.parametrize("name", ["site.yml", "_project.yml"])
def test_an_alias_bomb_in_site_or_project_yml_is_one_error(tmp_path: Path, name: str) -> None:
    root = make_archive(tmp_path / "site")
    path = root / name if name == "site.yml" else root / "content" / "local" / name
    before = path.read_text() if path.exists() else "name: Local\n"
    path.write_text(before + BOMB)
    offset = len(before.splitlines())
    for command in ("check", "build"):
        result = run_cli(command, cwd=root, timeout=TIMEOUT)
        assert result.returncode == 1, result.stdout + result.stderr
        assert "Traceback" not in result.stderr
        errors = _errors(result.stderr)
        assert len(errors) == 1, errors
        assert errors[0].startswith(f"{path.relative_to(root).as_posix()}:{offset + 5}: error: "
                                    "aliases here expand"), errors[0]


def test_serve_lists_the_bomb_as_a_problem_and_keeps_answering(tmp_path: Path) -> None:
    root = make_archive(tmp_path / "site")
    (root / "content" / "local" / "adr" / "0002-bomb.md").write_text(
        record_text("Bomb", extra=BOMB))
    serving = Serving(root)
    try:
        serving.wait_for("the bomb reported", lambda: any(
            "aliases here expand" in p["message"] for p in serving.problems()), TIMEOUT)
        assert serving.get("/").status in (200, 404)  # answering, with the problem shown
    finally:
        assert serving.stop() == 0
    assert "Traceback" not in "".join(serving.stderr)


def test_serve_and_mcp_refuse_a_bombed_site_yml_with_one_line(tmp_path: Path) -> None:
    root = make_archive(tmp_path / "site")
    (root / "site.yml").write_text((root / "site.yml").read_text() + BOMB)
    for args in (("serve", "--port", "0"), ("mcp",)):
        result = run_cli(*args, "--root", str(root), timeout=TIMEOUT, input="")
        assert result.returncode != 0
        assert "Traceback" not in result.stderr
        assert "aliases here expand" in result.stderr, result.stderr


def test_mcp_local_mode_logs_each_oddity_and_answers(tmp_path: Path) -> None:
    root = make_archive(tmp_path / "site")
    folder = root / "content" / "local" / "adr"
    for number, (extra, _, _) in enumerate(ODDITIES.values(), start=2):
        (folder / f"{number:04d}-odd.md").write_text(record_text(f"Odd {number}", extra=extra))
    with mcp_client("--root", str(root)) as session:
        found = session.answer("search_records", query="choice")
        assert [r["id"] for r in found["records"]] == ["local/adr/0001-local-choice"]
        projects = session.answer("list_projects")
        assert [p["id"] for p in projects["projects"]] == ["local"]
        log = session.stderr
    assert "Traceback" not in log
    for _, message, _ in ODDITIES.values():
        assert message in log, (message, log)
