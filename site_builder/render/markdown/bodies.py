"""Every record body rendered once: in parallel worker processes, and cached on disk.

Workers receive each body with the little they need to render it (its page, its source path
and the table of record pages that link rewriting uses), never the loaded archive.

A rendered body is stored in the cache (`body_cache.BodyCache`) keyed by what decides its HTML:
the record's id and body, how each of its links resolves, and an environment hash
(site-builder and renderer versions, the rendering code, templates, theme and site.yml). A
rebuild renders only bodies whose key is new. Workers store each body and send it back to this
process, which hands it to its record page; pages read bodies back one at a time through
`RenderedBodies`, so a large archive's HTML is never all in memory at once.
"""

from __future__ import annotations

import hashlib
import importlib.util
import multiprocessing
from collections.abc import Container, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import site_builder
from site_builder.archive.archive import Archive
from site_builder.archive.body_files import BodyFile
from site_builder.archive.records import Record
from site_builder.base.installed import installed_versions, normal_name
from site_builder.render.markdown.body_cache import BodyCache
from site_builder.render.markdown.links import Origin, SourceLinks, Table
from site_builder.render.markdown.renderers import DEFAULT
from site_builder.render.markdown.to_html import BodyRenderer, RenderedBody
from site_builder.render.pages import mermaid_release
from site_builder.render.pages.theme import builtin_folder
from site_builder.render.pages.urls import Urls
from site_builder.render.parallel import IN_FLIGHT, Results, process_map

CACHE_FORMAT = "2"
# The packages whose versions shape a rendered body (the build stamp adds its own).
RENDERER_PACKAGES = ("cmarkgfm", "markdown", "pygments", "pymdown-extensions", "nh3")
# Every module whose code shapes a rendered body: a change to any of them renders again.
# Named, not imported: hashing Python-Markdown's extension must not import Python-Markdown.
_RENDERING_MODULES = (
    "site_builder.text.gfm", "site_builder.archive.body_limits", "site_builder.archive.attachments",
    *(f"site_builder.render.markdown.{name}" for name in (
        "renderers", "table_alignment", "sanitise", "html_pass", "headings", "highlight", "lexers",
        "lexing", "links", "to_html", "diagrams")))


@dataclass(frozen=True, slots=True)
class BodyStats:
    """How the bodies of one build were obtained: `rendered` now, or read from the cache."""

    rendered: int
    cached: int


def environment_key(archive: Archive) -> str:
    """A hash of everything besides a record that shapes its rendered HTML: the renderer
    site.yml names (`markdown:`) is part of the config hashed here, so a body rendered by
    one renderer is never taken for another's."""
    digest = hashlib.sha256()
    digest.update(f"{CACHE_FORMAT}\0{site_builder.__version__}\0".encode())
    versions = installed_versions()
    for package in RENDERER_PACKAGES:
        digest.update(f"{package}={versions.get(normal_name(package), '?')}\0".encode())
    for module in _RENDERING_MODULES:
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:  # a module renamed without this list following
            raise ModuleNotFoundError(f"{module} shapes rendered bodies but cannot be found")
        digest.update(Path(spec.origin).read_bytes())
    root = archive.config.root
    for folder in (builtin_folder("templates"), builtin_folder("theme"),
                   root / "templates", root / "theme"):
        _hash_folder(digest, folder)
    digest.update(repr(archive.config).encode())
    return digest.hexdigest()


def _hash_folder(digest: hashlib._Hash, folder: Path) -> None:
    if not folder.is_dir():
        return
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder)
        if rel.parts[0] == mermaid_release.FOLDER and rel.name != mermaid_release.SUMS:
            continue  # the vendored release (5.5 MB) is what its SHA256SUMS lists
        digest.update(f"{rel.as_posix()}\0".encode())
        digest.update(path.read_bytes())


