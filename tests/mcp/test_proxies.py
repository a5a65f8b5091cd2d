"""`--url` behind a corporate network: a forward proxy and a private certificate authority.

A built site is served over TLS (tests/mcp/tls.py) under a name only the test's proxy knows
(tests/mcp/proxy.py), so a client reaches it through the proxy or not at all. `search`,
`show` and the MCP server run as real subprocesses with the proxy and CA variables set;
the test process's own environment is left alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE_SITE, run_cli
from tests.mcp.conftest import built_copy
from tests.mcp.httpserver import HttpServer
from tests.mcp.httpsite import SiteServer, never_answer, redirect
from tests.mcp.proxy import ForwardProxy
from tests.mcp.test_http import modern, post
from tests.mcp.tls import NAME, PrivateCa, TlsSite, make_ca

# The variables the client reads, cleared: each test sets the ones it is about. Upper
# case only: an empty lower-case proxy variable would disable the upper-case one.
CLEAR = {name: "" for name in ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "NO_PROXY",
                               "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE")}


@pytest.fixture(scope="module")
def ca(tmp_path_factory: pytest.TempPathFactory) -> PrivateCa:
    return make_ca(tmp_path_factory.mktemp("ca"))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_copy(EXAMPLE_SITE, tmp_path_factory.mktemp("tls") / "example-site")


@pytest.fixture
def tls_site(built: Path, ca: PrivateCa) -> Iterator[TlsSite]:
    site = TlsSite(built, ca)
    site.start()
    yield site
    site.stop()


@pytest.fixture
def proxy() -> Iterator[ForwardProxy]:
    with ForwardProxy(names={NAME: "127.0.0.1"}) as running:
        yield running


def named(site: SiteServer) -> str:
    """The site's URL under the name only the proxy knows."""
    return site.url.replace("127.0.0.1", NAME)


def port_of(site: SiteServer) -> int:
    return int(site.url.rstrip("/").rsplit(":", 1)[1])


def search(url: str, env: dict[str, str], *words: str):
    return run_cli("search", "--url", url, "--json", "--limit", "3", *words,
                   env={**CLEAR, **env}, timeout=120)


