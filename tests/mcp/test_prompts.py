"""Prompts and completion on example-site, through the official MCP SDK client (mcp 2.3.0).

Every test runs eight times: over stdio and over Streamable HTTP, with the SDK client in its
default mode (2026-07-28) and in legacy mode (the initialize handshake), each against the
content folder (`--root`) and against the site built from it and served on 127.0.0.1
(`--url`). What a prompt must say is taken from the tools' answers on the same connection,
so the prompts are held to what the server itself reports.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import MCPError
from mcp.types import PromptReference, ResourceTemplateReference

from site_builder.archive.archive import Archive
from site_builder.mcp import prompts
from site_builder.mcp.completion import MAX_VALUES
from site_builder.query.textindex import fold
from site_builder.sources.load import load_archive
from tests.mcp.client import Session, http_client, mcp_client
from tests.mcp.httpserver import HttpServer
from tests.mcp.httpsite import SiteServer

PATHS = ["site_builder/render/output/writer.py", "site_builder/mcp/server.py"]
COMBINATIONS = [f"{where}-{transport}-{mode}" for where in ("local", "remote")
                for transport in ("stdio", "http") for mode in ("auto", "legacy")]


@pytest.fixture(scope="module")
def archive(example_published: tuple[Path, SiteServer]) -> Archive:
    return load_archive(example_published[0])


@pytest.fixture(scope="module", params=COMBINATIONS)
def client(request: pytest.FixtureRequest,
           example_published: tuple[Path, SiteServer]) -> Iterator[Session]:
    where, transport, mode = request.param.split("-")
    root, site = example_published
    args = ("--root", str(root)) if where == "local" else ("--url", site.url)
    if transport == "stdio":
        with mcp_client(*args, mode=mode) as session:
            yield session
        return
    with HttpServer(*args) as server, http_client(server.url, mode=mode) as session:
        yield session


def text_of(client: Session, name: str, **arguments: str) -> str:
    """The one message of a prompt, which must be the user's text."""
    result = client.get_prompt(name, arguments)
    assert [m.role for m in result.messages] == ["user"]
    assert result.description == prompts.BY_NAME[name].description
    return result.messages[0].content.text


def refused(client: Session, name: str, arguments: dict[str, str]) -> str:
    """The message of a prompts/get that must be refused as invalid params."""
    with pytest.raises(MCPError) as raised:
        client.get_prompt(name, arguments)
    assert raised.value.error.code == -32602
    return raised.value.error.message


def test_the_prompts_and_their_arguments_are_listed_as_declared(client: Session):
    capabilities = client.session.server_capabilities
    assert capabilities.prompts is not None and capabilities.completions is not None
    listed = client.list_prompts().prompts
    assert [p.name for p in listed] == ["draft_record", "review_change", "explain_record"]
    for prompt in listed:
        declared = prompts.BY_NAME[prompt.name]
        assert prompt.description == declared.description
        assert [(a.name, a.required) for a in prompt.arguments] == [
            (a.param.name, a.param.required) for a in declared.arguments]
        assert all(a.description for a in prompt.arguments)


def test_draft_record_is_the_next_record_of_the_folder_from_the_template(
        client: Session, archive: Archive):
    text = text_of(client, "draft_record", project="agents", type="adr",
                   title="Offer prompts to agents", tags="mcp, agents")
    numbers = [int(r.number) for r in archive.records
               if (r.project, r.type) == ("agents", "adr")]
    ref = f"AGENTS-ADR-{max(numbers) + 1:04d}"
    assert text.startswith(f"Write decision record {ref} for the Agents project")
    path = f"agents/adr/{max(numbers) + 1:04d}-offer-prompts-to-agents.md"
    assert path in text and "site-builder new agents adr 'Offer prompts to agents'" in text
    for status in archive.config.statuses:
        assert status.name in text
    block = re.search(r"```markdown\n(.*?)\n```", text, re.DOTALL)[1]
    assert block.startswith('---\ntitle: "Offer prompts to agents"\nstatus: proposed\n')
    assert 'tags: ["mcp", "agents"]' in block
    declared = [*archive.config.fields, *archive.projects["agents"].fields]
    assert [line.split(":")[0] for line in block.splitlines() if ":  # " in line] == [
        f.name for f in declared]


def test_review_change_names_what_records_for_paths_finds(client: Session):
    found = client.answer("records_for_paths", paths=PATHS, limit=200)
    assert found["current"] and found["historical"]  # example-site has both
    text = text_of(client, "review_change", paths=", ".join(PATHS),
                   summary="Write the output in one pass")
    assert "Summary: Write the output in one pass" in text
    for path in PATHS:
        assert f"`{path}`" in text
    in_force, _, past = text.partition("No longer in force")
    for item in found["current"]:
        assert f"- {item['ref']} \"{item['title']}\"" in in_force
        assert f"  {item['description']}\n" in in_force
    for item in found["historical"]:
        whole = client.answer("get_record", id=item["id"])
        line = next(line for line in past.splitlines() if line.startswith(f"- {item['ref']} "))
        if whole["currentRecord"] is not None:
            assert f"follow {whole['currentRecord']['ref']} " in line
        else:
            assert line.endswith("not in force.")


def test_review_change_of_paths_nothing_governs_says_so(client: Session):
    text = text_of(client, "review_change", paths="nowhere/at/all.txt")
    assert "No record governs these paths" in text


