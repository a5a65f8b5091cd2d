"""The one writer: every file of a build goes through `Output`, which stages it and commits it.

A build writes into a staging folder beside the output folder (`_site.tmp-<pid>`, so renames
never cross filesystems), and nothing in the output folder changes before `commit()`: a build
that fails halfway leaves the previous output byte for byte as it was. Only files whose bytes
differ from the previous output are staged; `commit()` renames them into place and deletes the
files the new build no longer writes. Unchanged files are never touched, so they keep their
mtime (rsync, `serve` and static hosts see no change), and a rebuild that changes nothing does
no file-system writes at all (build/adr/0025, which kept the staging decided before it).

On Linux the staging folder becomes the whole new site: each unchanged file is hard-linked
into it from the previous output (same inode, same mtime), and `commit()` exchanges the two
folders in one `renameat2(RENAME_EXCHANGE)`, then deletes the old site under the staging
name (`exchange`, build/adr/0037). A reader, a web server or a `kill -9` at any moment finds
exactly the old site or exactly the new one. Unchanged files are linked only once the build
has changed something, so a build that changes nothing still writes nothing.

Where folders cannot be exchanged, the commit moves each changed file into place and writes
each step into a journal before taking it (`journal.Commit`), so a commit the file system
refuses halfway is undone at once, and one cut short by a `kill -9` is undone by the next
build before it starts (build/adr/0025). `Output.method` says which of the two a build used.
Every file-system refusal is an `OutputError` naming the path.
"""

from __future__ import annotations

import errno
import os
import posixpath
import shutil
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import TracebackType

from site_builder.errors import OutputError
from site_builder.render.output import spare
from site_builder.render.output.exchange import exchange, unavailable
from site_builder.render.output.journal import (
    Commit,
    JournalError,
    apply_commit,
    recover,
    siblings,
    stale_files,
)
from site_builder.render.output.pieces import Layout, Pieces, laid_out, splice_file
from site_builder.render.output.same import same_bytes, same_file_bytes
from site_builder.render.output.staging import Stager, StagingFailed


def refused(error: OSError, what: str = "write") -> OutputError:
    """An OutputError for a file-system refusal: one line naming the path."""
    path = error.filename if error.filename is not None else "the output"
    reason = error.strerror or str(error)
    if error.errno == errno.EXDEV:
        reason += (" (the output folder and its parent, where the build is staged, are on "
                   "different filesystems: build into a folder inside it)")
    return OutputError(f"cannot {what} {path}: {reason}; the previous output is unchanged")


# Unchanged files handed to the writer process per frame: one frame each cost the build a
# system call per file (1.9 s of 21,000 links at 10,000 records).
_LINK_BATCH = 1024


