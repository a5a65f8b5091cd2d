"""What the tracked files of a repository mention that may name a record: the scan behind
"Cited in code".

The files are those git tracks (`git ls-files -s`, with each file's blob id from the index;
`git ls-files -m` names those edited since, which are known by the id of their work-tree
bytes instead). A blob is read once, from the work tree (one that is not checked out, in a
sparse checkout, through `git cat-file --batch`). Each is searched for refs ending in a number
(`SRE-ADR-0004`, `ADR-4`) and for paths whose last segment starts with a digit
(`sre/adr/0004-x/`, `content/sre/adr/0004-x.md`), the shape of every record's page and
file. What a blob mentions is kept by blob id in `.site-builder/cache/citations.json`, so an
unchanged repository costs two git listings and one small file. Which record a mention names
is citations.py's business: the scan knows no records, so a new record reads no blob again.
Binary files (a NUL in the first 8,000 bytes, as git decides) and files over 1 MB are skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import subprocess
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

from site_builder.archive.affects import BadPattern, Glob, compile_glob
from site_builder.config.values import CitationsSpec, SiteConfig

__all__ = ["CACHE_FILE", "MAX_BYTES", "CodeScan", "Mention", "mentions", "repository_of", "scan",
           "scan_for", "state_of", "wanted_by"]

MAX_BYTES = 1_000_000
CACHE_FILE = "citations.json"
_CACHE_VERSION = 1
_TIMEOUT = 120
_BINARY_PROBE = 8000
# A path ending in a segment that starts with a digit, or a ref: words joined by `-`, the
# first a capital, ending in a number. Bytes, so files are never decoded. Both hold `-` or `/`
# before a digit (`_HINT`): only lines with one are searched, which is a tenth of the time
# of searching every byte (bench/citations.py).
_HINT = re.compile(rb"[-/][0-9]")
_MENTION = re.compile(
    rb"(?<![\w.~%+-])(?:[\w.~%+-]+/)+\d[\w.~%+-]*"
    rb"|\b[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-\d{1,6}\b")

Mention = tuple[int, str]
"""(line, what is written there): a ref such as `SRE-ADR-0004` or a path."""


@dataclass(frozen=True, slots=True)
class CodeScan:
    """What the tracked files of one repository mention.

    `top` is the repository's folder; `files` maps each repository path (POSIX) that mentions
    something to its mentions, in file order; `read` counts the blobs read from git or the
    work tree for this scan (none when nothing changed since the cache was written).
    """

    top: Path
    files: dict[str, tuple[Mention, ...]]
    read: int = 0


def _git(top: Path, *args: str, data: bytes | None = None) -> bytes | None:
    """git's stdout, or None when git is missing, fails or runs out of time."""
    env = {**os.environ, "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"}
    try:
        result = subprocess.run(["git", "-c", "core.quotepath=off", *args], cwd=top,
                                input=data, capture_output=True, env=env, timeout=_TIMEOUT,
                                check=False, stdin=None if data is not None
                                else subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout if result.returncode == 0 else None


def repository_of(folder: Path) -> Path | None:
    """The top folder of the git repository holding `folder`; None outside any (or without
    git)."""
    out = _git(folder, "rev-parse", "--show-toplevel")
    return Path(out.decode("utf-8", "surrogateescape").strip()).resolve() if out else None


def _tracked(top: Path) -> dict[str, str] | None:
    """Repository path → blob id of every tracked regular file (symlinks and submodules
    left out), or None when git cannot list them."""
    out = _git(top, "ls-files", "-s", "-z")
    if out is None:
        return None
    files: dict[str, str] = {}
    for entry in out.split(b"\0"):
        head, _, name = entry.partition(b"\t")
        parts = head.split(b" ")
        if len(parts) == 3 and parts[0] in (b"100644", b"100755"):
            files.setdefault(name.decode("utf-8", "surrogateescape"), parts[1].decode())
    return files


def _edited(top: Path) -> list[str]:
    """Tracked files whose work-tree copy differs from the index (or is gone)."""
    out = _git(top, "ls-files", "-m", "-z") or b""
    return [name.decode("utf-8", "surrogateescape") for name in out.split(b"\0") if name]


def mentions(data: bytes) -> tuple[Mention, ...]:
    """What a file's bytes mention, with 1-based lines; nothing for a binary file."""
    if b"\0" in data[:_BINARY_PROBE]:
        return ()
    found: list[Mention] = []
    line, counted, searched = 1, 0, 0
    for hint in _HINT.finditer(data):
        if hint.start() < searched:
            continue  # on a line searched already
        start = max(data.rfind(b"\n", 0, hint.start()) + 1, searched)
        end = data.find(b"\n", hint.start())
        searched = end = len(data) if end == -1 else end
        for match in _MENTION.finditer(data, start, end):
            line += data.count(b"\n", counted, match.start())
            counted = match.start()
            found.append((line, match.group().decode("ascii", "replace")))
    return tuple(found)


def _blob_id(data: bytes) -> str:
    """The id git gives these bytes as a blob."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _read_blobs(top: Path, ids: Iterable[str]) -> dict[str, tuple[Mention, ...]]:
    """The mentions of each blob of `ids` (nothing for one over MAX_BYTES, or unreadable)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    out: dict[str, tuple[Mention, ...]] = dict.fromkeys(wanted, ())
    listing = _git(top, "cat-file", "--batch-check", data="\n".join(wanted).encode() + b"\n")
    small = []
    for row in (listing or b"").splitlines():
        parts = row.split(b" ")
        if len(parts) == 3 and parts[1] == b"blob" and int(parts[2]) <= MAX_BYTES:
            small.append(parts[0].decode())
    if not small:
        return out
    stream = _git(top, "cat-file", "--batch", data="\n".join(small).encode() + b"\n") or b""
    at = 0
    while at < len(stream):
        end = stream.find(b"\n", at)
        header = stream[at:end].split(b" ") if end != -1 else []
        if len(header) != 3:
            break  # git said something else than blobs: what was read so far stands
        start, size = end + 1, int(header[2])
        out[header[0].decode()] = mentions(stream[start:start + size])
        at = start + size + 1
    return out


def _read_cache(path: Path) -> dict[str, tuple[Mention, ...]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != _CACHE_VERSION:
            return {}
        return {blob: tuple((int(line), str(text)) for line, text in found)
                for blob, found in data["blobs"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}  # a damaged cache costs one cold scan, never a failure


def _write_cache(path: Path, blobs: dict[str, tuple[Mention, ...]]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps({"version": _CACHE_VERSION, "blobs": {
            blob: [list(m) for m in found] for blob, found in sorted(blobs.items())}},
            separators=(",", ":")), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        pass  # a cache that cannot be written only makes the next scan cold


def _work_tree_copy(top: Path, path: str) -> bytes | None:
    """The bytes of a tracked file as checked out (empty for one over MAX_BYTES or that is
    no regular file, a symlink never followed); None when it is not checked out."""
    try:
        fd = os.open(top / path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError:
        return b""
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return b""
        return file.read(MAX_BYTES + 1)


def _work_tree(top: Path, blobs: dict[str, str], edited: set[str],
               cached: Collection[str]) -> tuple[dict[str, tuple[Mention, ...]], list[str]]:
    """Read the files whose blob the cache lacks from the work tree, where git checked them
    out (a file git says is unchanged holds its blob's bytes, and reading it costs a third
    of asking git to inflate the blob). An edited file gets the id of its work-tree bytes in
    `blobs`, one that is gone leaves `blobs`. Returns the mentions by blob id, and the ids
    of blobs not checked out (a sparse checkout), for git to give."""
    found: dict[str, tuple[Mention, ...]] = {}
    absent = []
    for path, blob in list(blobs.items()):
        if path not in edited and (blob in cached or blob in found):
            continue
        data = _work_tree_copy(top, path)
        if data is None and path in edited:
            del blobs[path]
            continue
        if data is None:
            absent.append(blob)
            continue
        if path in edited:
            blob = blobs[path] = _blob_id(data)
        if blob not in cached:
            found[blob] = mentions(data)
    return found, absent


def scan(top: Path, cache_file: Path, wanted: Callable[[str], bool]) -> CodeScan:
    """The mentions of every tracked file of the repository at `top` that `wanted` accepts
    (a repository path). Blobs the cache at `cache_file` lacks are read and added to it;
    entries of blobs no longer tracked are dropped. Never raises: without git, or outside a
    repository, nothing is found."""
    tracked = _tracked(top)
    if tracked is None:
        return CodeScan(top, {})
    blobs = {path: blob for path, blob in tracked.items() if wanted(path)}
    cached = _read_cache(cache_file)
    found, absent = _work_tree(top, blobs, set(_edited(top)), cached)
    found.update(_read_blobs(top, absent))
    kept = {blob: cached.get(blob, found.get(blob, ())) for blob in set(blobs.values())}
    if found or len(kept) != len(cached):
        _write_cache(cache_file, kept)
    files = {path: kept[blob] for path, blob in sorted(blobs.items()) if kept[blob]}
    return CodeScan(top, files, len(found))


def _outside(config: SiteConfig, top: Path) -> tuple[str, ...]:
    """Repository-path prefixes never read: the folders records are read from (`content`
    and every `path:` source; nothing in them is code, drafts and templates included), the
    built output and `.site-builder/` (which holds the `repo:` sources)."""
    out = []
    sources = [config.root / spec.path for spec in config.sources if spec.path is not None]
    for folder in (config.content_dir, *sources, config.output_dir, config.cache_dir):
        try:
            out.append(folder.resolve().relative_to(top).as_posix() + "/")
        except ValueError:
            continue
    return tuple(out)


def wanted_by(spec: CitationsSpec, skipped: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a repository path is read: not under `skipped`, matching an `include` glob
    (any path when there is none) and no `exclude` glob. Globs that cannot be matched
    match nothing (`check` reports them)."""
    def globs(patterns: tuple[str, ...]) -> list[Glob]:
        out = []
        for pattern in patterns:
            try:
                out.append(compile_glob(pattern))
            except BadPattern:
                continue
        return out

    include, exclude = globs(spec.include), globs(spec.exclude)

    def wanted(path: str) -> bool:
        if path.startswith(skipped):
            return False
        if spec.include and not any(g.match(path) for g in include):
            return False
        return not any(g.match(path) for g in exclude)

    return wanted


def state_of(config: SiteConfig) -> str:
    """A digest that changes whenever `scan_for(config)` may find something else: the
    tracked files with their blob ids, and the size and mtime of those edited since. For
    the build's up-to-date check; costs the two listings, no blob."""
    spec = config.citations
    top = repository_of(config.root) if spec is not None else None
    if spec is None or top is None:
        return "none"
    wanted = wanted_by(spec, _outside(config, top))
    digest = hashlib.sha256(repr(spec).encode())
    for path, blob in (_tracked(top) or {}).items():
        if wanted(path):
            digest.update(f"{path}\0{blob}\0".encode())
    for path in filter(wanted, _edited(top)):
        try:
            stat = (top / path).stat()
        except OSError:
            continue
        digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def scan_for(config: SiteConfig) -> CodeScan | None:
    """The scan of the repository holding the archive of `config`, as its `citations`
    setting asks; None when citations are off or the archive is in no git repository."""
    if config.citations is None:
        return None
    top = repository_of(config.root)
    if top is None:
        return None
    return scan(top, config.cache_dir / "cache" / CACHE_FILE,
                wanted_by(config.citations, _outside(config, top)))
