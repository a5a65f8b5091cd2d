"""One exception tree: every failure site-builder names, with its exit code and one line.

    SiteBuilderError                 exit 1: the archive, its source or a step failed
    ├── UsageError                   exit 2: the command asked for something it cannot do
    │   ├── ArgumentError            contract/records.py: arguments against a tool's parameters
    │   ├── QueryError               query/answers.py: no record by that name, an ambiguous one
    │   ├── PromptError              mcp/prompt_texts.py: a prompt argument the archive cannot use
    │   ├── NoArchive                config/site.py: no site.yml where the command looks
    │   ├── AddressError             mcp/listen.py: an address `mcp --http` cannot serve on
    │   └── NetworkError             access/network.py: a proxy or CA setting that cannot be used
    ├── InputError                   input that cannot be used as it is
    │   ├── YamlError                text/yamlfile.py: YAML that does not parse
    │   ├── Unsupported              text/yaml_subset.py: beyond the plain subset (PyYAML reads it)
    │   ├── BadPattern               archive/affects.py: an `affects` glob that cannot match
    │   ├── SvgRefused               archive/attachments.py: an SVG that cannot be made safe
    │   ├── Refused                  base/confined.py: a path that leaves its folder
    │   ├── LookupFailed             archive/archive.py: a reference that names no record
    │   ├── RecordChanged            archive/body_files.py: a record file changed after loading
    │   ├── PublishedError           access/jsonshape.py: a published file of the wrong shape
    │   ├── TooLarge, BadEncoding    access/fetch.py: an answer over its cap, or not UTF-8
    │   ├── RenderRefused            render/markdown/renderers.py: a body no renderer can finish
    │   └── UnencodableAnswer        mcp/tools.py: an answer JSON cannot hold
    ├── SourceError                  access/source.py: where the archive comes from failed
    │   └── FetchError               access/remote.py: a published site that could not be read
    ├── GitError                     sources/git.py: git failed or is missing
    ├── OutputError                  the output could not be written; the old one is intact
    │   ├── JournalError             render/output/journal.py: an interrupted commit not undone
    │   ├── StagingFailed            render/output/staging.py: the writer process failed
    │   └── UnsafeOutput             render/site.py: an output folder that must not be replaced
    ├── BuildRefused                 render/site.py: the archive has errors; nothing was built
    ├── WorkersFailed                render/parallel.py: a worker process died
    ├── Interrupted                  serve/preview.py: a rebuild overtaken by a newer change
    ├── ScaffoldError                authoring/scaffold.py: `init` cannot write what it would
    ├── NewRecordError               authoring/new.py: `new` cannot write the record
    └── RpcError                     mcp/protocol.py: a JSON-RPC error answer (its own code)

`cli.main` turns any of them into its one line on stderr and its `exit_code`; anything else
that reaches it is a bug, said in one line too. Classes that were ValueError or LookupError
before keep that base beside this one, so callers that catch those still do.
"""

from __future__ import annotations

from typing import ClassVar

# The exit codes of every command (SPEC §4).
OK, ARCHIVE_ERRORS, USAGE = 0, 1, 2


class SiteBuilderError(Exception):
    """A failure site-builder names: `message` is its one line, `exit_code` the status."""

    exit_code: ClassVar[int] = ARCHIVE_ERRORS
    message: str

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        text = str(args[0]) if args else ""
        self.message = text.splitlines()[0] if text.strip() else type(self).__name__


class UsageError(SiteBuilderError):
    """The command asked for something it cannot do: exit 2."""

    exit_code = USAGE


class InputError(SiteBuilderError):
    """Input (a file, a published answer, a pattern) that cannot be used as it is."""


class OutputError(SiteBuilderError):
    """The output folder cannot be written or swapped; the message names the path and says
    why. The previous output is intact unless the message says otherwise."""
