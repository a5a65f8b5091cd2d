"""The MCP prompts, each declared once: name, title, description, arguments and its text.

A prompt is a ready task for an agent, filled in from the archive (`prompt_texts.py` writes
them). Its arguments are `contract.Param`s like a tool's parameters, strings all (the
protocol's prompt arguments are), checked by the same `Parameters` before the text is
made; each names the kind of value `completion/complete` offers for it (completion.py).
Like tools.py, this module knows nothing of JSON-RPC: the server turns PromptError and
ArgumentError into -32602.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from site_builder.archive.archive import Archive
from site_builder.contract.records import Param, Parameters
from site_builder.mcp import prompt_texts
from site_builder.mcp.prompt_texts import PromptError
from site_builder.mcp.protocol import at_least

__all__ = ["BY_NAME", "PROMPTS", "Argument", "Prompt", "PromptError"]


@dataclass(frozen=True, slots=True)
class Argument:
    """One argument of a prompt: the parameter it is checked as, and the kind of name
    completion offers for it (one of completion.KINDS; None: free text)."""

    param: Param
    completes: str | None = None


def argument(name: str, description: str, completes: str | None = None,
             required: bool = False, max_length: int = 200) -> Argument:
    """A string argument of a prompt."""
    return Argument(Param(name, "string", description, required=required,
                          max_length=max_length), completes)


@dataclass(frozen=True)
class Prompt:
    """One MCP prompt: `text(archive, arguments, local)` writes its message (`local`: the
    archive is the content folder itself, not a published site)."""

    name: str
    title: str
    description: str
    arguments: tuple[Argument, ...]
    text: Callable[[Archive, dict[str, str], bool], str]
    parameters: Parameters = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters",
                           Parameters(self.name, tuple(a.param for a in self.arguments)))

    def definition(self, version: str) -> dict[str, Any]:
        """The prompts/list entry for a client on `version` (titles came with 2025-06-18)."""
        out: dict[str, Any] = {"name": self.name, "description": self.description,
                               "arguments": [{"name": a.param.name,
                                              "description": a.param.description,
                                              "required": a.param.required}
                                             for a in self.arguments]}
        if at_least(version, "2025-06-18"):
            out["title"] = self.title
        return out

    def message(self, archive: Archive, given: Any, local: bool) -> dict[str, Any]:
        """The prompts/get result. Raises ArgumentError for arguments that do not fit the
        declaration, PromptError for ones the archive cannot use."""
        checked = self.parameters.checked(given)
        return {"description": self.description, "messages": [{
            "role": "user",
            "content": {"type": "text", "text": self.text(archive, checked, local)}}]}

    def completes(self, name: str) -> str | None:
        """The kind of value completion offers for argument `name`. Raises PromptError for
        an argument the prompt does not have."""
        for arg in self.arguments:
            if arg.param.name == name:
                return arg.completes
        raise PromptError(f'{self.name} has no argument "{name[:100]}"; its arguments are '
                          f"{', '.join(self.parameters.names)}.")


PROMPTS: tuple[Prompt, ...] = (
    Prompt(
        "draft_record", "Draft a decision record",
        "The project's template filled in for a new record: its next id and ref, the site's "
        "statuses, the custom fields it declares and the sections the project's records "
        "use, with where to save it (or the site-builder new command that writes it).",
        (argument("project", "Project id (see list_projects)", "project", required=True),
         argument("type", "Record type, the folder under the project: adr, rfc, ...",
                  "type", required=True),
         argument("title", "The decision's title, as the record will show it",
                  required=True, max_length=300),
         argument("status", "Its status (default: the site's first open one)", "status"),
         argument("tags", "Tags, separated by commas", "tag", max_length=500)),
        prompt_texts.draft_text,
    ),
    Prompt(
        "review_change", "Review a change against its decisions",
        "A review of a change to the given files: the decisions in force that govern them "
        "(records_for_paths), each with its ref and what it decided, and those no longer "
        "in force named with the records that replaced them.",
        (argument("paths", "Repository-relative paths the change touches, separated by "
                           "commas or new lines", "path", required=True, max_length=20_000),
         argument("summary", "What the change does, in a sentence or two",
                  max_length=4_000)),
        prompt_texts.review_text,
    ),
    Prompt(
        "explain_record", "Explain a decision record",
        "One record with its lineage (what it superseded, what superseded it, where the "
        "chain ends), its related records and its review and sign-off state, to explain.",
        (argument("id", "Full id, short id, ref or slug of the record", "record",
                  required=True, max_length=500),),
        prompt_texts.explain_text,
    ),
)

BY_NAME: dict[str, Prompt] = {prompt.name: prompt for prompt in PROMPTS}
