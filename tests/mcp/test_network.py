"""`site-builder mcp --http` on a network: the names it answers to, what it says about
itself, request framing, deadlines and the connection cap.

Each test starts a real server subprocess on loopback and talks to it over real sockets,
by hand where a client library would not send what is tested (tests/mcp/rawhttp.py).
Deadlines are made short (SITE_BUILDER_MCP_DEADLINE) so that a cut connection shows up in
a second or two; every wait is bounded, and nothing asserts on time.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import EXAMPLE_SITE
from tests.mcp import rawhttp
from tests.mcp.httpserver import HttpServer, uvicorn_factory
from tests.mcp.test_http import TOKEN, modern, post

PING = json.dumps(modern(1, "tools/list")).encode()
SHORT = {"SITE_BUILDER_MCP_DEADLINE": "1"}


def ask(url: str, host: str, path: str = "/mcp", method: str = "POST",
        body: bytes = PING) -> rawhttp.Answer:
    """One request to `url`'s server, sent with Host `host` as written."""
    with rawhttp.connect(url) as sock:
        sock.sendall(rawhttp.request(url.removesuffix("/mcp") + path, method,
                                     body if method == "POST" else b"", {"host": host}))
        return rawhttp.read_answer(sock)


@pytest.fixture(scope="module")
def short() -> Iterator[HttpServer]:
    with HttpServer("--root", str(EXAMPLE_SITE), env=SHORT) as running:
        yield running


# ---- names -----------------------------------------------------------------------------------


def test_a_server_on_127_0_0_2_answers_its_printed_address():
    with HttpServer("--root", str(EXAMPLE_SITE), host="127.0.0.2") as server:
        assert server.url.startswith("http://127.0.0.2:")
        assert post(server.url, modern(1, "tools/list")).status_code == 200
        port = server.url.split(":")[2].split("/")[0]
        assert ask(server.url, f"localhost:{port}").status == 200
        assert ask(server.url, f"rebound.example:{port}").status == 421


def test_a_wildcard_server_answers_addresses_and_the_names_it_was_given(tmp_path):
    with HttpServer("--root", str(EXAMPLE_SITE), "--public", "--allowed-host",
                    "decisions.test", host="0.0.0.0") as server:
        url = server.url.replace("0.0.0.0", "127.0.0.1")
        port = url.split(":")[2].split("/")[0]
        for host in (f"127.0.0.1:{port}", "127.0.0.1", f"decisions.test:{port}",
                     "DECISIONS.test", f"localhost:{port}", f"[::ffff:127.0.0.1]:{port}"):
            assert ask(url, host).status == 200, host
        # An address this connection did not reach is no more this server's than a name.
        for host in (f"rebound.example:{port}", "decisions.test.rebound.example", "",
                     'x" evil', "127.0.0.1:80:80", f"10.1.2.3:{port}", "[::1]",
                     "127.0.0.2"):
            assert ask(url, host).status == 421, host
        # No public URL and no one address: the document has nothing true to name.
        assert ask(url, f"127.0.0.1:{port}", path="/.well-known/oauth-protected-resource/mcp",
                   method="GET").status == 404
    assert "Traceback" not in server.stderr


def test_nothing_from_the_request_is_echoed_into_headers_or_documents(tmp_path):
    tokens = tmp_path / "tokens"
    tokens.write_text(f"{TOKEN}\n", encoding="utf-8")
    hostile = ['evil.example" injected="1', "evil.example", "10.6.6.6:1", "localhost:1"]
    with HttpServer("--root", str(EXAMPLE_SITE), "--token-file", str(tokens)) as plain, \
            HttpServer("--root", str(EXAMPLE_SITE), "--token-file", str(tokens),
                       "--public-url", "https://mcp.example.org", "--issuer",
                       "https://auth.example.org/tenant", host="0.0.0.0") as proxied:
        public = proxied.url.replace("0.0.0.0", "127.0.0.1")
        for url, base in ((plain.url, plain.base), (public, "https://mcp.example.org")):
            for host in hostile:
                challenge = ask(url, host)
                document = ask(url, host, path="/.well-known/oauth-protected-resource/mcp",
                               method="GET")
                if challenge.status == 421:
                    assert document.status == 421 and host.startswith(("evil", "10."))
                    shown = json.dumps(challenge.headers) + challenge.body.decode()
                    assert host.split(":")[0] not in shown
                    continue
                assert challenge.status == 401
                assert challenge.headers["www-authenticate"] == (
                    f'Bearer resource_metadata="{base}/.well-known/oauth-protected-resource/mcp"')
                assert document.status == 200
                assert json.loads(document.body)["resource"] == f"{base}/mcp"
                shown = json.dumps(challenge.headers) + json.dumps(document.headers)
                assert host.split(":")[0] not in shown + document.body.decode()
        issued = httpx.get(public.removesuffix("/mcp") +
                           "/.well-known/oauth-protected-resource/mcp",
                           headers={"host": "mcp.example.org"}, timeout=30).json()
        assert issued["authorization_servers"] == ["https://auth.example.org/tenant"]
        assert "authorization_servers" not in httpx.get(
            plain.base + "/.well-known/oauth-protected-resource/mcp", timeout=30).json()


def test_bad_names_stop_the_server_before_it_listens():
    from tests.conftest import run_cli

    for args, message in ((["--allowed-host", "bad:name:1"], "--allowed-host takes"),
                          (["--public-url", "https://mcp.example.org/path"], "--public-url"),
                          (["--issuer", "ftp://auth"], "--issuer takes"),
                          (["--issuer", "https://auth.example.org"], "--issuer needs")):
        done = run_cli("mcp", "--root", str(EXAMPLE_SITE), "--http", "0.0.0.0:0",
                       "--public", *args)
        assert done.returncode == 2, args
        assert message in done.stderr and "Traceback" not in done.stderr, done.stderr
    done = run_cli("mcp", "--root", str(EXAMPLE_SITE), "--allowed-host", "x.test")
    assert done.returncode == 2 and "go with --http" in done.stderr


