"""Remote mode against a hostile published site, served for real on 127.0.0.1.

The host redirects off-site, drips its headers, sends gzip bombs, publishes decisions.json
files of every wrong shape and affects patterns built to make a matcher backtrack. Every
answer must be a tool result with `isError: true` saying what failed (never -32603, never a
crash), memory must stay flat, and the server must keep serving afterwards.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from site_builder.access.remote import PublishedSite, RemoteSource
from site_builder.mcp.protocol import Request
from site_builder.mcp.server import Server
from tests.mcp.client import RawServer, call, initialize
from tests.mcp.httpsite import (
    SiteServer,
    answer,
    drip_headers,
    encoded,
    gzip_bomb,
    redirect,
)

MB = 1024 * 1024
STARRY = "**a**a**a**a**a**a**a**a**a**b"


@pytest.fixture
def index(example_published: tuple[Path, SiteServer]) -> dict[str, Any]:
    """example-site's published decisions.json, parsed (a fresh copy per test)."""
    root, _site = example_published
    return json.loads((root / "_site" / "decisions.json").read_text(encoding="utf-8"))


@pytest.fixture
def site(example_published: tuple[Path, SiteServer],
         serve_folder: Callable[[Path], SiteServer]) -> SiteServer:
    """example-site's build served by a server of its own, free to misbehave."""
    root, _built = example_published
    return serve_folder(root / "_site")


def ask(server: Server, tool: str = "search_records", **arguments: Any) -> dict[str, Any]:
    """The tools/call result; an error answer (-32603 or any other) fails the test."""
    reply = server.handle(Request("tools/call", {"name": tool, "arguments": arguments}, 1))
    assert "result" in reply, reply
    return reply["result"]


def failure(server: Server, tool: str = "search_records", **arguments: Any) -> str:
    result = ask(server, tool, **arguments)
    assert result["isError"] is True, result
    return result["content"][0]["text"]


def remote(site: SiteServer, url: str | None = None, timeout: float = 10) -> Server:
    return Server(RemoteSource(PublishedSite(url or site.url, timeout=timeout),
                               log=lambda message: None))


# ---- decisions.json of the wrong shape ----------------------------------------------------------