class Output:
    """A build's output, staged beside `target` until `commit()`.

    Use as a context manager: leaving the block without `commit()` (an exception, a
    failed check) discards the staging folder and leaves `target` untouched.
    """

    def __init__(self, target: Path, spare: Path | None = None) -> None:
        self.target = Path(os.path.abspath(target))
        self.stage, self.backup, self.journal = siblings(self.target, os.getpid())
        self.written: set[str] = set()
        self.changed = 0
        self.unchanged = 0
        self.removed = 0
        self._spare = spare  # where to keep the old site after an exchange (spare.py)
        self._reuse = False  # staging in the spare site, brought up to date in place
        self._stager: Stager
        self._staged: list[str] = []
        self._committed = False
        # No previous output to compare with (a first or cold build): nothing is unchanged.
        self._fresh = False
        # How commit() puts the new site in place, and why not by exchange (--verbose).
        self.method = "journal"
        self.why_not_exchange: str | None = None
        self._exchange = False
        # Unchanged files to link into the staged site, handed over in batches once
        # something has changed (and only then: a build that changes nothing writes nothing).
        self._unlinked: list[str] = []
        self._changed_any = False
        # Files made of pieces: where this build laid each out, and where the last did.
        self.layouts: dict[str, Layout] = {}
        self._layouts_before: Mapping[str, Layout] = {}
        self._unchanged: Callable[[str], bool] = lambda record_id: False
        # Each folder of the committed site as its fingerprint takes it, where the commit
        # walked it anyway (the spare's prune); None otherwise.
        self.listings: dict[str, str] | None = None

    def __enter__(self) -> Output:
        """Undo any commit a killed build left unfinished, choose how to commit, then create
        the staging folder (or take up the spare site). Raises OutputError when that cannot
        be done."""
        try:
            self.target.parent.mkdir(parents=True, exist_ok=True)
            recover(self.target)
            self._fresh = not self.target.exists()
            if not self._fresh and (self.target.is_symlink() or not self.target.is_dir()):
                raise OutputError(f"{self.target} exists and is not a folder; not "
                                  "replacing it")
            if not self._fresh:
                self._choose_commit()
            if self._reuse:
                if os.path.lexists(self.stage) and not self.stage.is_dir():
                    spare.clear(self.stage)
                self.stage.mkdir(exist_ok=True)
            else:
                self.stage.mkdir()
        except JournalError as error:
            raise OutputError(str(error)) from None
        except OSError as error:
            raise refused(error, "create") from None
        if not self._fresh and self.stage.stat().st_dev != self.target.stat().st_dev:
            shutil.rmtree(self.stage, ignore_errors=True)
            raise refused(OSError(errno.EXDEV, os.strerror(errno.EXDEV), str(self.target)),
                          "build into")
        self._stager = Stager(self.stage, self._reuse)
        return self

    @property
    def reuses_spare(self) -> bool:
        """True when the build stages in the spare site (and keeps the old one as the next)."""
        return self._reuse

    def _choose_commit(self) -> None:
        """Exchange where the file system can (in the spare site, when there is one on the
        output's file system), else the journal."""
        self.why_not_exchange = unavailable(self.target, self.stage, self.backup)
        self._exchange = self.why_not_exchange is None
        self.method = "exchange" if self._exchange else "journal"
        if self._exchange and self._spare is not None:
            self._spare.parent.mkdir(parents=True, exist_ok=True)
            if self._spare.parent.stat().st_dev == self.target.stat().st_dev:
                self.stage, self._reuse = self._spare, True

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if not self._committed:
            self.discard()

    # ---- writing --------------------------------------------------------------------------

    def exists(self, rel: str) -> bool:
        """True when this build has already written `rel`."""
        return rel in self.written

    def write(self, rel: str, data: str | bytes | Iterable[bytes]) -> None:
        """Stage the file `rel` (a POSIX path relative to the site root) with `data`: str
        (written as UTF-8), bytes, or an iterable of bytes chunks for a file too large to
        hold in memory at once. Raises ValueError for a path outside the site or one
        written twice."""
        if isinstance(data, Pieces):
            self._write_pieces(rel, data)
            return
        if not isinstance(data, (str, bytes)):
            self._write_chunks(rel, data)
            return
        content = data.encode("utf-8") if isinstance(data, str) else data
        self._claim(rel)
        if not self._fresh and same_bytes(self.target / rel, content):
            self._same(rel)
            return
        self._changes()
        self._staged.append(rel)
        self.changed += 1
        try:
            self._stager.write(rel, content)  # created by the writer process
        except StagingFailed as failed:
            raise self._refused(failed.error, failed.rel) from None

    def splice_from(self, layouts: Mapping[str, Layout], unchanged: Callable[[str], bool]) -> None:
        """Where the previous output's files made of pieces lay them out, and which records
        are `unchanged` since: their pieces are copied from there (pieces.py)."""
        self._layouts_before, self._unchanged = layouts, unchanged

    def _write_pieces(self, rel: str, file: Pieces) -> None:
        before = self._layouts_before.get(rel)
        if not before or self._fresh:  # nothing known to copy: compare while writing
            layout: Layout = {}  # filled as the pieces are made
            self.layouts[rel] = layout
            self._write_chunks(rel, laid_out(file, layout))
            return
        self._claim(rel)
        staged = self._stage(rel)
        try:
            spliced = splice_file(file, str(staged), str(self.target / rel), before,
                                  self._unchanged)
        except OSError as error:
            raise self._refused(error, rel) from None
        self.layouts[rel] = spliced.layout
        self._staged_or_same(rel, staged, spliced.same)

    def _staged_or_same(self, rel: str, staged: Path, same: bool) -> None:
        """A file written by this thread at `staged`: dropped again when `same` as the old."""
        if same:
            staged.unlink()
            self._staged.pop()
            self.changed -= 1
            self._same(rel)
        else:
            self._changes()

    def _write_chunks(self, rel: str, chunks: Iterable[bytes]) -> None:
        self._claim(rel)
        staged = self._stage(rel)
        try:
            previous = open(self.target / rel, "rb")  # noqa: SIM115 - closed below
        except OSError:
            previous = None
        same = previous is not None
        try:
            with open(staged, "wb") as stream:
                for chunk in chunks:
                    stream.write(chunk)
                    same = same and previous.read(len(chunk)) == chunk  # type: ignore[union-attr]
            same = same and previous.read(1) == b""  # type: ignore[union-attr]
        except OSError as error:
            raise self._refused(error, rel) from None
        finally:
            if previous is not None:
                previous.close()
        self._staged_or_same(rel, staged, same)

    def copy(self, rel: str, source: Path) -> None:
        """Stage the file `rel` as a copy of `source`. Raises ValueError as `write` does and
        OSError when `source` cannot be read."""
        self._claim(rel)
        if not self._fresh and same_file_bytes(self.target / rel, source):
            self._same(rel)
            return
        self._changes()
        staged = self._stage(rel)
        try:
            shutil.copyfile(source, staged)
        except OSError as error:
            if error.filename is not None and Path(error.filename) == source:
                raise
            raise self._refused(error, rel) from None

    def keep(self, rel: str) -> None:
        """Keep the file `rel` of the previous output as it is, unread: an incremental build
        knows it would write the same bytes. Raises ValueError as `write` does."""
        self._claim(rel)
        self._same(rel)

    def _same(self, rel: str) -> None:
        """`rel` is unchanged: in the staged site (exchange) it is the old file, linked."""
        self.unchanged += 1
        if self._exchange:
            self._unlinked.append(rel)
            if self._changed_any and len(self._unlinked) >= _LINK_BATCH:
                self._link_unlinked()

    def _changes(self) -> None:
        """The build changes something: unchanged files are linked from now on."""
        self._changed_any = True
        if len(self._unlinked) >= _LINK_BATCH:
            self._link_unlinked()

    def _link_unlinked(self) -> None:
        unlinked, self._unlinked = self._unlinked, []
        try:
            self._stager.link_all(unlinked, self.target)
        except StagingFailed as failed:
            raise self._refused(failed.error, failed.rel) from None

    def _refused(self, error: OSError, rel: str) -> OutputError:
        """A refusal to stage `rel`, named as the output file it was staged for."""
        return refused(OSError(error.errno, error.strerror, str(self.target / rel)))

    def _claim(self, rel: str) -> None:
        clean = posixpath.normpath(rel)
        if (not rel or rel != clean or clean.startswith(("/", "../")) or clean == ".."
                or "\\" in rel or clean == "."):
            raise ValueError(f"not a file path inside the site: {rel!r}")
        if rel in self.written:
            raise ValueError(f"{rel} is written twice in one build")
        self.written.add(rel)

    def _stage(self, rel: str) -> Path:
        """The staged path of a file written in this thread, its folder created (after every
        file handed to the writer process) and, in a spare site, nothing left at the path."""
        self._staged.append(rel)
        self.changed += 1
        try:
            self._stager.make_folder(posixpath.dirname(rel))
            if self._reuse:
                spare.clear(self.stage / rel)
        except StagingFailed as failed:
            raise self._refused(failed.error, failed.rel) from None
        except OSError as error:
            raise self._refused(error, rel) from None
        return self.stage / rel

    # ---- finishing --------------------------------------------------------------------------

    def commit(self) -> None:
        """Move the staged files into the output folder and delete the files this build did
        not write, as one journaled change. Raises OutputError when the output path is not a
        folder or the file system refuses a step; every step taken is then undone, so the
        output is the previous one."""
        if self._committed:
            return
        if self._exchange and not self._fresh:
            self._commit_exchange()
            return
        try:
            self._stager.flush()
        except StagingFailed as failed:
            raise self._refused(failed.error, failed.rel) from None
        finally:
            self._stager.close()
        if self._fresh:
            try:
                os.rename(self.stage, self.target)
            except OSError as error:
                raise refused(error, "create") from None
        elif not self.target.is_dir() or self.target.is_symlink():
            raise OutputError(f"{self.target} exists and is not a folder; not replacing it")
        else:
            self.removed = self._commit_changes()
        self._committed = True

    def _commit_exchange(self) -> None:
        """Exchange the staged site with the output, then delete the old one; nothing at all
        when no file changed. Falls back to the journal if the exchange is refused now."""
        try:
            stale, _ = stale_files(self.target, self.written)
        except OSError as error:
            raise refused(error, "read") from None
        try:
            if (self._staged or stale) and self._unlinked:
                self._link_unlinked()
            self._stager.flush()
        except StagingFailed as failed:
            raise self._refused(failed.error, failed.rel) from None
        finally:
            self._stager.close()
        self._committed = True
        if not self._staged and not stale:
            self.discard()
            self.method = "unchanged"
            return
        try:
            if self._reuse:  # what the spare held from before
                self.listings = spare.prune(self.stage, self.written)
            exchange(self.stage, self.target)
        except OSError as error:  # refused after the probe allowed it: take the journal
            if self._reuse:
                raise refused(error) from None
            self.method, self.why_not_exchange = "journal", f"exchange refused: {error}"
            self.removed = self._commit_changes()
            return
        if not self._reuse:  # else the old site is the next build's spare
            shutil.rmtree(self.stage, ignore_errors=True)
        self.removed = len(stale)

    def _commit_changes(self) -> int:
        """The journaled commit into an existing output; returns how many files it deleted."""
        try:
            stale, folders = stale_files(self.target, self.written)
        except OSError as error:
            raise refused(error, "read") from None
        if not self._staged and not stale:
            shutil.rmtree(self.stage, ignore_errors=True)  # nothing to change: no journal
            self.method = "unchanged"
            return 0
        try:
            step = Commit(self.target, self.stage, self.backup, self.journal)
        except OSError as error:
            raise refused(error, "create") from None
        try:
            apply_commit(step, self._staged, stale, folders)
        except JournalError:
            raise
        except OSError as error:
            raise refused(error) from None
        return len(stale)

    def discard(self) -> None:
        """Remove the staging folder (a spare site is kept: the next build mends it); the
        output folder is left as it was."""
        self._stager.close(drop=True)
        if not self._reuse:
            shutil.rmtree(self.stage, ignore_errors=True)