# ---- framing ---------------------------------------------------------------------------------


def test_both_content_length_and_transfer_encoding_is_refused_and_the_connection_closed(
        server: HttpServer):
    smuggled = (b"POST /mcp HTTP/1.1\r\nhost: " + server.url.split("/")[2].encode() +
                b"\r\ncontent-type: application/json\r\ncontent-length: 4\r\n"
                b"transfer-encoding: chunked\r\n\r\n" + hex(len(PING))[2:].encode() +
                b"\r\n" + PING + b"\r\n0\r\n\r\n" + rawhttp.request(server.url, body=PING))
    with rawhttp.connect(server.url) as sock:
        sock.sendall(smuggled)
        answer = rawhttp.read_answer(sock)
        assert answer.status == 400 and answer.headers["connection"] == "close"
        assert rawhttp.closed_by_server(sock)  # the pipelined request is never answered
    assert ask(server.url, server.url.split("/")[2]).status == 200


@pytest.fixture(scope="module")
def server() -> Iterator[HttpServer]:
    with HttpServer("--root", str(EXAMPLE_SITE)) as running:
        yield running


# ---- deadlines -------------------------------------------------------------------------------


def test_a_request_dripped_a_byte_at_a_time_is_cut(short: HttpServer):
    whole = rawhttp.request(short.url, body=PING)
    head, body = whole[:whole.index(b"\r\n\r\n") + 4], PING
    line_end = head.index(b"\r\n") + 2
    for before, dripped in ((b"", head), (head[:line_end], head[line_end:]), (head, body)):
        with rawhttp.connect(short.url) as sock:
            sock.sendall(before)
            sent = rawhttp.drip(sock, dripped, every=0.25)
            assert sent < len(dripped), "the server waited for every byte"
            assert rawhttp.closed_by_server(sock)
    assert "did not arrive within 1s" in short.stderr
    assert "Traceback" not in short.stderr


def test_a_silent_socket_and_a_short_body_are_closed(short: HttpServer):
    with rawhttp.connect(short.url) as silent, rawhttp.connect(short.url) as stopped:
        head = rawhttp.request(short.url, body=PING)
        stopped.sendall(head[:-len(PING)] + PING[:10])  # 10 bytes of the announced body
        assert rawhttp.closed_by_server(silent)
        assert rawhttp.closed_by_server(stopped)
    assert ask(short.url, short.url.split("/")[2]).status == 200


# ---- the connection cap ----------------------------------------------------------------------


def idle_sockets(url: str, count: int) -> list[socket.socket]:
    sockets = []
    for _ in range(count):
        sockets.append(rawhttp.connect(url))
    return sockets


def test_idle_sockets_past_the_cap_do_not_lock_clients_out():
    with HttpServer("--root", str(EXAMPLE_SITE),
                    env={"SITE_BUILDER_MCP_MAX_CONNECTIONS": "20"}) as capped:
        held = idle_sockets(capped.url, 60)
        try:
            assert post(capped.url, modern(1, "tools/list")).status_code == 200
            closed = sum(rawhttp.closed_by_server(sock, within=0.2) for sock in held)
            assert closed >= 40
        finally:
            for sock in held:
                sock.close()
    lines = [line for line in capped.lines if "to make room" in line]
    assert len(lines) == 1, lines  # one line for some 40 events
    assert "Traceback" not in capped.stderr


def test_more_sockets_than_file_descriptors_neither_lock_out_nor_flood_the_log():
    # 256 descriptors: the cap becomes 256 less the backlog and the reserve, 64.
    with HttpServer("--root", str(EXAMPLE_SITE), files=256) as small:
        # The archive and its index read first (the server's warm-up reads every record):
        # what is tested is the flood of accepts, not a start raced by it on a loaded machine.
        warm = post(small.url, modern(0, "tools/call", name="search_records",
                                      arguments={"query": "cache"}))
        assert warm.status_code == 200 and not warm.json()["result"].get("isError")
        held = idle_sockets(small.url, 300)
        try:
            for request_id in range(3):
                answer = post(small.url, modern(request_id, "tools/list"))
                assert answer.status_code == 200
        finally:
            for sock in held:
                sock.close()
    # One summary line may name the cause; the flood of one traceback per accept must not return.
    assert small.stderr.count("Too many open files") <= 1, small.stderr
    assert "Traceback" not in small.stderr
    assert len(small.lines) < 10, small.lines


def test_the_asgi_factory_under_the_guard_checks_names_and_deadlines():
    env = {"SITE_BUILDER_ROOT": str(EXAMPLE_SITE),
           "SITE_BUILDER_MCP_PUBLIC_URL": "https://mcp.example.org", **SHORT}
    with uvicorn_factory(env, "--http", "site_builder.mcp.guard:GuardedH11") as url:
        assert ask(url, "rebound.example").status == 421
        assert ask(url, "mcp.example.org").status == 200
        assert ask(url, "10.0.0.1").status == 421
        document = ask(url, "127.0.0.1", path="/.well-known/oauth-protected-resource/mcp",
                       method="GET")
        assert json.loads(document.body)["resource"] == "https://mcp.example.org/mcp"
        with rawhttp.connect(url) as silent:
            assert rawhttp.closed_by_server(silent)