def record(**changes: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A change to the first record of the index."""
    def change(data: dict[str, Any]) -> dict[str, Any]:
        data["records"][0].update(changes)
        return data
    return change


def top(**changes: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def change(data: dict[str, Any]) -> dict[str, Any]:
        data.update(changes)
        return data
    return change


def nested(depth: int) -> Any:
    value: Any = "deep"
    for _ in range(depth):
        value = [value]
    return value


def raw(text: str) -> Callable[[dict[str, Any]], bytes]:
    """The index's text with `"title": "<first title>"` replaced by `text`."""
    def change(data: dict[str, Any]) -> bytes:
        dumped = json.dumps(data)
        first = json.dumps({"title": data["records"][0]["title"]})[1:-1]
        assert first in dumped
        return dumped.replace(first, text, 1).encode()
    return change


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("top-level list", lambda d: [d], "it is not a site-builder decisions.json"),
    ("records an object", top(records={}), "no records list"),
    ("record a number", top(records=[7]), "records[0] must be an object, not 7"),
    ("record a string, no site", top(records=["x"], site=None),
     "records[0] must be an object, not 'x'"),
    ("id a number", record(id=42), "record id must be a non-empty string, not 42"),
    ("id of two parts", record(id="build/0001-x"), "is not <project>/<type>/<slug>"),
    ("title a list", record(title=["t"]), ".title must be a string, not ['t']"),
    ("title a lone surrogate", record(title="\ud800"),
     ".title must be text, not '\\ud800' (it holds a lone surrogate)"),
    ("status a number", record(status=3), ".status must be a string, not 3"),
    ("status unknown", record(status="nonsense"),
     ".status 'nonsense' is not one of the published statuses"),
    ("date impossible", record(date="2026-13-45"),
     ".date must be a date as YYYY-MM-DD, not '2026-13-45'"),
    ("date a number", record(date=20260101), ".date must be a string, not 20260101"),
    ("tags a string", record(tags="infra"), ".tags must be a list, not \"infra\""),
    ("tag a number", record(tags=[1]), ".tags[0] must be a string, not 1"),
    ("author an object", record(authors=[{"x": 1}]), ".authors[0] must be a string"),
    ("related not links", record(related=[7]),
     ".related[0] must be an object, not 7"),
    ("supersedes an object", record(supersedes={"id": "x"}), ".supersedes must be a list"),
    ("supersededBy a string", record(supersededBy="build/adr/0001-x"),
     ".supersededBy must be an object, not \"build/adr/0001-x\""),
    ("reviewers a list", record(reviewers=["ana"]), ".reviewers must be an object"),
    ("reviewer state unknown", record(reviewers={"ana": "maybe"}),
     '.reviewers.ana must be one of "approved", "changes-requested", "pending", not "maybe"'),
    ("approvals a word", record(approvals="two"),
     '.approvals must be a whole number, not "two"'),
    ("approvals a bool", record(approvals=True), ".approvals must be a whole number"),
    ("review a string", record(review="yearly"), '.review must be an object, not "yearly"'),
    ("review every absurd", record(review={"every": "1000000000000 years", "reviewed": None}),
     ".review.every '1000000000000 years' puts the next review after the year 9999"),
    ("reviewed not a date", record(review={"every": "1 year", "reviewed": "soon"}),
     '.review.reviewed "soon" is not of the expected form'),
    ("fields a list", record(fields=[1, 2]), ".fields must be an object, not [1, 2]"),
    ("field nested deep", record(fields={"risk": nested(40)}),
     ".fields.risk is nested more than 16 levels deep"),
    ("field NaN", raw('"fields": {"x": NaN}, "title": "t"'),
     "is not valid JSON: NaN is not a JSON number"),
    ("field infinite", raw('"fields": {"x": 1e400}, "title": "t"'),
     "is not valid JSON: 1e400 is too large for a JSON number"),
    ("field a 5,000-digit number", raw('"fields": {"x": ' + "9" * 5000 + '}, "title": "t"'),
     "is not valid JSON"),
    ("source a string", record(source="github"), '.source must be an object, not "github"'),
    ("source location a number", record(source={"location": 5}),
     ".source.location must be a string, not 5"),
    ("md a number", record(md=5), ".md must be a string, not 5"),
    ("md not a copy", record(md="build/adr/page.html"),
     '.md "build/adr/page.html" is not of the expected form'),
    ("affects a string", record(affects="src/**"), '.affects must be a list, not "src/**"'),
    ("affects holds null", record(affects=[None]), ".affects[0] must be a string, not None"),
    ("statuses a string", top(statuses="all"), 'decisions.json.statuses must be a list, not "all"'),
    ("status without a name", top(statuses=[{"label": "x"}]),
     "decisions.json.statuses[0].name is required"),
    ("status open a word", lambda d: top(statuses=[{**d["statuses"][0], "open": "yes"},
                                                   *d["statuses"][1:]])(d),
     'decisions.json.statuses[0].open must be true or false, not "yes"'),
    ("field type unknown", top(fields=[{"name": "cost", "type": "money"}]),
     'decisions.json.fields[0].type must be one of "string", "number", "boolean", "date", '
     '"enum", "list", not "money"'),
    ("site a list", top(site=[]), "site must be an object, not []"),
    ("base a number", lambda d: top(site={**d["site"], "base": 5})(d),
     "decisions.json.site.base must be a string, not 5"),
    ("project without an id", top(projects=[{"name": "x"}]),
     "decisions.json.projects[0].id is required"),
    ("project order a word", lambda d: top(projects=[{**d["projects"][0], "order": "first"},
                                                     *d["projects"][1:]])(d),
     'decisions.json.projects[0].order must be a whole number, not "first"'),
    ("a record twice", lambda d: top(records=[*d["records"], d["records"][0]])(d),
     "is listed twice"),
    ("nested too deeply", lambda d: b"[" * 100_000 + b"]" * 100_000,
     "is not valid JSON: it is nested too deeply"),
]


def served(site: SiteServer, index: dict[str, Any],
           change: Callable[[dict[str, Any]], Any]) -> None:
    """Serve the changed index as the site's decisions.json."""
    changed = change(copy.deepcopy(index))
    body = changed if isinstance(changed, bytes) else json.dumps(changed).encode()
    site.behaviours["/decisions.json"] = answer(200, body)


@pytest.mark.parametrize(("change", "message"), [(c, m) for _, c, m in MALFORMED],
                         ids=[name for name, _, _ in MALFORMED])
