"""`build_site`: archive → the whole site, in two phases.

Load and check everything first (an archive with errors is refused before anything is
written), then work out what to make (everything, or what an edit touched: `increment`) and
render it (`writing`); every byte goes through one `Output`, which swaps the new site in only
when all of it was written.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from site_builder.archive.archive import Archive
from site_builder.archive.loader import LoaderCache
from site_builder.base.findings import Finding, has_errors
from site_builder.base.words import plural
from site_builder.config.site import SiteConfig, load_config
from site_builder.errors import OutputError, SiteBuilderError
from site_builder.render.increment import (
    UNWRITTEN,
    Digests,
    Increment,
    Memory,
    decide,
    forget,
    recall,
    record_digests,
    remember,
    setting_digest,
)
from site_builder.render.markdown.bodies import body_keys, environment_key
from site_builder.render.markdown.body_cache import BodyCache
from site_builder.render.output.lock import build_lock
from site_builder.render.output.pieces import Layout
from site_builder.render.output.stamp import (
    Stamp,
    fingerprint_of,
    forget_stamp,
    input_fingerprint,
    output_fingerprint,
    read_stamp,
    write_stamp,
)
from site_builder.render.output.writer import Output
from site_builder.render.result import BuildResult, report_of
from site_builder.render.writing import Made, Progress, start_rendering, write_files
from site_builder.sources.load import load_archive

__all__ = ["BuildRefused", "BuildResult", "UnsafeOutput", "build_site", "output_folder"]


class BuildRefused(SiteBuilderError):
    """The archive has errors; nothing was written. `findings` lists every problem."""

    def __init__(self, findings: tuple[Finding, ...]) -> None:
        errors = sum(f.level == "error" for f in findings)
        super().__init__(f"the archive has {plural(errors, 'error')}; nothing was built")
        self.findings = findings


class UnsafeOutput(OutputError, ValueError):
    """An output folder that a build would have to wipe along with sources."""


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
    default) parsed records and rendered bodies are kept in `<root>/.site-builder/`, a
    build with inputs and output unchanged since the last returns at once (`up_to_date`),
    and one after an edit parses the files that changed and makes only the files that read
    them (render/increment.py); `force` makes every file again. The new site replaces the
    old in one step (render/output/). One build of an archive runs at a time: while another
    holds the lock, this one calls `waiting(message)` and waits. Returns what was built.
    Raises BuildRefused (archive errors), UnsafeOutput (an output folder holding sources) or
    OutputError (naming the path it cannot write), leaving the old output intact.
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
    parses = loader_cache or LoaderCache(bodies_on_disk=True, kept=cache)  # a one-off load
    archive = load_archive(root, cache=parses)
    findings = archive.findings
    if has_errors(findings):
        raise BuildRefused(findings)
    config = archive.config
    parses.keep(config, create=True)
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
        return _write(archive, target, jobs, cache, inputs, report, started, force)


def _write(archive: Archive, target: Path, jobs: int | None, cache: bool, inputs: str | None,
           report: Progress, started: float, force: bool) -> BuildResult:
    """Phase two of `build_site`, under the build lock: work out what to make (everything,
    or what changed since the last build), render, write, commit, stamp."""
    config, findings = archive.config, archive.findings
    cache_dir = config.cache_dir / "cache"
    body_cache = (BodyCache(cache_dir / "bodies", environment_key(archive)) if cache else None)
    keyed = body_keys(archive, body_cache)
    step = _Step.of(archive, body_cache, keyed[1], target, force) if body_cache else None
    increment = step.increment if step else None
    index, bodies, stats = start_rendering(archive, body_cache, jobs, keyed, increment)
    with Output(target, spare_folder(config, target) if cache else None) as out:
        if step is not None and step.previous is not None and step.increment.full is None:
            out.splice_from(step.previous.layouts, step.unchanged)
        made = write_files(archive, bodies, index, out, report, increment,
                           step.kept if step else None)
        if cache:
            forget_stamp(cache_dir)
            forget(cache_dir)
        out.commit()
    how = (increment.line(len(increment.files)),) if increment else ()
    result = BuildResult(
        output=target, records=len(archive.records), pages=made.pages,
        files=len(out.written), changed=out.changed, unchanged=out.unchanged,
        removed=out.removed, rendered=stats.rendered, cached=stats.cached,
        seconds=0.0, warnings=tuple(f for f in findings if f.level == "warning"),
        skipped=tuple((s.rel_path, s.reason, s.draft) for s in archive.skipped),
        method=(*how, _committed(out)))
    if body_cache is not None:
        body_cache.prune(bodies.cache_keys())
    if step is not None:
        output = (output_fingerprint(target) if out.listings is None
                  else fingerprint_of(out.listings))
        if inputs is not None:
            write_stamp(cache_dir, Stamp(inputs, output, report_of(result)))
        remember(cache_dir, step.memory(output, out.written, made, out.layouts))
    return replace(result, seconds=time.perf_counter() - started)


@dataclass(frozen=True, slots=True)
class _Step:
    """An incremental build's plan: what to make, what the last build knew, the digests."""

    increment: Increment
    previous: Memory | None
    setting: str
    digests: Digests

    @classmethod
    def of(cls, archive: Archive, cache: BodyCache, body_keys: dict[str, str], target: Path,
           force: bool) -> _Step:
        cache_dir = archive.config.cache_dir / "cache"
        previous = None if force else recall(cache_dir)
        setting = setting_digest(archive, cache.environment, target)
        digests = record_digests(archive, body_keys)
        output = output_fingerprint(target) if previous and target.is_dir() else None
        increment = decide(archive, previous, setting, digests, output)
        if force:
            increment.full = "--force"
        return cls(increment, previous, setting, digests)

    def unchanged(self, record_id: str) -> bool:
        """True when the record's digest is the one the last build knew."""
        return (self.previous is not None
                and self.previous.records.get(record_id) == self.digests.records.get(record_id))

    @property
    def kept(self) -> Made | None:
        """What the last build knew of the pages this one keeps."""
        if self.previous is None:
            return None
        return Made(assets={k: tuple(v) for k, v in self.previous.assets.items()},
                    drawn=set(self.previous.drawn))

    def memory(self, output: str, written: set[str], made: Made,
               layouts: dict[str, Layout]) -> Memory:
        """What this build leaves for the next one."""
        search = made.search
        if not self.increment.search and self.previous is not None:
            search = self.previous.search
        return Memory(self.setting, output, self.digests.records, self.digests.rows,
                      {path: reads if path in written else UNWRITTEN + reads
                       for path, reads in self.increment.files.items()},
                      sorted(search), {k: list(v) for k, v in made.assets.items() if v},
                      sorted(made.drawn), self._layouts(layouts))

    def _layouts(self, layouts: dict[str, Layout]) -> dict[str, Layout]:
        """Where each file of pieces lies now: as this build wrote it, or as the last did."""
        kept = self.previous.layouts if self.previous is not None else {}
        out = {rel: layout for rel, layout in kept.items() if rel in self.increment.files}
        out.update(layouts)
        return out


def spare_folder(config: SiteConfig, target: Path) -> Path:
    """Where the old site is kept after an exchange, as the next build's staging folder
    (render/output/spare.py): under `.site-builder/`, one per output folder."""
    tag = hashlib.sha256(os.fsencode(target)).hexdigest()[:12]
    return config.cache_dir / "spare" / f"{target.name}-{tag}"


def _committed(out: Output) -> str:
    """How `out` was committed, for `build --verbose`."""
    if out.method == "exchange":
        kept = ("the old one kept as the next build's spare" if out.reuses_spare
                else "the old one deleted")
        return f"  committed: the new site and the old exchanged in one step (renameat2); {kept}"
    if out.method == "unchanged":
        return "  committed: nothing, no file changed"
    if out.method == "new folder":
        return "  committed: the staged folder renamed into place (no earlier output)"
    return f"  committed: file by file through the journal ({out.why_not_exchange})"


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
