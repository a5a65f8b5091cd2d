"""draft_record on an archive made by the test, over raw stdio: what it numbers, which sections
and fields it offers, and that the record it drafts is one `check` accepts and `show` finds.
Then what each protocol revision is shown of prompts and completion."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLE_SITE, run_cli
from tests.mcp.client import RawServer, initialize

SITE = """\
title: Drafts
fields:
  - {name: risk, label: Risk, type: enum, values: [low, high], description: Blast radius}
"""
RECORD = """\
---
title: {title}
status: accepted
date: 2026-01-0{day}
description: {title}.
{extra}---

## Status

Accepted.

## Context

Why.

## Decision

What.

## Consequences

Then.
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """An archive whose ops/adr records use Nygard's sections, with a draft numbered 0003."""
    folder = tmp_path / "content" / "ops" / "adr"
    folder.mkdir(parents=True)
    (tmp_path / "site.yml").write_text(SITE, encoding="utf-8")
    for day, (name, extra) in enumerate((("0001-first", ""), ("0002-second", ""),
                                         ("0003-unfinished", "draft: true\n")), 1):
        (folder / f"{name}.md").write_text(
            RECORD.format(title=name[5:].capitalize(), day=day, extra=extra), encoding="utf-8")
    return tmp_path


def get(server: RawServer, name: str, **arguments: str) -> dict[str, Any]:
    return server.request({"jsonrpc": "2.0", "id": 1, "method": "prompts/get",
                           "params": {"name": name, "arguments": arguments}})


def test_the_drafted_record_is_numbered_after_drafts_and_passes_check(root: Path):
    with RawServer("--root", str(root)) as server:
        server.request(initialize())
        text = get(server, "draft_record", project="ops", type="adr",
                   title="Rotate keys")["result"]["messages"][0]["content"]["text"]
    assert text.startswith("Write decision record OPS-ADR-0004 ")  # 0003 is a draft
    path = root / "content/ops/adr/0004-rotate-keys.md"
    assert f"Save it as {path}," in text
    block = re.search(r"```markdown\n(.*?\n)```", text, re.DOTALL)[1]
    assert re.findall(r"^## (.*)$", block, re.MULTILINE) == [
        "Status", "Context", "Decision", "Consequences"]
    assert "risk:  # low, high. Blast radius" in block
    path.write_text(block.replace("risk:  #", "risk: low  #"), encoding="utf-8")
    checked = run_cli("check", "--root", str(root))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    shown = run_cli("show", "OPS-ADR-0004", "--root", str(root))
    assert shown.returncode == 0 and 'title: "Rotate keys"' in shown.stdout


def test_a_draft_the_new_command_would_refuse_is_refused_alike(root: Path):
    with RawServer("--root", str(root)) as server:
        server.request(initialize())
        answer = get(server, "draft_record", project="ops", type="A D R", title="x")
    assert answer["error"]["code"] == -32602
    assert "Type 'A D R' must be lowercase letters, digits" in answer["error"]["message"]


MODERN = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {}}


def test_each_revision_is_shown_what_it_knows():
    with RawServer("--root", str(EXAMPLE_SITE)) as server:
        oldest = server.request(initialize("2024-11-05"))["result"]["capabilities"]
        assert oldest == {"tools": {}, "resources": {}, "prompts": {}}
        listed = server.request({"jsonrpc": "2.0", "id": 1, "method": "prompts/list"})
        assert all("title" not in p for p in listed["result"]["prompts"])
        complete = server.request({"jsonrpc": "2.0", "id": 2, "method": "completion/complete",
                                   "params": {"ref": {"type": "ref/prompt",
                                                      "name": "explain_record"},
                                              "argument": {"name": "id", "value": "BUILD-"}}})
        assert complete["result"]["completion"]["values"][0] == "BUILD-ADR-0001"
        server.request(initialize("2025-06-18"))
        listed = server.request({"jsonrpc": "2.0", "id": 3, "method": "prompts/list"})
        assert all(p["title"] for p in listed["result"]["prompts"])
        modern = server.request({"jsonrpc": "2.0", "id": 4, "method": "prompts/list",
                                 "params": {"_meta": MODERN}})["result"]
        assert (modern["resultType"], modern["ttlMs"]) == ("complete", 300_000)
        cursor = server.request({"jsonrpc": "2.0", "id": 5, "method": "prompts/list",
                                 "params": {"cursor": "1"}})
        assert cursor["error"]["code"] == -32602


@pytest.mark.parametrize("params", [
    {}, {"ref": {"type": "ref/prompt", "name": "draft_record"}},
    {"ref": {"type": "ref/tool", "name": "get_record"}, "argument": {"name": "id", "value": ""}},
    {"ref": "draft_record", "argument": {"name": "project", "value": ""}},
    {"ref": {"type": "ref/prompt", "name": "draft_record"},
     "argument": {"name": "project", "value": 3}},
])
def test_a_malformed_completion_request_is_invalid_params(params: dict[str, Any]):
    with RawServer("--root", str(EXAMPLE_SITE)) as server:
        answer = server.request({"jsonrpc": "2.0", "id": 1, "method": "completion/complete",
                                 "params": params})
    assert answer["error"]["code"] == -32602 and answer["error"]["message"]


def test_a_review_of_more_paths_than_records_for_paths_takes_is_refused():
    with RawServer("--root", str(EXAMPLE_SITE)) as server:
        answer = get(server, "review_change", paths=",".join(f"f{n}.py" for n in range(257)))
    assert answer["error"]["code"] == -32602
    assert "257 paths; a review takes at most 256" in answer["error"]["message"]


@pytest.mark.parametrize("arguments", [None, [], {"id": 4}, {"id": ""}, {"id": "x" * 501}])
def test_malformed_prompt_arguments_are_invalid_params(arguments: Any):
    with RawServer("--root", str(EXAMPLE_SITE)) as server:
        answer = server.request({"jsonrpc": "2.0", "id": 1, "method": "prompts/get",
                                 "params": {"name": "explain_record", "arguments": arguments}})
    assert answer["error"]["code"] == -32602 and answer["error"]["message"]


def test_a_project_kept_in_another_format_is_refused_as_new_refuses_it(root: Path):
    (root / "site.yml").write_text(SITE + "sources:\n  - path: doc/adr\n    format: nygard\n"
                                   "    project: legacy\n", encoding="utf-8")
    (root / "doc/adr").mkdir(parents=True)
    (root / "doc/adr/0001-use-make.md").write_text(
        "# 1. Use make\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n"
        "## Decision\n\nMake.\n\n## Consequences\n\nFine.\n", encoding="utf-8")
    with RawServer("--root", str(root)) as server:
        server.request(initialize())
        answer = get(server, "draft_record", project="legacy", type="adr", title="Use just")
    new = run_cli("new", "legacy", "adr", "Use just", "--root", str(root))
    assert new.returncode == 2
    refusal = new.stderr.strip().removeprefix("site-builder: ")
    assert answer["error"]["code"] == -32602
    assert answer["error"]["message"] == f"Invalid params: {refusal[:1].upper()}{refusal[1:]}."