def test_a_decisions_json_of_the_wrong_shape_is_a_tool_error_saying_what_is_wrong(
        site: SiteServer, index: dict[str, Any], change: Callable, message: str):
    served(site, index, change)
    server = remote(site)
    for tool, arguments in [("search_records", {"query": "cache"}), ("list_projects", {}),
                            ("records_for_paths", {"paths": ["site_builder/mcp/remote.py"]}),
                            ("get_record", {"id": "build/adr/8"})]:
        text = failure(server, tool, **arguments)
        assert text.startswith(f"{site.url}decisions.json "), text
        assert message in text, text
        assert len(text) < 400  # the value at fault is shown cut short
    del site.behaviours["/decisions.json"]  # the site is mended: the next call sees it
    assert ask(server, "list_projects")["isError"] is False


def test_there_are_at_least_25_wrong_shapes():
    assert len(MALFORMED) >= 25


# ---- redirects ----------------------------------------------------------------------------------


def off_site(site: SiteServer) -> list[tuple[str, str]]:
    """(Location, the address the message names) of redirects that leave the site at
    `<site>/docs/`."""
    port = site.url.rsplit(":", 1)[1].rstrip("/")
    return [
        (f"http://localhost:{port}/docs/decisions.json",
         f"http://localhost:{port}/docs/decisions.json"),
        ("http://169.254.169.254/latest/meta-data/", "http://169.254.169.254/latest/meta-data/"),
        (f"https://127.0.0.1:{port}/docs/decisions.json",
         f"https://127.0.0.1:{port}/docs/decisions.json"),
        ("http://127.0.0.1:9/docs/decisions.json", "http://127.0.0.1:9/docs/decisions.json"),
        ("//evil.example/docs/decisions.json", "http://evil.example/docs/decisions.json"),
        (f"http://127.0.0.1:{port}@evil.example/docs/", "evil.example/docs/"),
        ("/decisions.json", f"{site.url}decisions.json"),                # outside base
        ("/docs/../decisions.json", f"{site.url}decisions.json"),
        ("/docs/%2e%2e/decisions.json", f"{site.url}docs/%2e%2e/decisions.json"),
        ("/docsx/decisions.json", f"{site.url}docsx/decisions.json"),
    ]


def test_redirects_off_the_site_are_refused_naming_where_they_lead(site: SiteServer):
    site.behaviours["/docs/decisions.json"] = answer(200, b"{}")
    server = remote(site, site.url + "docs/")
    for location, named in off_site(site):
        site.behaviours["/docs/decisions.json"] = redirect(location)
        before = len(site.hits)
        text = failure(server)
        assert text.startswith(f"{site.url}docs/decisions.json redirects to "), text
        assert named in text and f"outside {site.url}docs/" in text, text
        assert len(site.hits) == before + 1  # the target was never asked


def test_a_same_site_redirect_is_followed_at_most_twice(site: SiteServer, index):
    body = json.dumps(index).encode()
    site.behaviours["/old/decisions.json"] = redirect("/old/v2/decisions.json", 301)
    site.behaviours["/old/v2/decisions.json"] = redirect(f"{site.url}old/v3/decisions.json")
    site.behaviours["/old/v3/decisions.json"] = answer(200, body)
    assert ask(remote(site, site.url + "old/"))["isError"] is False

    site.behaviours["/old/v3/decisions.json"] = redirect("v4/decisions.json", 307)
    assert failure(remote(site, site.url + "old/")) == (
        f"{site.url}old/decisions.json redirects more than 2 times; not followed further")
    site.behaviours["/old/decisions.json"] = redirect("decisions.json", 308)  # a loop
    assert "redirects more than 2 times" in failure(remote(site, site.url + "old/"))
    site.behaviours["/old/decisions.json"] = answer(302)
    assert failure(remote(site, site.url + "old/")) == (
        f"{site.url}old/decisions.json answered HTTP 302 without a Location")
    for location in ("javascript:alert(1)", "http://[::1", "\x00"):
        site.behaviours["/old/decisions.json"] = redirect(location)
        assert failure(remote(site, site.url + "old/")).startswith(
            f"{site.url}old/decisions.json could not be read: ")


# ---- compressed bodies --------------------------------------------------------------------------


