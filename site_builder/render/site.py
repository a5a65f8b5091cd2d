"""`build_site`: archive → the whole site, in two phases.

Load and check everything first (an archive with errors is refused before anything is
written), then render: bodies in worker processes (cached on disk) while this process writes
the agent artifacts and the pages that need no body, then each record page as its body
arrives, and the files bodies link to; every byte goes through one `Output`, which swaps the
new site in only when all of it was written.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from site_builder.archive import attachments
from site_builder.archive.archive import Archive
from site_builder.archive.loader import LoaderCache
from site_builder.archive.static import static_files
from site_builder.base.confined import Refused
from site_builder.base.findings import Finding, has_errors
from site_builder.base.site_paths import SITEMAP
from site_builder.base.words import plural
from site_builder.config.site import SiteConfig, load_config
from site_builder.errors import OutputError, SiteBuilderError
from site_builder.render.agents.artifacts import write_artifacts
from site_builder.render.markdown.bodies import (
    BodyStats,
    RenderedBodies,
    environment_key,
    render_bodies,
)
from site_builder.render.markdown.body_cache import BodyCache
from site_builder.render.markdown.links import asset_source
from site_builder.render.output.lock import build_lock
from site_builder.render.output.stamp import (
    Stamp,
    forget_stamp,
    input_fingerprint,
    output_fingerprint,
    read_stamp,
    write_stamp,
)
from site_builder.render.output.writer import Output
from site_builder.render.pages import templates as pages
from site_builder.render.pages.urls import Urls
from site_builder.render.parallel import Background, in_background
from site_builder.render.search.index import index_files
from site_builder.sources.load import load_archive

# progress(stage, done, total): called now and then while a build runs.
Progress = Callable[[str, int, int], None]


class BuildRefused(SiteBuilderError):
    """The archive has errors; nothing was written. `findings` lists every problem."""

    def __init__(self, findings: tuple[Finding, ...]) -> None:
        errors = sum(f.level == "error" for f in findings)
        super().__init__(f"the archive has {plural(errors, 'error')}; nothing was built")
        self.findings = findings


class UnsafeOutput(OutputError, ValueError):
    """An output folder that a build would have to wipe along with sources."""


@dataclass(frozen=True, slots=True)
class BuildResult:
    """What one build did."""

    output: Path
    records: int
    pages: int
    files: int
    changed: int
    unchanged: int
    removed: int
    rendered: int
    cached: int
    seconds: float
    warnings: tuple[Finding, ...] = ()
    up_to_date: bool = False
    skipped: tuple[tuple[str, str, bool], ...] = ()
    """(path, why, is a draft) of each file of the records folders left out."""

    def left_out(self) -> list[str]:
        """Every file of the records folders the build left out, with why (templates, pages,
        excluded files, drafts), as `build --verbose` prints them."""
        return [f"  {path}: {why}" for path, why, _ in self.skipped]

    def summary(self) -> str:
        """One line for people: what was built, where, how long it took, and how many
        drafts were left out."""
        records, pages = plural(self.records, "record"), plural(self.pages, "page")
        drafts = sum(draft for _, _, draft in self.skipped)
        left = f"; {plural(drafts, 'draft')} left out (not published)" if drafts else ""
        if self.up_to_date:
            return (f"Up to date: nothing changed since the last build of {records}, "
                    f"{pages} in {self.output} ({self.seconds:.1f} s){left}")
        return (f"Built {records}, {pages} ({plural(self.files, 'file')}: "
                f"{self.changed} written, {self.removed} removed; "
                f"{plural(self.rendered, 'body', 'bodies')} "
                f"rendered, {self.cached} from cache) into {self.output} "
                f"in {self.seconds:.1f} s{left}")


def output_folder(config: SiteConfig, output: Path | None) -> Path:
    """The folder to build into: `output`, else site.yml's. Raises UnsafeOutput when the
    folder holds the archive, its content, templates or caches (replacing it would delete
    them)."""
    target = Path(output if output is not None else config.output_dir).absolute().resolve()
    content = config.content_dir.resolve()
    for folder in (config.root, content, config.root / "templates", config.root / "theme"):
        if folder.is_relative_to(target):
            raise UnsafeOutput(f"refusing to build into {target}: replacing it would delete "
                               f"{folder}; choose a separate folder such as _site")
    for folder in (content, config.cache_dir):
        if target.is_relative_to(folder):
            raise UnsafeOutput(f"refusing to build into {target}: it is inside {folder}; "
                               "choose a separate folder such as _site")
    return target


def build_site(root: Path, output: Path | None = None, jobs: int | None = None,
               cache: bool = True, progress: Progress | None = None,
               loader_cache: LoaderCache | None = None, force: bool = False,
               waiting: Callable[[str], None] | None = None) -> BuildResult:
    """Build the archive at `root` into `output` (default: site.yml's `output`).

    `jobs` worker processes render bodies (default: one per CPU). With `cache` (the
    default) bodies are cached under `<root>/.site-builder/`, and a build whose inputs and
    output are unchanged since the last one returns at once (`up_to_date`) unless `force`.
    One build of an archive runs at a time: while another holds `.site-builder/build.lock`,
    this one calls `waiting(message)` and waits. Returns what was built. Raises
    BuildRefused when the archive has errors, UnsafeOutput for an output folder that holds
    sources and OutputError (one line naming the path) when the output cannot be written;
    in every case, and when anything fails midway, the previous output is left exactly as
    it was (a commit cut short by a kill is undone by the next build).
    """
    started = time.perf_counter()
    report = progress or (lambda stage, done, total: None)
    report("loading records", 0, 0)
    config, problems = load_config(root)
    inputs = None
    if config is not None and not has_errors(problems):
        target = output_folder(config, output)
        inputs = input_fingerprint(config, target) if cache else None
        if inputs is not None and not force:
            done = _unchanged(config, target, inputs, started)
            if done is not None:
                return done
    archive = load_archive(root, cache=loader_cache)
    findings = archive.findings
    if has_errors(findings):
        raise BuildRefused(findings)
    config = archive.config
    target = output_folder(config, output)
    waited = False

    def wait(message: str) -> None:
        nonlocal waited
        waited = True
        if waiting is not None:
            waiting(message)

    with build_lock(config.cache_dir, wait):
        if waited and inputs is not None and not force:
            done = _unchanged(config, target, inputs, started)  # the other build made it
            if done is not None:
                return done
        return _write(archive, target, jobs, cache, inputs, report, started)


def _write(archive: Archive, target: Path, jobs: int | None, cache: bool, inputs: str | None,
           report: Progress, started: float) -> BuildResult:
    """Phase two of `build_site`, under the build lock: render, write, commit, stamp."""
    config, findings = archive.config, archive.findings
    body_cache = (BodyCache(config.cache_dir / "cache" / "bodies", environment_key(archive))
                  if cache else None)
    index, bodies, stats = _start_rendering(archive, body_cache, jobs)
    with Output(target) as out:
        page_count = _write_site(archive, bodies, index, out, report)
        if cache:
            forget_stamp(config.cache_dir / "cache")
        out.commit()
    result = BuildResult(
        output=target, records=len(archive.records), pages=page_count,
        files=len(out.written), changed=out.changed, unchanged=out.unchanged,
        removed=out.removed, rendered=stats.rendered, cached=stats.cached,
        seconds=0.0, warnings=tuple(f for f in findings if f.level == "warning"),
        skipped=tuple((s.rel_path, s.reason, s.draft) for s in archive.skipped))
    if body_cache is not None:
        body_cache.prune(bodies.cache_keys())
    if inputs is not None:
        write_stamp(config.cache_dir / "cache",
                    Stamp(inputs, output_fingerprint(target), _report(result)))
    return replace(result, seconds=time.perf_counter() - started)


def _unchanged(config: SiteConfig, target: Path, inputs: str,
               started: float) -> BuildResult | None:
    """The result of the last build when nothing changed since, else None."""
    stamp = read_stamp(config.cache_dir / "cache")
    if stamp is None or stamp.inputs != inputs or not target.is_dir():
        return None
    if stamp.output != output_fingerprint(target):
        return None
    last = stamp.report
    warnings = tuple(Finding(Path(path), line, level, message)
                     for path, line, level, message in last["warnings"])
    return BuildResult(output=target, records=last["records"], pages=last["pages"],
                       files=last["files"], changed=0, unchanged=last["files"], removed=0,
                       rendered=0, cached=0, seconds=time.perf_counter() - started,
                       warnings=warnings, up_to_date=True,
                       skipped=tuple((p, why, draft) for p, why, draft in last.get("skipped", ())))


def _report(result: BuildResult) -> dict[str, object]:
    return {"records": result.records, "pages": result.pages, "files": result.files,
            "warnings": [[str(f.path), f.line, f.level, f.message] for f in result.warnings],
            "skipped": [list(item) for item in result.skipped]}


class FileWriter(Protocol):
    """Where files go by site path (POSIX, relative to the site root)."""

    def write(self, rel: str, data: str | bytes | Iterable[bytes]) -> None: ...
    def copy(self, rel: str, source: Path) -> None: ...
    def exists(self, rel: str) -> bool: ...


class SiteWriter(FileWriter, Protocol):
    """What phase two writes through: `Output` (a folder, swapped in on commit) or the
    memory `serve` answers from; `written` holds every path written so far."""

    written: set[str]


def write_site(archive: Archive, out: SiteWriter, jobs: int | None = None,
               progress: Progress | None = None) -> RenderedBodies:
    """Phase two alone, through any writer: for `serve`, which keeps a loaded and checked
    archive and the site in memory. Renders the bodies (through the same cache as
    `build_site`), writes every file through `out` and returns the bodies, so that single
    pages can be rendered again later; committing `out` is the caller's business."""
    report = progress or (lambda stage, done, total: None)
    body_cache = BodyCache(archive.config.cache_dir / "cache" / "bodies",
                           environment_key(archive))
    index, bodies, _ = _start_rendering(archive, body_cache, jobs)
    _write_site(archive, bodies, index, out, report)
    return bodies


def _start_rendering(archive: Archive, cache: BodyCache | None, jobs: int | None,
                     ) -> tuple[Background[list[tuple[str, bytes]]], RenderedBodies, BodyStats]:
    """Start the search index and the bodies. The index first: its worker is forked without
    a thread, while the body workers' pool starts one, after which nothing more forks."""
    index = in_background(index_files, archive, jobs=jobs)
    bodies, stats = render_bodies(archive, cache, jobs)
    return index, bodies, stats


def _write_site(archive: Archive, bodies: RenderedBodies,
                index: Background[list[tuple[str, bytes]]], out: SiteWriter,
                report: Progress) -> int:
    """Stage agent files, pages and linked assets while the bodies are still arriving and
    the search `index` is computed; returns the number of pages. The bodies are all in (or
    stopped, on an error) on return.

    The agent files come first: they need no body, so this process writes them while the
    workers render; so is the index when this process computes it. An index computed by a
    worker is written once the pages are; the sitemap comes last: it needs the list of pages.
    """
    urls = Urls(archive.config)
    write = out.write

    def write_index() -> None:
        for path, data in index.result():
            write(path, data)

    try:
        write_artifacts(archive, urls, write, only=_ALL_BUT_SITEMAP)
        if not index.elsewhere:
            write_index()
        page_count = pages.render_pages(
            archive, bodies, urls, write, search_index=False,
            progress=lambda done, total: report("writing pages", done, total))
        bodies.wait()
        if index.elsewhere:
            write_index()
    finally:
        index.close()
        bodies.close()  # stops the workers on an error; commits the cache either way
    report("finishing", 0, 0)
    html_pages = sorted(rel for rel in out.written if rel.endswith(".html"))
    write_artifacts(archive, urls, write, html_pages, only=(SITEMAP,))
    # After the sitemap (a verification page is no page of the site), before the files
    # bodies link to (a static file of the same name is the one the author meant).
    for rel, source in static_files(archive.config):
        out.copy(rel, source)
    copy_assets(archive, bodies.assets(), out)
    return page_count


class _AllBut:
    """Every site path except one (an `only=` filter)."""

    def __init__(self, excluded: str) -> None:
        self.excluded = excluded

    def __contains__(self, path: object) -> bool:
        return path != self.excluded


_ALL_BUT_SITEMAP = _AllBut(SITEMAP)


def copy_assets(archive: Archive, assets: Mapping[str, Iterable[str]], out: FileWriter) -> None:
    """Copy the files bodies link to (`assets`: site paths by record id, as
    `RenderedBodies.assets`), each to its place relative to the content folder, unless `out`
    has a file there already; an SVG is written as its cleaned copy (archive.attachments),
    never as it is. Links resolve only to kinds that may be published, so nothing else
    reaches here. Raises OSError for a file that cannot be read."""
    for record_id, paths in assets.items():
        record = archive.by_id[record_id]
        for rel in paths:
            if out.exists(rel):  # a generated file of the same name wins
                continue
            source = asset_source(record, rel)
            if attachments.kind(rel) == "safe":
                out.copy(rel, source)
                continue
            try:
                out.write(rel, attachments.published_bytes(source, record.content_folder))
            except (Refused, attachments.SvgRefused):
                continue  # `check` reports it at the linking line; nothing is published
