"""Citations through the MCP server, with the official SDK client: the content folder of a
real git repository (`--root`) and its published site (`--url`) answer alike."""

from __future__ import annotations

from pathlib import Path

from site_builder.render.site import build_site
from tests.citing import CITED, make_repository
from tests.mcp.client import mcp_client
from tests.mcp.httpsite import SiteServer


def test_cited_by_and_records_for_paths_in_both_modes(tmp_path: Path):
    root = make_repository(tmp_path / "shop")
    site = SiteServer(build_site(root, jobs=1).output).start()
    try:
        with mcp_client("--root", str(root)) as local, mcp_client("--url", site.url) as remote:
            stripe = local.answer("get_record", id="PAY-ADR-0002")
            assert stripe["citedBy"] == [{"path": path, "line": line}
                                         for path, line, cited in sorted(CITED)
                                         if cited == "pay/adr/0002-use-stripe"]
            assert remote.answer("get_record", id="PAY-ADR-0002") == stripe
            paths = {"paths": ["src/links.py", "src/billing.py"]}
            found = local.answer("records_for_paths", **paths)
            assert [(r["ref"], r["via"]) for r in found["current"]] == [
                ("PAY-ADR-0002", ["affects", "cited"])]
            assert {r["ref"]: r["via"] for r in found["historical"]} == {
                "OPS-RFC-0001": ["cited"], "PAY-ADR-0003": ["cited"],
                "PAY-ADR-0001": ["cited"]}
            assert remote.answer("records_for_paths", **paths) == found
    finally:
        site.stop()


def test_review_change_names_the_records_the_code_cites_and_how(tmp_path: Path):
    root = make_repository(tmp_path / "shop")
    with mcp_client("--root", str(root)) as local:
        paths = ["src/links.py", "src/billing.py"]
        found = local.answer("records_for_paths", paths=paths)
        result = local.get_prompt("review_change", {"paths": ", ".join(paths)})
        text = result.messages[0].content.text
        for item in [*found["current"], *found["historical"]]:
            line = next(line for line in text.splitlines()
                        if line.startswith(f"- {item['ref']} "))
            assert f"[{', '.join(item['via'])}]" in line, line
        assert "[cited]" in text and "[affects, cited]" in text