def test_compressed_bodies_are_read_and_refused_at_the_limit_of_each_layer(
        site: SiteServer, index: dict[str, Any]):
    import gzip
    import zlib

    body = json.dumps(index).encode()
    server = remote(site)
    for encoding, data in [("gzip", gzip.compress(body)),
                           ("gzip, gzip", gzip.compress(gzip.compress(body))),
                           ("deflate", zlib.compress(body)),
                           ("deflate", zlib.compress(body)[2:-4])]:  # raw deflate, as IIS sends
        site.behaviours["/decisions.json"] = encoded(data, encoding)
        assert ask(server)["isError"] is False, encoding
        server = remote(site)
    copy_path = "/build/adr/0008-build-beside-the-output-and-swap.md"
    # A middle layer that is itself larger than the limit: stored (uncompressed) gzip.
    stored = gzip.compress(b"\0" * (5 * MB), compresslevel=0)
    site.behaviours[copy_path] = encoded(gzip.compress(stored), "gzip, gzip")
    assert failure(server, "get_record", id="build/adr/8") == (
        f"{site.url}{copy_path[1:]} is larger than 4 MB; refusing to read it")
    for encoding, data, message in [
            ("br", b"x", "is sent with Content-Encoding br, which site-builder cannot read"),
            ("gzip", b"not gzip at all", "is not valid gzip data"),
            ("gzip, gzip, gzip, gzip", b"",
             "is sent compressed 4 times over; refusing to unpack it")]:
        site.behaviours["/decisions.json"] = encoded(data, encoding)
        assert failure(remote(site)) == f"{site.url}decisions.json {message}"


# ---- affects patterns from the site -------------------------------------------------------------


def test_hostile_affects_patterns_answer_normally_and_are_logged(
        site: SiteServer, index: dict[str, Any]):
    index["records"][0]["affects"] = ["[z-a]", STARRY, "site_builder/**"]
    site.behaviours["/decisions.json"] = answer(200, json.dumps(index).encode())
    logged: list[str] = []
    server = Server(RemoteSource(PublishedSite(site.url), log=logged.append))
    paths = ["a" * 1000, "a/" * 500, "site_builder/mcp/remote.py", "x" * 999 + "b"]
    found = ask(server, "records_for_paths", paths=paths)
    assert found["isError"] is False, found
    ids = [r["id"] for part in ("current", "historical") for r in found["structuredContent"][part]]
    assert index["records"][0]["id"] in ids
    assert logged == [f"{site.url}decisions.json: {index['records'][0]['id']}: affects pattern "
                      "'[z-a]' cannot be used: the range z-a in [...] is reversed; "
                      "it matches nothing"]


# ---- the real server, as a subprocess -----------------------------------------------------------


def peak_memory_mb(pid: int) -> float:
    """The process's peak resident set (VmHWM), in MB."""
    status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


@pytest.fixture
def server_process(site: SiteServer) -> Iterator[RawServer]:
    with RawServer("--url", site.url, "--timeout", "2") as server:
        assert "result" in server.request(initialize())
        yield server


def tool_text(server: RawServer, request_id: int, tool: str = "search_records",
              **arguments: Any) -> tuple[bool, str]:
    """(isError, text) of one call; an error answer fails the test."""
    reply = server.request(call(request_id, tool, **arguments))
    assert reply.get("id") == request_id and "result" in reply, reply
    return reply["result"]["isError"], reply["result"]["content"][0]["text"]


def test_a_bomb_keeps_the_server_s_memory_flat(site: SiteServer, server_process: RawServer):
    site.behaviours["/decisions.json"] = encoded(gzip_bomb(512), "gzip, gzip")
    assert tool_text(server_process, 1) == (
        True, f"{site.url}decisions.json is larger than 64 MB; refusing to read it")
    assert peak_memory_mb(server_process.process.pid) < 300  # 512 MB unpacked, 64 MB at most
    del site.behaviours["/decisions.json"]
    assert tool_text(server_process, 2, "list_projects")[0] is False


def test_headers_dripped_byte_by_byte_meet_the_deadline(site: SiteServer,
                                                        server_process: RawServer):
    site.behaviours["/decisions.json"] = drip_headers(site, every=0.5, limit=60)
    started = time.monotonic()
    assert tool_text(server_process, 1) == (
        True, f"{site.url}decisions.json did not answer within 2s")
    # Each byte came well within the 2 s a read may take; only a deadline for the whole
    # request ends it before the drip's 60 s.
    assert time.monotonic() - started < 30
    del site.behaviours["/decisions.json"]
    assert tool_text(server_process, 2, "list_projects")[0] is False