class RenderedBodies(Mapping[str, RenderedBody]):
    """Record id → RenderedBody, read from the cache when asked for (or kept in memory when
    the build runs without a cache). Remembers the assets of every body it hands out.

    Bodies still being rendered arrive through `pending`, in the order of their ids there:
    asking for one waits until it has arrived. `wait()` waits for all of them, `close()`
    stops what is left and commits the cache; a build always closes before it ends. An
    arrived body that is also in the cache is handed out once from memory (to its record
    page) and read from the cache after that, so arrivals never pile up.
    """

    def __init__(self, keys: dict[str, str], cache: BodyCache | None,
                 memory: dict[str, RenderedBody], arriving: Iterable[str] = (),
                 pending: Results[tuple[str, RenderedBody | None]] | None = None) -> None:
        self._keys = keys
        self._cache = cache
        self._memory = memory
        self._arriving = set(arriving)
        self._pending = pending
        self._lent: dict[str, RenderedBody] = {}
        self._assets: dict[str, tuple[str, ...]] = {}

    def __getitem__(self, record_id: str) -> RenderedBody:
        if record_id in self._arriving:
            self._wait_for(record_id)
        body = self._memory.get(record_id) or self._lent.pop(record_id, None)
        if body is None:
            key = self._keys[record_id]  # KeyError for an unknown id, as a Mapping should
            body = self._cache.load(key) if self._cache else None
            if body is None:
                raise RuntimeError(f"the rendered body of {record_id} vanished from the cache "
                                   "during the build; build again")
        self._assets[record_id] = body.assets
        return body

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def _wait_for(self, record_id: str | None) -> None:
        """Take arriving bodies until `record_id`'s is in (every one, for None). With a cache,
        the process that rendered a body has stored it there before it arrives, and a
        worker process sends only the record's id (the page reads the body back)."""
        assert self._pending is not None
        for arrived, rendered in self._pending:
            self._arriving.discard(arrived)
            if self._cache is None:
                assert rendered is not None
                self._memory[arrived] = rendered
            elif record_id is not None and rendered is not None:
                self._lent[arrived] = rendered
            if arrived == record_id:
                return

    def wait(self) -> None:
        """Wait until every body is rendered (and added to the cache)."""
        if self._arriving:
            self._wait_for(None)

    def close(self) -> None:
        """Stop rendering the bodies that have not arrived yet, and commit the cache: it
        keeps every body that did arrive."""
        if self._pending is not None:
            self._pending.close()
        if self._cache is not None:
            self._cache.commit()

    def cache_keys(self) -> set[str]:
        """The cache key of every body of this build (what the cache must keep)."""
        return set(self._keys.values())

    def handed_out(self) -> dict[str, tuple[str, ...]]:
        """Record id → output paths of the files its body links to, for every body handed
        out so far (an incremental build's pages)."""
        return dict(self._assets)

    def assets(self) -> dict[str, tuple[str, ...]]:
        """Record id → output paths of the files its body links to, for every record."""
        for record_id in self._keys:
            if record_id not in self._assets:
                self[record_id]
        return {record_id: self._assets[record_id] for record_id in self._keys}


# ---- rendering ------------------------------------------------------------------------------

# (record id, cache key, page, source path, body): everything rendering one body needs. The
# body is its text, or the file it was left in (`Record.body_file`), which the worker reads:
# the jobs of a whole archive are made at once, and would otherwise hold every body.
Job = tuple[str, str, str, str, "str | BodyFile"]
# Where rendered bodies are stored: the cache's folder and environment key (None: nowhere).
CacheAt = tuple[Path, str] | None


class _Worker:
    """Renders jobs with one renderer, and stores each body in the cache when there is one
    (its own connection to it: a BodyCache is opened by each process that uses it).

    A worker process that stored a body answers with the record's id alone: its HTML is not
    sent, nor held by the build until its page is written, so the workers need not wait for
    the pages (they stayed a few batches ahead before, to bound that memory, and idled while
    the build wrote the agent files). In the build's own process the body is handed over."""

    def __init__(self, table: Table, markdown: str, cache: CacheAt) -> None:
        self.renderer = BodyRenderer(SourceLinks(*table), markdown)
        self.cache = BodyCache(*cache) if cache is not None else None
        self.elsewhere = multiprocessing.parent_process() is not None
        self.unstored: list[tuple[str, RenderedBody]] = []

    def __call__(self, job: Job) -> tuple[str, RenderedBody | None]:
        record_id, key, page, path, body = job
        if not isinstance(body, str):
            body = body.read()
        rendered = self.renderer.render(Origin(page, Path(path)), body)
        if self.cache is not None:
            self.unstored.append((key, rendered))
            if self.elsewhere:
                return record_id, None
        return record_id, rendered

    def finish(self) -> None:
        """Store what was rendered since the last call, in one transaction (see
        `BodyCache.store_all`): two workers storing each body as it came held SQLite's
        write lock by turns for a whole batch, so one mostly slept."""
        if self.cache is not None and self.unstored:
            self.cache.store_all(self.unstored)
            self.unstored = []


# The worker of this process: set up once per process by `_start`, used for every job.
_worker: _Worker | None = None


def _start(table: Table, markdown: str, cache: CacheAt) -> None:
    global _worker
    _worker = _Worker(table, markdown, cache)


def _render(job: Job) -> tuple[str, RenderedBody | None]:
    assert _worker is not None, "process_map runs _start first"
    return _worker(job)


