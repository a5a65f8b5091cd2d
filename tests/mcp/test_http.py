"""`site-builder mcp --http`: Streamable HTTP through the SDK client and through raw requests.

The server runs as a real subprocess on 127.0.0.1 (port 0, the printed address); raw
requests go through httpx, so each refusal the HTTP transport makes (401, 403, 405, 421, the bind
refusal) is seen on the wire as a client would see it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import EXAMPLE_SITE, REPO, run_cli
from tests.mcp.client import http_client, mcp_client
from tests.mcp.httpserver import HttpServer, uvicorn_factory
from tests.mcp.test_remote import assert_same_answers

MODERN = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {}}
JSON = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
TOKEN = "s3cret-Token_1"


def modern(request_id: Any, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method,
            "params": {"_meta": MODERN, **params}}


def post(url: str, message: Any, **headers: str) -> httpx.Response:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return httpx.post(url, content=body, headers={**JSON, **headers}, timeout=30)


@pytest.fixture(scope="module")
def server() -> Iterator[HttpServer]:
    with HttpServer("--root", str(EXAMPLE_SITE)) as running:
        yield running


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    tokens = tmp_path_factory.mktemp("tokens") / "tokens.txt"
    tokens.write_text(f"# who may ask\n{TOKEN}\n\nother-token\n", encoding="utf-8")
    with HttpServer("--root", str(EXAMPLE_SITE), "--token-file", str(tokens),
                    env={"SITE_BUILDER_MCP_TOKENS": "from-env"}) as running:
        yield running


# ---- both eras on one endpoint ---------------------------------------------------------------


def test_the_address_is_printed_and_a_modern_request_needs_no_handshake(server: HttpServer):
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/mcp", server.url)
    answer = post(server.url, modern(1, "server/discover"),
                  **{"mcp-protocol-version": "2026-07-28"})
    assert answer.status_code == 200 and "mcp-session-id" not in answer.headers
    result = answer.json()["result"]
    assert result["supportedVersions"][-1] == "2026-07-28"
    assert result["resultType"] == "complete" and result["cacheScope"] == "public"
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "site-builder"
    listed = post(server.url, modern(2, "tools/list")).json()["result"]
    assert listed["ttlMs"] > 0 and listed["tools"][0]["name"] == "list_projects"
    read = post(server.url, modern(3, "resources/read", uri="decision://BUILD-ADR-0008"))
    assert read.json()["result"]["ttlMs"] == 0  # local mode: an edit shows at once


def test_modern_errors_carry_the_status_the_revision_asks_for(server: HttpServer):
    unknown = post(server.url, modern(1, "resources/read", uri="decision://nope"))
    assert unknown.status_code == 400 and unknown.json()["error"]["code"] == -32602
    method = post(server.url, modern(2, "logging/setLevel"))
    assert method.status_code == 404 and method.json()["error"]["code"] == -32601
    future = modern(3, "tools/list")
    future["params"]["_meta"] = {**MODERN, "io.modelcontextprotocol/protocolVersion": "2099"}
    refused = post(server.url, future)
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == -32022
    assert "2026-07-28" in refused.json()["error"]["data"]["supported"]
    mismatch = post(server.url, modern(4, "tools/list"),
                    **{"mcp-protocol-version": "2025-11-25"})
    assert mismatch.status_code == 400 and mismatch.json()["error"]["code"] == -32020
    assert mismatch.json()["id"] == 4


def test_a_handshake_client_gets_a_session_naming_its_revision(server: HttpServer):
    init = post(server.url, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {}}})
    session = init.headers["mcp-session-id"]
    assert session.endswith(".2025-03-26") and init.json()["result"]["protocolVersion"] == (
        "2025-03-26")
    notified = post(server.url, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                    **{"mcp-session-id": session})
    assert notified.status_code == 202 and notified.content == b""
    tools = post(server.url, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                 **{"mcp-session-id": session}).json()["result"]["tools"]
    assert "outputSchema" not in tools[0]  # served at 2025-03-26, as negotiated
    unknown = post(server.url, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
                   **{"mcp-session-id": "not-one-of-ours"})
    assert unknown.status_code == 404
    assert httpx.delete(server.url, headers={"mcp-session-id": session}).status_code == 204
    batch = post(server.url, [{"jsonrpc": "2.0", "id": 4, "method": "ping"},
                              {"jsonrpc": "2.0", "id": 5, "method": "ping"}])
    assert [a["id"] for a in batch.json()] == [4, 5]


def test_get_delete_and_other_methods_are_405(server: HttpServer):
    for method in ("GET", "DELETE", "PUT"):
        answer = httpx.request(method, server.url, timeout=30)
        assert answer.status_code == 405, method
        assert "POST" in answer.headers["allow"]
    assert post(server.url, b"{}", **{"content-type": "text/plain"}).status_code == 415
    assert httpx.get(server.base + "/other", timeout=30).status_code == 404


def test_bodies_and_batches_are_bounded(server: HttpServer):
    huge = post(server.url, b'{"jsonrpc":"2.0","id":1,"method":"ping","x":"'
                + b"x" * (5 * 1024 * 1024) + b'"}')
    assert huge.status_code == 413 and huge.json()["error"]["code"] == -32700
    many = post(server.url, [{"jsonrpc": "2.0", "id": i, "method": "ping"} for i in range(101)])
    assert many.status_code == 400 and many.json()["error"]["code"] == -32600
    broken = post(server.url, b'{"jsonrpc": "2.0", "id": 1, "method": ')
    assert broken.status_code == 400 and broken.json()["error"]["code"] == -32700
    assert post(server.url, b"\xff\xfe").json()["error"]["code"] == -32700


def test_origin_and_host_are_checked_before_anything_else(server: HttpServer):
    port = server.url.split(":")[2].split("/")[0]
    evil = post(server.url, modern(1, "tools/list"), origin="http://evil.example")
    assert evil.status_code == 403
    rebound = post(server.url, modern(1, "tools/list"), host=f"evil.example:{port}")
    assert rebound.status_code == 421
    own = post(server.url, modern(1, "tools/list"), origin=f"http://localhost:{port}",
               host=f"localhost:{port}")
    assert own.status_code == 200
    assert own.headers["access-control-allow-origin"] == f"http://localhost:{port}"
    assert "mcp-session-id" in own.headers["access-control-expose-headers"]
    assert "access-control-allow-origin" not in post(server.url, modern(2, "tools/list")).headers
    preflight = httpx.options(server.url, headers={"origin": f"http://127.0.0.1:{port}",
                                                   "access-control-request-method": "POST"})
    assert preflight.status_code == 204
    assert "authorization" in preflight.headers["access-control-allow-headers"]
    assert httpx.options(server.url, headers={"origin": "http://evil.example"}).status_code == (
        403)


# ---- tokens ----------------------------------------------------------------------------------


def test_without_a_token_a_401_points_at_the_resource_metadata(guarded: HttpServer):
    missing = post(guarded.url, modern(1, "tools/list"))
    assert missing.status_code == 401
    challenge = missing.headers["www-authenticate"]
    metadata_url = f"{guarded.base}/.well-known/oauth-protected-resource/mcp"
    assert challenge == f'Bearer resource_metadata="{metadata_url}"'
    wrong = post(guarded.url, modern(1, "tools/list"), authorization="Bearer nope")
    assert wrong.status_code == 401 and 'error="invalid_token"' in wrong.headers[
        "www-authenticate"]
    document = httpx.get(metadata_url, timeout=30)
    assert document.status_code == 200
    assert document.json()["resource"] == guarded.url
    assert document.json()["bearer_methods_supported"] == ["header"]
    for token in (TOKEN, "other-token", "from-env"):
        answer = post(guarded.url, modern(1, "tools/list"), authorization=f"Bearer {token}")
        assert answer.status_code == 200, token
        assert answer.json()["result"]["cacheScope"] == "private"


def test_the_sdk_client_connects_with_a_token(guarded: HttpServer):
    for mode in ("auto", "legacy"):
        with http_client(guarded.url, mode=mode, token=TOKEN) as client:
            assert client.answer("list_tags", limit=1)["tags"]


def test_a_non_loopback_address_without_tokens_is_refused(tmp_path: Path):
    refused = run_cli("mcp", "--root", str(EXAMPLE_SITE), "--http", "0.0.0.0:0")
    assert refused.returncode == 2 and refused.stdout == ""
    assert "--token-file" in refused.stderr and "--public" in refused.stderr
    for wrong in ("abc", "host:99999", "127.0.0.1:"):
        answer = run_cli("mcp", "--root", str(EXAMPLE_SITE), "--http", wrong)
        assert answer.returncode == 2 and "[HOST:]PORT" in answer.stderr, wrong
    empty = tmp_path / "tokens"
    empty.write_text("# none yet\n", encoding="utf-8")
    answer = run_cli("mcp", "--root", str(EXAMPLE_SITE), "--http", "0",
                     "--token-file", str(empty))
    assert answer.returncode == 2 and "holds no token" in answer.stderr
    spaced = tmp_path / "spaced"
    spaced.write_text("good-token\nbad token\n", encoding="utf-8")
    answer = run_cli("mcp", "--root", str(EXAMPLE_SITE), "--http", "0",
                     "--token-file", str(spaced))
    assert answer.returncode == 2 and f"{spaced}:2: a token is" in answer.stderr
    assert "Traceback" not in answer.stderr
    answer = run_cli("mcp", "--root", str(EXAMPLE_SITE), "--public")
    assert answer.returncode == 2 and "go with --http" in answer.stderr


# ---- the same answers in every mode, era and transport ---------------------------------------


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_remote_over_http_answers_as_local_over_stdio(example_published, mode: str):
    root, site = example_published
    with HttpServer("--url", site.url) as remote_http, \
            mcp_client("--root", str(root)) as local, \
            http_client(remote_http.url, mode=mode) as remote:
        assert remote.session.protocol_version == {"auto": "2026-07-28",
                                                   "legacy": "2025-11-25"}[mode]
        assert all(t.annotations.open_world_hint for t in remote.list_tools().tools)
        assert assert_same_answers(local, remote) > 40
        if mode == "auto":
            uri = remote.list_resources().resources[0].uri
            assert remote.read_resource(uri).ttl_ms == 30_000  # the remote cache's life


def test_remote_mode_over_http_touches_the_network_only_when_asked(example_published):
    _, site = example_published
    before = len(site.hits)
    with HttpServer("--url", site.url) as remote_http:
        answer = post(remote_http.url, modern(1, "server/discover"))
        assert answer.status_code == 200
        post(remote_http.url, modern(2, "tools/list"))
        assert len(site.hits) == before
        post(remote_http.url, modern(3, "tools/call", name="list_tags", arguments={}))
        assert len(site.hits) > before


# ---- the ASGI factory ------------------------------------------------------------------------


def test_the_asgi_factory_serves_under_uvicorn(tmp_path: Path):
    env = {"SITE_BUILDER_ROOT": str(EXAMPLE_SITE), "SITE_BUILDER_MCP_TOKENS": TOKEN}
    with uvicorn_factory(env) as url:
        assert post(url, modern(1, "tools/list")).status_code == 401
        answer = post(url, modern(1, "tools/call", name="get_record",
                                  arguments={"id": "BUILD-ADR-0008"}),
                      authorization=f"Bearer {TOKEN}")
        assert answer.json()["result"]["structuredContent"]["ref"] == "BUILD-ADR-0008"
    bare = subprocess.run(
        [sys.executable, "-c", "from site_builder.mcp.http import app; app()"],
        env={k: v for k, v in {**os.environ, "PYTHONPATH": str(REPO)}.items()
             if not k.startswith("SITE_BUILDER")},
        capture_output=True, text=True, timeout=60, check=False)
    assert bare.returncode == 2
    assert bare.stderr.strip() == ("site-builder mcp: set SITE_BUILDER_ROOT (an archive) or "
                                   "SITE_BUILDER_URL (a published site), one of them")
