"""The commit journal: every change `Output.commit` makes to an existing output folder is
written down before it is made, so that it can be undone after a failure or a `kill -9`.

A commit of `_site` by process 123 uses three siblings of `_site`:

- `_site.tmp-123/`: the staged files, each renamed into `_site` in turn;
- `_site.old-123/`: the old files the commit replaces or removes, kept (as hard links or
  renamed) until the commit is over;
- `_site.journal-123`: one line per step, appended just *before* the step is taken.

The journal is locked (`flock`) by the process committing. Deleting it is the commit point:
until then every step can be undone, and the next build that finds a journal nobody holds
undoes it (`recover`) before it does anything else, so `_site` is the whole old site again.
Undoing checks the folders' state rather than trusting that a logged step happened, so it is
correct wherever the process stopped, also when an undo itself was interrupted.

This protects against a process that stops (killed, crashed, out of memory), not against
power loss: nothing is fsynced, because syncing every staged file would cost more than the
build (build/adr/0025).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path

from site_builder.errors import OutputError
from site_builder.render.output import tree

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; a journal is then always taken as abandoned
    fcntl = None  # type: ignore[assignment]

STAGING = ".tmp-"
BACKUP = ".old-"
JOURNAL = ".journal-"

# The steps, each undone by `_undo`:
#   link  old file hard-linked into the backup (it is about to be replaced in place)
#   move  old file, link or folder renamed into the backup (it is in the way, or stale)
#   place staged file renamed into the output
#   mkdir folder created in the output
#   rmdir emptied folder removed from the output
_STEPS = ("link", "move", "place", "mkdir", "rmdir")


class JournalError(OutputError):
    """A commit could not be undone; the message names the path and says what to do."""


def siblings(target: Path, pid: int) -> tuple[Path, Path, Path]:
    """The staging folder, backup folder and journal of `pid`'s commit into `target`."""
    return (target.with_name(f"{target.name}{STAGING}{pid}"),
            target.with_name(f"{target.name}{BACKUP}{pid}"),
            target.with_name(f"{target.name}{JOURNAL}{pid}"))


class Commit:
    """The changes of one commit into `target`, each logged before it is made.

    Every method raises OSError when the file system refuses the step; `rollback()` then
    puts the old output back. `finish()` is the commit point."""

    def __init__(self, target: Path, stage: Path, backup: Path, journal: Path) -> None:
        self.target, self.stage, self.backup, self.journal = target, stage, backup, journal
        self.saved: set[str] = set()
        self._backup_folders: set[str] = set()
        self._fd = os.open(journal, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
        if fcntl is not None:
            fcntl.flock(self._fd, fcntl.LOCK_EX)

    def _log(self, step: str, rel: str) -> None:
        os.write(self._fd, (json.dumps([step, rel]) + "\n").encode("utf-8"))

    def save(self, rel: str, *, keep: bool = False) -> None:
        """Put the old `target/rel` into the backup: hard-linked when `keep` (a file the next
        step replaces in place, so that readers never find it missing), else renamed."""
        folder = rel.rpartition("/")[0]
        with _naming(self.target / rel):
            if folder not in self._backup_folders:
                (self.backup / folder).mkdir(parents=True, exist_ok=True)
                self._backup_folders.add(folder)
            self._log("link" if keep else "move", rel)
            if keep:
                os.link(self.target / rel, self.backup / rel)  # a regular file
            else:
                os.rename(self.target / rel, self.backup / rel)
        self.saved.add(rel)

    def place(self, rel: str) -> None:
        """Rename the staged `rel` into the output, replacing a file of that name."""
        with _naming(self.target / rel):
            self._log("place", rel)
            os.replace(self.stage / rel, self.target / rel)

    def mkdir(self, rel: str) -> None:
        """Create the folder `target/rel`."""
        with _naming(self.target / rel):
            self._log("mkdir", rel)
            os.mkdir(self.target / rel)

    def rmdir(self, rel: str) -> bool:
        """Remove the folder `target/rel` if it is empty; returns whether it was removed."""
        with _naming(self.target / rel):
            self._log("rmdir", rel)
            try:
                os.rmdir(self.target / rel)
            except OSError as error:
                if error.errno in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOENT):
                    return False
                raise
        return True

    def finish(self) -> None:
        """The commit point: drop the journal, then the backup and staging folders."""
        os.unlink(self.journal)
        os.close(self._fd)
        self._fd = -1
        shutil.rmtree(self.backup, ignore_errors=True)
        shutil.rmtree(self.stage, ignore_errors=True)

    def rollback(self) -> None:
        """Undo every step taken; the output is the old one again. Raises JournalError when
        a step cannot be undone (the journal is then kept for the next build to retry)."""
        try:
            _undo_all(self.target, self.stage, self.backup, self.journal)
        finally:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1


@contextlib.contextmanager
def _naming(path: Path) -> Iterator[None]:
    """Re-raise an OSError as one naming `path`, the output path the step changes (not
    the staging or backup path the call may have named)."""
    try:
        yield
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(path)) from error


def recover(target: Path) -> int:
    """Undo every commit into `target` that a process left unfinished (it was killed, or
    its undo failed), then remove the staging and backup folders no process is using.
    Returns how many commits were undone; raises JournalError as `Commit.rollback` does."""
    undone = 0
    parent = target.parent
    if not parent.is_dir():
        return 0
    prefix = target.name
    for entry in sorted(parent.iterdir()):
        pid = _pid(entry.name, prefix, JOURNAL)
        if pid is None:
            continue
        fd = _hold_if_free(entry)
        if fd is None:
            continue
        try:
            stage, backup, journal = siblings(target, pid)
            _undo_all(target, stage, backup, journal)
        finally:
            os.close(fd)
        undone += 1
    for entry in parent.iterdir():
        for kind in (STAGING, BACKUP):
            pid = _pid(entry.name, prefix, kind)
            if (pid is not None and entry.is_dir() and (pid == os.getpid() or not _alive(pid))
                    and not siblings(target, pid)[2].exists()):
                shutil.rmtree(entry, ignore_errors=True)
    return undone