def _finish() -> None:
    """After a batch: commit what the worker stored, before its bodies are handed over."""
    if _worker is not None:
        _worker.finish()


def body_keys(archive: Archive, cache: BodyCache | None) -> tuple[SourceLinks, dict[str, str]]:
    """How links resolve in `archive`, and record id → the cache key of its body (its id,
    without a cache)."""
    links = SourceLinks.of(archive)
    markdown = archive.config.markdown
    return links, {record.id: _key(cache, links, record, archive, markdown)
                   for record in archive.records}


def render_bodies(archive: Archive, cache: BodyCache | None, jobs: int | None = None,
                  keyed: tuple[SourceLinks, dict[str, str]] | None = None,
                  needed: Container[str] | None = None,
                  ) -> tuple[RenderedBodies, BodyStats]:
    """Start rendering every body not already in `cache` (all of them without one), on
    `jobs` processes (default: one per CPU), and return at once; with `needed`, only the
    bodies of those record ids (an incremental build keeps the other pages as they are).
    `keyed` is what `body_keys` gave, when the caller has it already.

    Returns the bodies by record id (each one waited for when first asked for: the caller
    renders pages meanwhile; `wait()` or `close()` it before the build ends) and how many
    are rendered or read from the cache. Bodies are rendered in archive order, the order the
    record pages ask for them.
    """
    links, keys = keyed or body_keys(archive, cache)
    markdown = archive.config.markdown
    todo: list[Job] = []
    weight = 0
    for record in archive.records:
        if needed is not None and record.id not in needed:
            continue
        key = keys[record.id]
        if cache is None or not cache.has(key):
            body = _job_body(archive, record)
            todo.append((record.id, key, Urls.record_page(record), str(record.path), body))
            # Characters of Markdown; a body left in its file counts the file's bytes
            # (reading it here would be one more pass over every file).
            weight += len(body) if isinstance(body, str) else body.stamp[0]
    cache_at = (cache.folder, cache.environment) if cache is not None else None
    results = process_map(_render, todo, jobs, initializer=_start,
                          initargs=(links.table, markdown, cache_at),
                          weight=weight, finish=_finish,
                          ahead=None if cache is not None else IN_FLIGHT)
    bodies = RenderedBodies(keys, cache, {}, (job[0] for job in todo), results)
    wanted = len(keys) if needed is None else sum(1 for k in keys if k in needed)
    return bodies, BodyStats(rendered=len(todo), cached=wanted - len(todo))


def _job_body(archive: Archive, record: Record) -> str | BodyFile:
    """What a job carries of `record`'s body: the file it was left in, or its text."""
    return record.body_file if record.body_file is not None else archive.body(record)


def _key(cache: BodyCache | None, links: SourceLinks, record: Record, archive: Archive,
         markdown: str) -> str:
    """The body's cache key (its id without a cache): its text, how its links resolve, and
    for a renderer other than cmark-gfm every link-like text too. A body left in its file
    is known by the digest the loader made of it: its text is not read (0.2 s for every
    body at 10,000 records)."""
    if cache is None:
        return record.id
    loose = markdown != DEFAULT
    known = record.body_file.body_digest if record.body_file is not None and not loose else b""
    if known:
        return cache.key(record, known, links.signature(record, ""))
    body = archive.body(record)
    return cache.key(record, body, links.signature(record, body, loose))


def update_bodies(archive: Archive, bodies: RenderedBodies,
                  record_ids: Iterable[str]) -> RenderedBodies:
    """`bodies` with the bodies of `record_ids` made current for `archive`, which holds the
    same records as the archive `bodies` was rendered for, some of them edited.

    For `serve`: an edit renders only the bodies it touched, in this process, through the
    same cache as a build (an edit undone is read back from it). The bodies it touched are
    also kept in memory, so a build pruning the cache meanwhile cannot take them away.
    Returns a new mapping; `bodies` itself is not changed.
    """
    cache = bodies._cache
    links = SourceLinks.of(archive)
    markdown = archive.config.markdown
    keys = dict(bodies._keys)
    memory = dict(bodies._memory)
    renderer: BodyRenderer | None = None
    for record_id in record_ids:
        record = archive.by_id[record_id]
        key = _key(cache, links, record, archive, markdown)
        rendered = cache.load(key) if cache is not None else None
        if rendered is None:
            renderer = renderer or BodyRenderer(links, markdown)
            rendered = renderer.render(Origin.of(record), archive.body(record))
            if cache is not None:
                cache.store(key, rendered)
        keys[record_id] = key
        memory[record_id] = rendered
    if cache is not None:
        cache.commit()
    return RenderedBodies(keys, cache, memory)