def test_explain_record_holds_the_record_its_lineage_and_review(client: Session):
    record = client.answer("get_record", id="BUILD-ADR-0004")
    copy = client.call("get_record", id="BUILD-ADR-0004").content[0].text
    text = text_of(client, "explain_record", id="build/adr/4")
    assert text.endswith(copy.rstrip("\n"))
    assert "In force: no" in text
    for earlier in record["supersedes"]:
        assert f"Supersedes: {earlier['ref']}" in text
    chain = next(line for line in text.splitlines() if line.startswith("Superseded by: "))
    assert chain.startswith(f"Superseded by: {record['supersededBy']['ref']} ")
    assert f"→ {record['currentRecord']['ref']} " in chain


def test_explain_record_tells_the_review_state(client: Session):
    due = client.answer("due_reviews", all=True, limit=1)["records"][0]
    text = text_of(client, "explain_record", id=due["ref"])
    assert f"Review: every {due['review']['every']}" in text
    assert f"next due {due['review']['due']}" in text


def test_bad_arguments_are_invalid_params_that_say_what_to_pass(client: Session,
                                                                 archive: Archive):
    missing = refused(client, "draft_record", {"project": "build", "title": "x"})
    assert "type is required" in missing
    unknown = refused(client, "explain_record", {"id": "build/adr/4", "format": "x"})
    assert '"format" is not an argument of explain_record' in unknown
    project = refused(client, "draft_record", {"project": "nope", "type": "adr",
                                               "title": "x"})
    assert project.endswith(f"the projects are {', '.join(archive.projects)}.")
    status = refused(client, "draft_record", {"project": "build", "type": "adr",
                                              "title": "x", "status": "maybe"})
    assert 'No status "maybe"' in status and "implemented" in status
    assert "No record matches" in refused(client, "explain_record", {"id": "0001"})
    assert "at least one" in refused(client, "review_change", {"paths": " , "})
    assert "the prompts are draft_record" in refused(client, "write_code", {})


def _expected(names: set[str], prefix: str) -> list[str]:
    return sorted((n for n in names if fold(n).startswith(fold(prefix))),
                  key=lambda n: (fold(n), n))


def _names(archive: Archive) -> dict[str, set[str]]:
    records = archive.records
    return {
        "record": {r.id for r in records} | {r.ref for r in records},
        "project": set(archive.projects),
        "type": {r.type for r in records},
        "tag": {t for r in records for t in r.tags},
        "status": {s.name for s in archive.config.statuses},
        # A `!` pattern excludes paths; it names none to offer.
        "path": {p for r in records for p in r.affects.patterns if not p.startswith("!")},
    }


def _check(completion: Any, names: set[str], prefix: str, head: str = "") -> None:
    expected = _expected(names, prefix)
    assert completion.total == len(expected) > 0
    assert completion.values == [head + v for v in expected[:MAX_VALUES]]
    assert completion.has_more is (len(expected) > MAX_VALUES)


def test_every_prompt_argument_completes_by_prefix_in_any_case(client: Session,
                                                               archive: Archive):
    names = _names(archive)
    for prompt in prompts.PROMPTS:
        ref = PromptReference(name=prompt.name)
        for arg in prompt.arguments:
            if arg.completes is None:
                answer = client.complete(ref, {"name": arg.param.name, "value": "a"})
                assert answer.completion.values == []
                continue
            some = sorted(names[arg.completes])[len(names[arg.completes]) // 2]
            for prefix in (some[:2], some[:2].upper(), ""):
                answer = client.complete(ref, {"name": arg.param.name, "value": prefix})
                _check(answer.completion, names[arg.completes], prefix)


def test_list_arguments_complete_their_last_item(client: Session, archive: Archive):
    ref = PromptReference(name="review_change")
    answer = client.complete(ref, {"name": "paths", "value": f"{PATHS[0]}, site_builder/m"})
    _check(answer.completion, _names(archive)["path"], "site_builder/m", f"{PATHS[0]}, ")


def test_the_decision_template_completes_ids_and_refs(client: Session, archive: Archive):
    ref = ResourceTemplateReference(uri="decision://{id}")
    for prefix in ("build-adr-000", "BUILD/ADR/", "agents/"):
        answer = client.complete(ref, {"name": "id", "value": prefix})
        _check(answer.completion, _names(archive)["record"], prefix)
    first = client.complete(ref, {"name": "id", "value": "AGENTS-RFC"}).completion.values[0]
    assert client.read_resource(f"decision://{first}").contents[0].text.startswith("---\n")


def test_completion_of_what_does_not_exist_is_invalid_params(client: Session):
    for ref, name in ((PromptReference(name="write_code"), "id"),
                      (PromptReference(name="explain_record"), "format"),
                      (ResourceTemplateReference(uri="decision://{slug}"), "slug"),
                      (ResourceTemplateReference(uri="decision://{id}"), "slug")):
        with pytest.raises(MCPError) as raised:
            client.complete(ref, {"name": name, "value": ""})
        assert raised.value.error.code == -32602


def test_a_type_completes_within_the_project_already_chosen(client: Session,
                                                             archive: Archive):
    ref = PromptReference(name="draft_record")
    for project in archive.projects:
        answer = client.complete(ref, {"name": "type", "value": ""},
                                 context_arguments={"project": project.upper()})
        ours = {r.type for r in archive.records if r.project == project}
        _check(answer.completion, ours, "")
    everything = client.complete(ref, {"name": "type", "value": ""}).completion.values
    assert everything == sorted({r.type for r in archive.records})