def test_every_hostile_answer_is_a_tool_error_and_the_server_keeps_serving(
        site: SiteServer, index: dict[str, Any], server_process: RawServer):
    hostile: list[tuple[Callable[[SiteServer], None], str]] = [
        (lambda s, location=location: s.behaviours.update(
            {"/decisions.json": redirect(location)}), f"redirects to {named}")
        for location, named in off_site(site)[:5]]
    for _name, change, message in MALFORMED:
        hostile.append((lambda s, change=change: served(s, index, change), message))
    for request_id, (make, message) in enumerate(hostile, start=1):
        make(site)
        is_error, text = tool_text(server_process, request_id)
        assert is_error is True and message in text, (message, text)
        assert text.startswith(f"{site.url}decisions.json ")
    del site.behaviours["/decisions.json"]
    assert server_process.request({"jsonrpc": "2.0", "id": "ping", "method": "ping"}) == {
        "jsonrpc": "2.0", "id": "ping", "result": {}}
    assert tool_text(server_process, 999, "list_projects")[0] is False
    assert server_process.process.poll() is None


# ---- mutations at random ------------------------------------------------------------------------

ODD_VALUES: list[Any] = [
    None, True, 0, -1, 1.5, 2**70, "", "x", "\ud800", "2026-02-30", "9999-12-31", [], {}, [1],
    ["a"], {"id": "x"}, {"id": 5}, "a/b/0001-c", "a/b/" + "1" * 5000 + "-x", "6 months",
    {"every": "99999 years"}, {"every": "3 months", "reviewed": "9999-12-01"}, "[z-a]", STARRY,
    "../x", {"location": 1}, [{"id": "build/adr/0001-x"}], "approved", nested(20)]
EVERY_TOOL: list[tuple[str, dict[str, Any]]] = [
    ("list_projects", {}), ("search_records", {"query": "cache"}),
    ("search_records", {"current_only": True, "field": "risk=high"}), ("list_tags", {}),
    ("list_fields", {}), ("list_authors", {}), ("due_reviews", {"all": True}),
    ("rfc_reviews", {}), ("records_for_paths", {"paths": ["site_builder/mcp/remote.py"]}),
    ("list_superseded", {}), ("get_record", {"id": "build/adr/8"})]


def places(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path of a JSON document (the first three items of each list)."""
    yield prefix
    children = (value.items() if isinstance(value, dict)
                else enumerate(value[:3]) if isinstance(value, list) else ())
    for key, child in children:
        yield from places(child, (*prefix, key))


def _child(value: Any, key: Any) -> Any:
    if isinstance(value, dict) and key in value:
        return value[key]
    if isinstance(value, list) and isinstance(key, int) and key < len(value):
        return value[key]
    return None


def test_random_wrong_values_are_refused_or_answered_never_a_crash(index: dict[str, Any]):
    import random

    from site_builder.access.published import PublishedError, archive_from_index
    from site_builder.mcp import tools

    rng = random.Random(17)
    keys = [p for p in places(index) if p]
    in_records = [p for p in keys if p[0] == "records"]
    answered = 0
    for _ in range(200):
        data = copy.deepcopy(index)
        for _ in range(rng.randint(1, 3)):
            *parents, last = rng.choice(in_records if rng.random() < 0.7 else keys)
            target: Any = data
            for key in parents:  # earlier changes may have replaced a parent
                target = _child(target, key)
            if isinstance(target, dict) and rng.random() < 0.2:
                target.pop(last, None)
            elif _child(target, last) is not None or isinstance(target, dict):
                target[last] = copy.deepcopy(rng.choice(ODD_VALUES))
        try:
            archive = archive_from_index(data, lambda record: "body", dict)
        except PublishedError:
            continue
        answered += 1
        for name, arguments in EVERY_TOOL:
            tool = tools.BY_NAME[name]
            try:
                answer, _text = tools.run(tool, archive, tools.arguments(tool, arguments))
            except ValueError as exc:  # QueryError (an unknown id...) is an answer too
                assert type(exc).__name__ in ("QueryError", "LookupFailed"), exc
                continue
            json.dumps(answer, allow_nan=False)
    assert answered > 25  # the mutations left many indexes usable, and those were queried
