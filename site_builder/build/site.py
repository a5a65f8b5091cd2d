"""`build_site`: archive → the whole site, in two phases.

Load and check everything first (an archive with errors is refused before anything is
written), then render: bodies in parallel (cached on disk), pages, agent artifacts and the
files bodies link to, every byte through one `Output`, which swaps the new site in only when
all of it was written.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from site_builder.archive.archive import Archive
from site_builder.archive.findings import Finding, has_errors
from site_builder.archive.loader import LoaderCache, load_archive
from site_builder.build import pages
from site_builder.build.artifacts import write_artifacts
from site_builder.build.bodies import BodyCache, RenderedBodies, environment_key, render_bodies
from site_builder.build.links import content_root
from site_builder.build.output import Output
from site_builder.build.urls import Urls

# progress(stage, done, total): called now and then while a build runs.
Progress = Callable[[str, int, int], None]


class BuildRefused(Exception):
    """The archive has errors; nothing was written. `findings` lists every problem."""

    def __init__(self, findings: tuple[Finding, ...]) -> None:
        errors = sum(f.level == "error" for f in findings)
        super().__init__(f"the archive has {errors} error(s); nothing was built")
        self.findings = findings


class UnsafeOutput(ValueError):
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

    def summary(self) -> str:
        """One line for people: what was built, where, and how long it took."""
        return (f"Built {self.records} records, {self.pages} pages ({self.files} files: "
                f"{self.changed} written, {self.removed} removed; {self.rendered} bodies "
                f"rendered, {self.cached} from cache) into {self.output} "
                f"in {self.seconds:.1f} s")


def output_folder(archive: Archive, output: Path | None) -> Path:
    """The folder to build into: `output`, else site.yml's. Raises UnsafeOutput when the
    folder holds the archive, its content, templates or caches (replacing it would delete
    them)."""
    config = archive.config
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
               loader_cache: LoaderCache | None = None) -> BuildResult:
    """Build the archive at `root` into `output` (default: site.yml's `output`).

    `jobs` worker processes render bodies (default: one per CPU); `cache=False` renders
    every body without reading or writing `<root>/.site-builder/`. Returns what was built.
    Raises BuildRefused when the archive has errors and UnsafeOutput for an output folder
    that holds sources; in both cases, and when anything fails midway, the previous output
    is left exactly as it was.
    """
    started = time.perf_counter()
    report = progress or (lambda stage, done, total: None)
    report("loading", 0, 0)
    archive = load_archive(root, cache=loader_cache)
    findings = archive.findings
    if has_errors(findings):
        raise BuildRefused(findings)
    target = output_folder(archive, output)
    urls = Urls(archive.config)
    body_cache = (BodyCache(archive.config.cache_dir / "cache" / "bodies",
                            environment_key(archive)) if cache else None)
    bodies, stats = render_bodies(
        archive, body_cache, jobs,
        progress=lambda done, total: report("rendering bodies", done, total))
    with Output(target) as out:
        written = 0

        def write(rel: str, data: str | bytes) -> None:
            nonlocal written
            out.write(rel, data)
            written += 1
            if written % 256 == 0:
                report("writing", written, 0)

        page_count = pages.render_pages(archive, bodies, urls, write)
        html_pages = sorted(rel for rel in out.written if rel.endswith(".html"))
        write_artifacts(archive, urls, write, html_pages)
        _copy_assets(archive, bodies, out)
        out.commit()
    if body_cache is not None:
        body_cache.prune(bodies.cache_keys())
    return BuildResult(
        output=target, records=len(archive.records), pages=page_count,
        files=len(out.written), changed=out.changed, unchanged=out.unchanged,
        removed=out.removed, rendered=stats.rendered, cached=stats.cached,
        seconds=time.perf_counter() - started,
        warnings=tuple(f for f in findings if f.level == "warning"))


def _copy_assets(archive: Archive, bodies: RenderedBodies, out: Output) -> None:
    """Copy the files bodies link to, each to its place relative to the content folder."""
    for record_id, assets in bodies.assets().items():
        record = archive.by_id[record_id]
        for rel in assets:
            if not out.exists(rel):  # a generated file of the same name wins
                out.copy(rel, content_root(record) / rel)
