"""prompts/get and completion/complete with whatever a client might send: every request gets
a result or an error the client caused (never -32603), and a result has the protocol's shape."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.access.source import LocalSource
from site_builder.config.site import load_config
from site_builder.mcp import prompts
from site_builder.mcp.completion import MAX_VALUES
from site_builder.mcp.protocol import Request
from site_builder.mcp.server import Server
from tests.conftest import EXAMPLE_SITE

WORDS = ["build", "adr", "BUILD-ADR-0004", "build/adr/4", "agents", "mcp", "proposed",
         "site_builder/render/output/writer.py", "", " ", ",", "\n", "*", "ß", "a" * 300, "0001"]
NAMES = [a.param.name for p in prompts.PROMPTS for a in p.arguments] + ["id", "nope"]
scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(WORDS)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(NAMES), inner, max_size=3),
                      max_leaves=6)
prompt_names = st.sampled_from([*prompts.BY_NAME, "nope"]) | values
arguments = st.dictionaries(st.sampled_from(NAMES), st.sampled_from(WORDS), max_size=4) | values
refs = st.fixed_dictionaries({
    "type": st.sampled_from(["ref/prompt", "ref/resource", "ref/tool"]) | values,
    "name": prompt_names, "uri": st.sampled_from(["decision://{id}", "decision://x"]) | values,
}) | values
argument = st.fixed_dictionaries({"name": st.sampled_from(NAMES) | values,
                                  "value": st.sampled_from(WORDS) | values}) | values


@pytest.fixture(scope="module")
def server() -> Server:
    config, _ = load_config(EXAMPLE_SITE)
    return Server(LocalSource(config, log=lambda _: None), log=lambda _: None)


def answered(server: Server, method: str, params: dict[str, Any]) -> dict[str, Any]:
    answer = server.handle(Request(method, params, 1))
    assert answer is not None
    if "error" in answer:
        assert answer["error"]["code"] == -32602 and answer["error"]["message"], answer
        return {}
    return answer["result"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=prompt_names, given=arguments)
def test_any_prompts_get_is_a_message_or_invalid_params(server: Server, name: Any, given: Any):
    result = answered(server, "prompts/get", {"name": name, "arguments": given})
    if result:
        [message] = result["messages"]
        assert message["role"] == "user" and message["content"]["text"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ref=refs, arg=argument)
def test_any_completion_is_values_or_invalid_params(server: Server, ref: Any, arg: Any):
    result = answered(server, "completion/complete", {"ref": ref, "argument": arg})
    if result:
        completion = result["completion"]
        assert len(completion["values"]) <= MAX_VALUES <= 100
        assert completion["total"] >= len(completion["values"])
        assert completion["hasMore"] is (completion["total"] > len(completion["values"]))