@pytest.mark.parametrize("trust", ["SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "SSL_CERT_DIR"])
def test_search_reaches_a_private_tls_site_through_the_proxy(tls_site, proxy, ca, trust):
    if trust == "SSL_CERT_DIR":
        folder = ca.ca.parent / "hashed"
        folder.mkdir(exist_ok=True)
        _hash_link(ca.ca, folder)
        env = {trust: str(folder)}
    else:
        env = {trust: str(ca.ca)}
    done = search(named(tls_site), {"HTTPS_PROXY": proxy.url, **env}, "cache")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["records"]
    assert f"CONNECT {NAME}:{port_of(tls_site)} HTTP/1.1" in proxy.seen
    assert tls_site.requests_for("/decisions.json")


def _hash_link(ca: Path, folder: Path) -> None:
    """A c_rehash-style link (`<subject hash>.0`), as OpenSSL looks certificates up."""
    import subprocess

    digest = subprocess.run(["openssl", "x509", "-hash", "-noout", "-in", str(ca)],
                            capture_output=True, text=True, check=True).stdout.strip()
    link = folder / f"{digest}.0"
    if not link.exists():
        link.write_bytes(ca.read_bytes())


def test_show_and_all_proxy_with_credentials(tls_site, ca):
    with ForwardProxy(names={NAME: "127.0.0.1"}, auth=("corp", "p@ss word")) as guarded:
        user = guarded.url.replace("http://", "http://corp:p%40ss%20word@")
        done = run_cli("show", "--url", named(tls_site), "BUILD-ADR-0008",
                       env={**CLEAR, "ALL_PROXY": user, "SSL_CERT_FILE": str(ca.ca)})
        assert done.returncode == 0, done.stderr
        assert "BUILD-ADR-0008" in done.stdout
        wrong = guarded.url.replace("http://", "http://corp:wrong-secret@")
        refused = search(named(tls_site), {"ALL_PROXY": wrong, "SSL_CERT_FILE": str(ca.ca)})
        assert refused.returncode != 0
        assert "wrong-secret" not in refused.stderr and "Traceback" not in refused.stderr
        assert f"through the proxy {guarded.url} (ALL_PROXY)" in refused.stderr


def test_without_the_ca_the_site_is_refused_in_one_clear_line(tls_site, proxy):
    for env in ({}, {"SSL_CERT_FILE": "/etc/ssl/certs/ca-certificates.crt"}):
        done = search(named(tls_site), {"HTTPS_PROXY": proxy.url, **env})
        assert done.returncode != 0
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, lines
        assert "certificate is not trusted" in lines[0] and "SSL_CERT_FILE" in lines[0]
        assert "through the proxy" in lines[0]
    missing = search(named(tls_site), {"HTTPS_PROXY": proxy.url,
                                       "REQUESTS_CA_BUNDLE": "/nonexistent/ca.pem"})
    assert missing.returncode == 2
    assert missing.stderr.strip().endswith("REQUESTS_CA_BUNDLE names /nonexistent/ca.pem, "
                                           "which cannot be read as certificates: "
                                           "No such file or directory")
    socks = search(named(tls_site), {"ALL_PROXY": "socks5://127.0.0.1:1"})
    assert socks.returncode == 2 and "SOCKS" in socks.stderr and "Traceback" not in (
        socks.stderr)


def test_no_proxy_goes_direct(tls_site, proxy, ca):
    for bypass in ("127.0.0.1", "*", f"localhost,127.0.0.1:{port_of(tls_site)}"):
        done = search(tls_site.url, {"HTTPS_PROXY": proxy.url, "NO_PROXY": bypass,
                                     "SSL_CERT_FILE": str(ca.ca)})
        assert done.returncode == 0, (bypass, done.stderr)
    assert proxy.seen == []


def test_a_plain_http_site_through_http_proxy(built: Path, proxy):
    site = SiteServer(built).start()
    try:
        done = search(named(site), {"HTTP_PROXY": proxy.url, "HTTPS_PROXY": "http://127.0.0.1:9"})
        assert done.returncode == 0, done.stderr
        assert f"GET {named(site)}decisions.json HTTP/1.1" in proxy.seen
    finally:
        site.stop()


def test_an_off_site_redirect_is_still_refused_through_the_proxy(tls_site, proxy, ca):
    elsewhere = f"https://localhost:{port_of(tls_site)}/decisions.json"
    tls_site.behaviours["/decisions.json"] = redirect(elsewhere)
    done = search(named(tls_site), {"HTTPS_PROXY": proxy.url, "SSL_CERT_FILE": str(ca.ca)})
    assert done.returncode != 0
    assert f"redirects to {elsewhere}" in done.stderr and "outside" in done.stderr
    assert proxy.seen == [f"CONNECT {NAME}:{port_of(tls_site)} HTTP/1.1"]


def test_the_mcp_server_reads_through_the_proxy_within_its_deadline(tls_site, proxy, ca):
    env = {**CLEAR, "HTTPS_PROXY": proxy.url, "SSL_CERT_FILE": str(ca.ca)}
    with HttpServer("--url", named(tls_site), "--timeout", "2", env=env) as server:
        called = post(server.url, modern(1, "tools/call", name="list_projects", arguments={}))
        result = called.json()["result"]
        assert result["isError"] is False and result["structuredContent"]["projects"]
        assert any(line.startswith(f"CONNECT {NAME}:") for line in proxy.seen)
        tls_site.behaviours["/llms-full.txt"] = never_answer(tls_site)
        stalled = post(server.url, modern(2, "tools/call", name="search_records",
                                          arguments={"query": "cache"}))
        text = stalled.json()["result"]["content"][0]["text"]
        assert stalled.json()["result"]["isError"] is True
        assert text == f"{named(tls_site)}llms-full.txt did not answer within 2s"
