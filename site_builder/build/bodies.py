"""Every record body rendered once: in parallel worker processes, and cached on disk.

A rendered body is stored under `<root>/.site-builder/cache/bodies/` keyed by what decides its
HTML: the record's id and body, how each of its links resolves, and an environment hash
(site-builder and renderer versions, the rendering code, templates, theme and site.yml). A
rebuild renders only bodies whose key is new. The pages read bodies back one at a time through
`RenderedBodies`, so a large archive's HTML is never all in memory at once.
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import site_builder
from site_builder.archive.archive import Archive
from site_builder.archive.records import Record
from site_builder.build import links as links_module
from site_builder.build import markdown as markdown_module
from site_builder.build.links import SourceLinks
from site_builder.build.markdown import BodyRenderer, RenderedBody, TocEntry

CACHE_FORMAT = "1"
_RENDERER_PACKAGES = ("markdown", "pygments", "pymdown-extensions", "nh3")
# Below this many bodies, starting worker processes costs more than it saves.
_PARALLEL_FROM = 32

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class BodyStats:
    """How the bodies of one build were obtained: `rendered` now, or read from the cache."""

    rendered: int
    cached: int


def builtin_folder(name: str) -> Path:
    """The built-in `templates` or `theme` folder (inside the package once installed, beside
    it in a source checkout)."""
    package = Path(site_builder.__file__).resolve().parent
    inside = package / name
    return inside if inside.is_dir() else package.parent / name


def environment_key(archive: Archive) -> str:
    """A hash of everything besides a record that shapes its rendered HTML."""
    digest = hashlib.sha256()
    digest.update(f"{CACHE_FORMAT}\0{site_builder.__version__}\0".encode())
    for package in _RENDERER_PACKAGES:
        try:
            digest.update(f"{package}={metadata.version(package)}\0".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{package}=?\0".encode())
    for module in (markdown_module, links_module):
        digest.update(Path(module.__file__ or "").read_bytes())
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
        digest.update(f"{path.relative_to(folder).as_posix()}\0".encode())
        digest.update(path.read_bytes())


# ---- the disk cache -------------------------------------------------------------------------


class BodyCache:
    """Rendered bodies on disk, one JSON file per key."""

    def __init__(self, folder: Path, environment: str) -> None:
        self.folder = folder
        self.environment = environment

    def key(self, record: Record, body: str, signature: tuple[tuple[str, str], ...]) -> str:
        """The cache key of `record`'s rendered `body` given how its links resolve."""
        digest = hashlib.sha256(self.environment.encode())
        digest.update(f"\0{record.id}\0{signature!r}\0".encode())
        digest.update(body.encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def has(self, key: str) -> bool:
        return self.path(key).is_file()

    def load(self, key: str) -> RenderedBody | None:
        """The stored body, or None when there is none or it cannot be read."""
        try:
            data = json.loads(self.path(key).read_bytes())
            return RenderedBody(data["html"], tuple(TocEntry(*t) for t in data["toc"]),
                                tuple(data["assets"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def store(self, key: str, body: RenderedBody) -> None:
        """Write one entry atomically (a concurrent `serve` may read the same folder)."""
        path = self.path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"html": body.html, "toc": [[t.level, t.anchor, t.title] for t in body.toc],
                "assets": list(body.assets)}
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(temporary, path)

    def prune(self, keep: set[str]) -> int:
        """Delete entries not in `keep` (bodies since edited or deleted); returns how many."""
        removed = 0
        if not self.folder.is_dir():
            return 0
        for shard in self.folder.iterdir():
            if not shard.is_dir():
                continue
            for entry in shard.iterdir():
                if entry.name.removesuffix(".json") not in keep:
                    entry.unlink(missing_ok=True)
                    removed += 1
        return removed


class RenderedBodies(Mapping[str, RenderedBody]):
    """Record id → RenderedBody, read from the cache when asked for (or kept in memory when
    the build runs without a cache). Remembers the assets of every body it hands out."""

    def __init__(self, keys: dict[str, str], cache: BodyCache | None,
                 memory: dict[str, RenderedBody]) -> None:
        self._keys = keys
        self._cache = cache
        self._memory = memory
        self._assets: dict[str, tuple[str, ...]] = {}

    def __getitem__(self, record_id: str) -> RenderedBody:
        body = self._memory.get(record_id)
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

    def cache_keys(self) -> set[str]:
        """The cache key of every body of this build (what the cache must keep)."""
        return set(self._keys.values())

    def assets(self) -> dict[str, tuple[str, ...]]:
        """Record id → output paths of the files its body links to, for every record."""
        for record_id in self._keys:
            if record_id not in self._assets:
                self[record_id]
        return {record_id: self._assets[record_id] for record_id in self._keys}


# ---- rendering ------------------------------------------------------------------------------


class _Worker:
    """What one process needs to render bodies: one renderer, reused for every record."""

    def __init__(self, archive: Archive, cache: BodyCache | None) -> None:
        self.archive = archive
        self.cache = cache
        self.renderer = BodyRenderer(SourceLinks(archive))

    def run(self, batch: list[tuple[str, str]]) -> list[tuple[str, RenderedBody | None]]:
        """Render each (record id, cache key); store it, or hand it back without a cache."""
        out: list[tuple[str, RenderedBody | None]] = []
        for record_id, key in batch:
            record = self.archive.by_id[record_id]
            body = self.renderer.render(record, self.archive.body(record))
            if self.cache is not None:
                self.cache.store(key, body)
                out.append((record_id, None))
            else:
                out.append((record_id, body))
        return out


# The worker of this process, set once by the pool's initializer: each worker process builds
# its renderer once and inherits the loaded archive instead of loading it again.
_worker: _Worker | None = None


def _start_worker(archive: Archive, cache: BodyCache | None) -> None:
    global _worker
    _worker = _Worker(archive, cache)


def _run_batch(batch: list[tuple[str, str]]) -> list[tuple[str, RenderedBody | None]]:
    assert _worker is not None, "the pool initializer sets the worker"
    return _worker.run(batch)


def default_jobs() -> int:
    """Worker processes to use: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def render_bodies(archive: Archive, cache: BodyCache | None, jobs: int | None = None,
                  progress: Progress | None = None) -> tuple[RenderedBodies, BodyStats]:
    """Render every body not already in `cache` (all of them without one).

    Returns the bodies by record id and how many were rendered or read from the cache.
    """
    jobs = jobs or default_jobs()
    resolve = SourceLinks(archive)
    keys: dict[str, str] = {}
    todo: list[tuple[str, str]] = []
    for record in archive.records:
        key = (cache.key(record, archive.body(record), resolve.signature(record))
               if cache else record.id)
        keys[record.id] = key
        if cache is None or not cache.has(key):
            todo.append((record.id, key))
    memory: dict[str, RenderedBody] = {}
    if jobs > 1 and len(todo) >= _PARALLEL_FROM:
        results = _in_pool(archive, cache, todo, jobs, progress)
    else:
        worker = _Worker(archive, cache)
        results = (item for start in range(0, len(todo), 64)
                   for item in worker.run(todo[start:start + 64]))
    for done, (record_id, body) in enumerate(results, start=1):
        if body is not None:
            memory[record_id] = body
        if progress and done % 64 == 0:
            progress(done, len(todo))
    stats = BodyStats(rendered=len(todo), cached=len(keys) - len(todo))
    return RenderedBodies(keys, cache, memory), stats


def _in_pool(archive: Archive, cache: BodyCache | None, todo: list[tuple[str, str]], jobs: int,
             progress: Progress | None) -> Iterator[tuple[str, RenderedBody | None]]:
    # Longest bodies first, in batches small enough to keep every worker busy to the end.
    todo = sorted(todo, key=lambda item: -len(archive.body(archive.by_id[item[0]])))
    size = max(1, min(64, math.ceil(len(todo) / (jobs * 8))))
    batches = [todo[start:start + size] for start in range(0, len(todo), size)]
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_start_worker,
                             initargs=(archive, cache)) as pool:
        for batch in pool.map(_run_batch, batches):
            yield from batch
