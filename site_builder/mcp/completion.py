"""`completion/complete`: the values an argument may take, offered as the user types.

`complete()` answers the request for a prompt's argument or a resource template's variable;

An archive's names are kept once per Archive, each kind sorted by its folded (casefolded)
form: record ids and refs, projects, types, tags, statuses and `affects` paths. A prefix
then costs two bisections and a slice, however many records there are; the names go with
their Archive, so an edit (local mode) or a new decisions.json (remote mode) brings new ones.
"""

from __future__ import annotations

import threading
import weakref
from bisect import bisect_left
from collections.abc import Callable, Iterable
from typing import Any

from site_builder.archive.archive import Archive
from site_builder.archive.bulk import paused_gc
from site_builder.mcp import prompts
from site_builder.mcp.prompt_texts import PromptError
from site_builder.mcp.protocol import INVALID_PARAMS, RpcError
from site_builder.query.memo import memoised
from site_builder.query.textindex import fold

# What a completion answers with at most; the protocol allows 100, and a person picks from
# a short list.
MAX_VALUES = 20
KINDS = ("record", "project", "type", "tag", "status", "path")
# Kinds whose argument is a list (items separated by commas or new lines).
LISTS = frozenset({"tag", "path"})
# Past every character a folded name can hold: the end of a prefix's range.
_LAST = chr(0x10FFFF)


class _Names:
    """One kind of name, sorted by folded form: `keys[i]` is `fold(values[i])`."""

    __slots__ = ("keys", "values")

    def __init__(self, names: Iterable[str]) -> None:
        # Names repeat (a tag on thousands of records): fold each distinct one once. The
        # collector is paused: tens of thousands of new tuples beside a large archive set off
        # a full pass that cost the first completion of record ids 140 ms at 10,000 records.
        # Sorting the names by their folded key (ties in plain order, from the first sort)
        # is three times faster than sorting (key, name) pairs.
        with paused_gc():
            self.values = sorted(sorted({name for name in names if name}), key=fold)
            self.keys = [fold(value) for value in self.values]

    def matching(self, prefix: str) -> tuple[list[str], int]:
        """The first MAX_VALUES names starting with `prefix` (case-insensitive), and how
        many start with it in all."""
        folded = fold(prefix)
        low = bisect_left(self.keys, folded)
        high = bisect_left(self.keys, folded + _LAST, low)
        return self.values[low:min(high, low + MAX_VALUES)], high - low


class Completions:
    """The names of one Archive, by kind (one of KINDS), ready for prefix lookups. Each
    kind is sorted on its first use, so completing a status never sorts the record ids."""

    def __init__(self, archive: Archive) -> None:
        # Weakly: the memo holds Completions while their Archive lives, which a strong
        # reference back would make forever.
        self._archive = weakref.ref(archive)
        self._names: dict[str, _Names] = {}
        self._lock = threading.Lock()

    def _gather(self, kind: str, project: str | None) -> Iterable[str]:
        archive = self._archive()
        if archive is None:
            raise ReferenceError("the archive of these completions is gone")
        records = archive.records
        if project is not None:  # a project already chosen: the types it has
            return [r.type for r in records if fold(r.project) == project]
        if kind == "record":
            return [*(r.id for r in records), *(r.ref for r in records)]
        if kind == "project":
            return [*archive.projects, *(r.project for r in records)]
        if kind == "type":
            return [r.type for r in records]
        if kind == "tag":
            return [t for r in records for t in r.tags]
        if kind == "status":
            return [s.name for s in archive.config.statuses]
        # A `!` pattern excludes paths: it names none to offer.
        return [p for r in records for p in r.affects.patterns if not p.startswith("!")]

    def matching(self, kind: str, prefix: str,
                 project: str | None = None) -> tuple[list[str], int]:
        """The first MAX_VALUES names of `kind` starting with `prefix` (case-insensitive),
        sorted, and how many start with it in all; types only of `project` when given."""
        within = fold(project) if kind == "type" and project is not None else None
        key = kind if within is None else f"{kind}:{within}"
        with self._lock:  # the HTTP server's one worker thread, or stdio's loop
            names = self._names.get(key)
            if names is None:
                names = self._names[key] = _Names(self._gather(kind, within))
        return names.matching(prefix)


_COMPLETIONS: weakref.WeakKeyDictionary[Archive, Completions] = weakref.WeakKeyDictionary()


def completions_for(archive: Archive) -> Completions:
    """The Completions of `archive`, made on first use and dropped with the Archive."""
    return memoised(_COMPLETIONS, archive, Completions)


def _kind(ref: Any, name: str, templates: dict[str, dict[str, str | None]]) -> str | None:
    """The kind of name to offer for argument `name` of `ref`. Raises RpcError -32602 for a
    reference to no prompt or template, or to an argument it does not have."""
    if not isinstance(ref, dict) or ref.get("type") not in ("ref/prompt", "ref/resource"):
        raise RpcError(INVALID_PARAMS, 'Invalid params: ref must be {"type": "ref/prompt", '
                                       '"name": …} or {"type": "ref/resource", "uri": …}')
    if ref["type"] == "ref/resource":
        uri = ref.get("uri")
        variables = templates.get(uri) if isinstance(uri, str) else None
        if variables is None:
            raise RpcError(INVALID_PARAMS, f"Invalid params: no resource template "
                                           f"{str(ref.get('uri'))[:200]!r}; the templates "
                                           f"are {', '.join(templates)}")
        if name not in variables:
            raise RpcError(INVALID_PARAMS, f"Invalid params: the template has no variable "
                                           f"{name[:100]!r}; it has {', '.join(variables)}")
        return variables[name]
    named = ref.get("name")
    prompt = prompts.BY_NAME.get(named) if isinstance(named, str) else None
    if prompt is None:
        raise RpcError(INVALID_PARAMS, f"Invalid params: unknown prompt "
                                       f"{str(ref.get('name'))[:200]!r}; the prompts are "
                                       f"{', '.join(prompts.BY_NAME)}")
    try:
        return prompt.completes(name)
    except PromptError as exc:
        raise RpcError(INVALID_PARAMS, f"Invalid params: {exc}") from None


def complete(archive_of: Callable[[], Archive], params: dict[str, Any],
             templates: dict[str, dict[str, str | None]]) -> dict[str, Any]:
    """The completion/complete result for `params`; `templates` maps each resource
    template's URI to its variables' kinds. The archive is read only when a kind of name
    is to be offered; a `type` is one of the project `context.arguments` names, if any.
    Raises RpcError -32602 for a malformed or unknown reference."""
    argument = params.get("argument")
    if not isinstance(argument, dict) or not isinstance(argument.get("name"), str) \
            or not isinstance(argument.get("value"), str):
        raise RpcError(INVALID_PARAMS, "Invalid params: argument must be {name, value}, "
                                       "both strings")
    kind = _kind(params.get("ref"), argument["name"], templates)
    if kind is None:
        return {"completion": {"values": [], "total": 0, "hasMore": False}}
    value = argument["value"]
    head = ""
    if kind in LISTS:  # a list argument: complete the item being typed
        cut = max(value.rfind(","), value.rfind("\n")) + 1
        head, value = value[:cut], value[cut:]
        head += value[:len(value) - len(value.lstrip())]
        value = value.lstrip()
    context = params.get("context")
    chosen = context.get("arguments") if isinstance(context, dict) else None
    project = chosen.get("project") if isinstance(chosen, dict) else None
    values, total = completions_for(archive_of()).matching(
        kind, value, project if isinstance(project, str) and project else None)
    return {"completion": {"values": [head + v for v in values], "total": total,
                           "hasMore": total > len(values)}}