def _hold_if_free(journal: Path) -> int | None:
    """An open descriptor of `journal`, locked, when no other process holds its lock (its
    commit was abandoned); None when one does or the journal is gone."""
    try:
        fd = os.open(journal, os.O_RDONLY)
    except FileNotFoundError:
        return None
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
    return fd


def _undo_all(target: Path, stage: Path, backup: Path, journal: Path) -> None:
    try:
        with open(journal, "rb") as stream:
            text = stream.read()
    except FileNotFoundError:
        return
    lines = text.split(b"\n")[:-1]  # a last line without its newline was never acted on
    for line in reversed(lines):
        step, rel = json.loads(line)
        if step not in _STEPS or not isinstance(rel, str):
            raise JournalError(f"{journal}: not a site-builder journal; remove it and "
                               f"rebuild with --force")
        try:
            _undo(step, rel, target, stage, backup)
        except OSError as error:
            raise JournalError(
                f"cannot put back {target / rel} ({error.strerror}); the output may be "
                f"mixed until a build can undo {journal}") from None
    os.unlink(journal)
    shutil.rmtree(backup, ignore_errors=True)
    shutil.rmtree(stage, ignore_errors=True)


def _undo(step: str, rel: str, target: Path, stage: Path, backup: Path) -> None:
    """Undo one step if it was taken; do nothing if it was not (or is undone already)."""
    path = target / rel
    if step == "place":
        staged = stage / rel
        if not os.path.lexists(staged) and os.path.lexists(path):
            staged.parent.mkdir(parents=True, exist_ok=True)
            os.rename(path, staged)
    elif step in ("link", "move"):
        saved = backup / rel
        if not os.path.lexists(saved):
            return
        if step == "link" and os.path.lexists(path) and os.path.samestat(
                os.lstat(path), os.lstat(saved)):
            return  # never replaced: the old file is still in place
        if os.path.isdir(path) and not os.path.islink(path):
            os.rmdir(path)  # a folder this commit made, emptied by the steps undone before
        elif os.path.lexists(path) and os.path.isdir(saved) and not os.path.islink(saved):
            os.unlink(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        os.replace(saved, path)
    elif step == "mkdir":
        with contextlib.suppress(FileNotFoundError, NotADirectoryError):
            os.rmdir(path)
    elif step == "rmdir":
        path.mkdir(parents=True, exist_ok=True)


def _pid(name: str, prefix: str, kind: str) -> int | None:
    if not name.startswith(prefix + kind):
        return None
    rest = name[len(prefix) + len(kind):]
    return int(rest) if rest.isdigit() else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def move_into(step: Commit, rel: str, ready: set[str]) -> None:
    """Rename a staged file to `rel` in the output, moving whatever old file, link or folder
    is in the way into the backup (a page that became a folder, or the reverse). `ready`
    remembers the folders already checked."""
    target = step.target
    parts = rel.split("/")
    for depth in range(1, len(parts)):
        folder_rel = "/".join(parts[:depth])
        if folder_rel in ready:
            continue
        folder = target / folder_rel
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            step.save(folder_rel)  # never write through a link, or into an old file's name
        if not folder.is_dir():
            step.mkdir(folder_rel)
        ready.add(folder_rel)
    destination = target / rel
    if destination.is_symlink() or destination.is_dir():
        step.save(rel)
    elif destination.exists():
        step.save(rel, keep=True)  # replaced in place below: never missing for a reader
    step.place(rel)


def apply_commit(step: Commit, staged: Iterable[str], stale: Iterable[str],
                 folders: Iterable[str]) -> None:
    """Take every step of a commit and finish it: each `staged` file moved into place, each
    `stale` one saved away, each emptied folder (deepest first) removed. On any error, Ctrl-C
    too, every step taken is undone and the error raised again: the old site, not half of
    each. Raises JournalError when it cannot be undone."""
    try:
        ready: set[str] = set()
        for rel in staged:
            move_into(step, rel, ready)
        for rel in stale:
            if rel not in step.saved and os.path.lexists(step.target / rel):
                step.save(rel)
        for folder in folders:
            if os.path.isdir(step.target / folder):
                step.rmdir(folder)
    except BaseException as error:
        try:
            step.rollback()
        except JournalError as undo:
            raise JournalError(f"cannot write {getattr(error, 'filename', '?')}: "
                               f"{getattr(error, 'strerror', error)}; {undo}") from None
        raise
    step.finish()


def stale_files(target: Path, written: set[str]) -> tuple[list[str], list[str]]:
    """The files (and links) under `target` that are not in `written`, and the folders that
    may be empty once they are gone, deepest first."""
    stale: list[str] = []
    emptied: list[str] = []
    may_empty: set[str] = set()
    for here in tree.walk(str(target), bottom_up=True):  # children first
        gone = [here.inside(entry.name) for entry in here.files
                if here.inside(entry.name) not in written]
        stale.extend(gone)
        stale.extend(here.inside(name) for name in here.links)
        # May end up empty: every file goes and every subfolder may end up empty. Whether
        # it does (new files may arrive) is for rmdir to tell.
        if (here.rel and len(gone) == len(here.files)
                and all(here.inside(name) in may_empty for name in here.folders)):
            emptied.append(here.rel)
            may_empty.add(here.rel)
    return stale, emptied
