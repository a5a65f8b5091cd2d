"""What `init --from` and `import` print: every guess, the files left out, what `check` says."""

from __future__ import annotations

from pathlib import Path

from site_builder.archive.foreign import read_source, skipped_files
from site_builder.archive.formats.files import Skipped
from site_builder.base.findings import Finding
from site_builder.base.words import plural
from site_builder.config.site import SiteConfig, load_config
from site_builder.sources.load import load_archive
from site_builder.sources.resolve import content_roots


def record_guesses(config: SiteConfig) -> list[str]:
    """`path: guess` for every guess made reading the archive's foreign folders."""
    roots, _ = content_roots(config)
    lines: list[str] = []
    for root in roots:
        if root.foreign is None:
            continue
        for item in read_source(config, root):
            if item.record is None:
                continue
            where = item.record.rel_path
            lines.extend(f"{where}: {guess}" for guess in item.guesses)
    return lines


def left_out(config: SiteConfig) -> list[Skipped]:
    """The files of the archive's foreign folders that are not published as records, each
    with why (templates, pages, excluded files, drafts): what `build -v` lists too."""
    roots, _ = content_roots(config)
    return [item for root in roots if root.foreign is not None
            for item in skipped_files(config, root)]


def check_summary(root: Path) -> tuple[list[Finding], str]:
    """The archive's errors and the statuses published as `unknown` (warnings naming
    `status_map`), and one line saying whether `check` passes and how many need an entry."""
    config, problems = load_config(root)
    if config is None:
        return problems, "site.yml cannot be read"
    archive = load_archive(root, config=config)
    errors = [f for f in archive.findings if f.level == "error"]
    statuses = [f for f in archive.findings if "status_map" in f.message]
    verb = "needs" if len(statuses) == 1 else "need"
    hint = (f"; {len(statuses)} {verb} a status_map entry in site.yml" if statuses else "")
    shown = [f for f in archive.findings if f in errors or f in statuses]
    if not errors:
        return shown, f"check passes: {plural(len(archive.records), 'record')}{hint}"
    counted = f"{plural(len(errors), 'error')} in {plural(len(archive.records), 'record')}"
    return shown, f"check finds {counted}{hint}"
