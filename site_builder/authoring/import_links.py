"""The links of an imported record, pointed at the same files from the record's new place.

A link to another imported record follows it to its new name. A linked image or attachment
(a kind the site publishes) is copied beside the records, keeping its path below the source
folder (a file from elsewhere in the repository goes next to the records, by its name). A
link to any other file of the source's repository points at that file on the web: at the
site's `repo_url` when the source is inside the archive's repository, else at the source
checkout's `origin` (`https://host/owner/repo/blob/<default branch>/path`). No link is ever
written as a path of this machine: one that cannot be pointed anywhere stays as written, and
the report says so.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from site_builder.archive.attachments import MAX_ATTACHMENT_BYTES, kind
from site_builder.archive.links import is_local, local_path, split_target
from site_builder.archive.records import Record
from site_builder.base.confined import inside
from site_builder.sources import browse

# A link's target: inline `](target` (groups 1, 2) or a definition `[x]: target` (3, 4).
_LINK_TARGET = re.compile(r"(\]\(\s*<?)([^)\s>]+)"
                          r"|(^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*<?)(\S+?)(?=>?(?:\s|$))", re.MULTILINE)


@dataclass(slots=True)
class Relinker:
    """How the links of the records imported from `src` into `folder` are rewritten."""

    src: Path
    """The source folder, resolved."""
    folder: Path
    """Where the records go (`content/<project>/<type>`)."""
    moved: dict[str, Path]
    """Old record path → new record path, for every imported record."""
    top: Path
    """The repository the source belongs to (its git top folder, else the source itself)."""
    web: str | None
    """Where that repository's files are shown on the web, ending in `/`; None: nowhere."""
    local: bool
    """The source is inside the archive's own repository: relative links stay relative."""
    copies: dict[Path, Path] = field(default_factory=dict)
    """Attachment copies to make: new path → file copied."""
    report: list[str] = field(default_factory=list)

    def body(self, record: Record, target: Path) -> str:
        """`record`'s body with every relative link pointing at the same file from `target`."""
        def rewrite(match: re.Match[str]) -> str:
            lead, written = (match.group(1), match.group(2)) if match.group(1) else (
                match.group(3), match.group(4))
            if not is_local(written):
                return match.group(0)
            new = self._target(local_path(record.path, written), target, written)
            return lead + new + split_target(written)[1] if new is not None else match.group(0)

        return _LINK_TARGET.sub(rewrite, record.body)

    def _target(self, path: Path, target: Path, written: str) -> str | None:
        """The new link to `path` (query and fragment left to the caller), or None to keep
        the link as written."""
        moved = self.moved.get(str(path)) or self.moved.get(f"{path}.md")
        if moved is not None:
            return _relative(moved, target)
        if self._attachment(path):
            dest = self.folder / (path.relative_to(self.src) if path.is_relative_to(self.src)
                                  else Path(path.name))
            if dest not in self.copies:
                self.copies[dest] = path
                self.report.append(f"  copied {written} beside the records, as "
                                   f"{dest.relative_to(self.folder).as_posix()}")
            if self.copies[dest] == path:
                return _relative(dest, target)
            self.report.append(f"  not copied: {written} (another file takes {dest.name})")
        if self.local:
            return _relative(path, target)
        if self.web is not None and path.is_relative_to(self.top) and path.exists():
            return self.web + quote(path.relative_to(self.top).as_posix())
        self.report.append(f"  left as written: {written} (no web address for it: set "
                           "repo_url in site.yml, or give the source's checkout an origin)")
        return None

    def _attachment(self, path: Path) -> bool:
        """True for a file the site publishes (an image, a PDF, data) inside the repository."""
        return (kind(path) in ("safe", "svg") and path.is_file() and inside(path, self.top)
                and path.stat().st_size <= MAX_ATTACHMENT_BYTES)


def relinker(src: Path, folder: Path, moved: dict[str, Path], archive_root: Path,
             repo_url: str | None) -> Relinker:
    """The Relinker for importing `src` (resolved) into `folder` of the archive at
    `archive_root` (resolved), whose links to repository files go to `repo_url`."""
    top = browse.top_level(src)
    archive_top = browse.top_level(archive_root)
    local = src.is_relative_to(archive_root) or (top is not None and top == archive_top)
    return Relinker(src=src, folder=folder, moved=moved, top=top or src,
                    web=(repo_url if local else browse.blob_url(src)), local=local)


def _relative(path: Path, start: Path) -> str:
    return Path(os.path.relpath(path, start.parent)).as_posix()
