"""Staged files created by a writer process of their own while the build goes on rendering
(BUILD-ADR-0029).

Creating a file is the build's main system cost: on the ext4 file systems measured here a new
inode takes 0.05–0.7 ms of kernel time (more right after a large folder was deleted), and a
build of 10,000 records creates about 30,000 of them (a folder and an `index.html` per page, a
`.md` copy per record, the search index). Handed to a thread of the build's own process, that
work stalled behind the interpreter lock: the thread needs the lock back after every system
call, and the build thread, rendering, gives it up only every 5 ms. With the build thread busy,
3,000 files and 1,500 folders took that thread 46–50 s instead of the 0.1–3.5 s the same calls
take alone; a separate process creates them in the time they take alone, on the other core.

The writer (`serve_forever`, in `python -I -S` with this package alone) reads frames from a
pipe, creates each file in the order handed over, each folder before its first file, and
answers only at a flush: with the first refusal (after which it creates nothing more) or with
"done". The refusal is raised, with the path it concerns, by the build thread's next call
(`write` checks without waiting, `flush` waits), so nothing is lost and nothing is half-said.
Where the writer cannot be started the build thread creates the files itself.
"""

from __future__ import annotations

import errno
import itertools
import json
import os
import posixpath
import select
import shutil
import struct
import subprocess
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import site_builder
from site_builder.errors import OutputError
from site_builder.render.lifeline import become_helper, starting_helpers
from site_builder.render.output import spare

# A frame: the kind, the length of the path, the length of the content; then both.
_HEADER = struct.Struct("!cII")
_FILE, _LINKS, _FLUSH = b"f", b"l", b"s"
_DONE = b"done\n"
# The pipe to the writer holds this much (where the system lets a pipe grow), and the build
# keeps at most BACKLOG_BYTES more that the pipe has not taken yet (a page is 10–40 KB).
PIPE_BYTES = 1 << 20
BACKLOG_BYTES = 16 << 20
_IOV_MAX = 512
_F_SETPIPE_SZ = 1031  # fcntl.F_SETPIPE_SZ (Linux), absent from Python 3.11's fcntl


class StagingFailed(OutputError):
    """A staged file or folder could not be created: `error` is the OSError, `rel` the path
    (relative to the staging folder) it was for."""

    def __init__(self, error: OSError, rel: str) -> None:
        super().__init__(str(error))
        self.error = error
        self.rel = rel


class Folders:
    """Creates the files of one staging folder, each folder (and its parents) before its
    first file. Used by the writer process, and by the build thread where there is none."""

    def __init__(self, root: Path, reuse: bool = False) -> None:
        self.root = root
        self.reuse = reuse
        """`root` is a spare site (spare.py): replace entries, never write into them."""
        self._made: set[str] = set()

    def make(self, rel: str) -> None:
        """Create the folder `rel` and its parents, once. Raises StagingFailed."""
        if not rel or rel in self._made:
            return
        try:
            if self.reuse:
                spare.make_folder(self.root, rel)
            else:
                (self.root / rel).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StagingFailed(error, rel) from None
        while rel and rel not in self._made:
            self._made.add(rel)
            rel = posixpath.dirname(rel)

    def create(self, rel: str, content: bytes) -> None:
        """Create the file `rel` with `content`, its folder first. Raises StagingFailed."""
        self.make(posixpath.dirname(rel))
        try:
            if self.reuse:
                spare.clear(self.root / rel)
            write_file(self.root / rel, content)
        except OSError as error:
            raise StagingFailed(error, rel) from None

    def link(self, rel: str, source: bytes) -> None:
        """Make the file `rel` a hard link to `source` (a path: a file of the previous
        output), its folder first; a copy with the same mtime where the file system has no
        hard links. Raises StagingFailed."""
        self.make(posixpath.dirname(rel))
        path, original = self.root / rel, Path(os.fsdecode(source))
        try:
            if self.reuse:
                if spare.linked(path, original):
                    return
                spare.clear(path)
            try:
                os.link(original, path, follow_symlinks=False)
            except OSError as error:
                if error.errno not in (errno.EPERM, errno.EMLINK, errno.EOPNOTSUPP):
                    raise
                shutil.copy2(original, path, follow_symlinks=False)
        except OSError as error:
            raise StagingFailed(error, rel) from None


class Stager:
    """Creates files under `root` in a writer process, started with the Stager."""

    def __init__(self, root: Path, reuse: bool = False) -> None:
        self.root = root
        self._folders = Folders(root, reuse)
        self._failure: StagingFailed | None = None
        self._writer = _start_writer(root, reuse)
        self._backlog = _Backlog()

    def write(self, rel: str, content: bytes) -> None:
        """Create the file `rel` with `content`, soon. Raises StagingFailed for an earlier
        file the writer could not create."""
        self._raise_said()
        if self._writer is None:
            self._here(self._folders.create, rel, content)
            return
        self._send(_FILE, rel, content)

    def link_all(self, rels: list[str], source: Path) -> None:
        """Make each file of `rels` a hard link to the file of that path under `source`,
        soon (`Folders.link`), in one frame. Raises StagingFailed as `write` does."""
        self._raise_said()
        if self._writer is None:
            for rel in rels:
                self._here(self._folders.link, rel, os.fsencode(source / rel))
            return
        self._send(_LINKS, os.fsdecode(source), "\0".join(rels).encode("utf-8", "surrogateescape"))

    def flush(self) -> None:
        """Wait until every file handed over exists. Raises StagingFailed as `write` does."""
        if self._writer is not None and self._failure is None:
            self._send(_FLUSH, "", b"")
            self._collect()
        self._raise()

    def make_folder(self, rel: str) -> None:
        """Create the folder `rel` (and its parents) now, in the caller's thread, without
        waiting for what was handed over: the writer may be making the same folders, and
        each side creates only those still missing. Waiting cost the build its lead at
        llms-full.txt (written here, in chunks, after every record's copy was handed over):
        0.3–0.5 s idle at 1,000 records. Raises StagingFailed for this folder, or for an
        earlier file the writer has refused by now (a later one is raised as `write` does)."""
        self._raise_said()
        self._here(self._folders.make, rel)

    def close(self, drop: bool = False) -> None:
        """Stop the writer once it has done what it holds (at once, dropping it, with
        `drop`)."""
        if drop and self._failure is None:
            self._failure = StagingFailed(OSError("the build was stopped"), "")
        writer, self._writer = self._writer, None
        if writer is None:
            return
        if drop:
            writer.kill()
        for stream in (writer.stdin, writer.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:  # a writer already gone: nothing was left to hand over
                pass
        writer.wait()

    def _raise(self) -> None:
        if self._failure is not None:
            raise self._failure

    def _raise_said(self) -> None:
        """Raise an earlier failure, or a refusal the writer has said by now, without
        waiting (before a flush asks, the writer only ever says a refusal)."""
        self._raise()
        if self._writer is not None and _answered(self._writer):
            self._collect()
            self._raise()

    def _here(self, make: Callable[..., None], *args: Any) -> None:
        """`make(*args)` in this thread (a `Folders` call); its refusal is kept, as the
        writer's would be."""
        try:
            make(*args)
        except StagingFailed as failed:
            self._failure = failed
            raise

    def _send(self, kind: bytes, rel: str, content: bytes) -> None:
        assert self._writer is not None
        path = rel.encode("utf-8", "surrogateescape")
        self._backlog.add(_HEADER.pack(kind, len(path), len(content)) + path, content)
        try:
            self._backlog.send(self._writer,
                               wait=kind == _FLUSH or self._backlog.size > BACKLOG_BYTES)
        except (BrokenPipeError, ValueError):
            self._collect()  # the writer's own refusal, when it said one before it stopped
            if self._failure is None:
                self._failure = _stopped(rel)
            raise self._failure from None

    def _collect(self) -> None:
        """Read the writer's answer: a refusal, or "done"."""
        assert self._writer is not None and self._writer.stdout is not None
        try:
            line = self._writer.stdout.readline()
        except OSError:
            line = b""
        if line == _DONE:
            return
        if self._failure is None:
            self._failure = _refusal(line) or _stopped("")


class _Backlog:
    """Frames handed over to one writer and not yet taken by its pipe.

    The pipe is written without waiting: what it does not take now waits here, and goes at
    the next file. So the build runs up to BACKLOG_BYTES ahead of the disk (not the pipe's
    1 MB) without a thread of its own, and the writer always has work while the build
    renders; past that, or at a flush, the build waits for the pipe."""

    def __init__(self) -> None:
        self.parts: deque[memoryview] = deque()
        self.size = 0

    def add(self, *parts: bytes) -> None:
        for part in parts:
            if part:
                self.parts.append(memoryview(part))
                self.size += len(part)

    def send(self, writer: subprocess.Popen[bytes], wait: bool) -> None:
        assert writer.stdin is not None
        fd = writer.stdin.fileno()
        parts = self.parts
        while parts:
            try:
                done = os.writev(fd, list(itertools.islice(parts, _IOV_MAX)))
            except BlockingIOError:
                if not wait:
                    return
                select.select([], [fd], [])
                continue
            self.size -= done
            while parts and done >= len(parts[0]):
                done -= len(parts.popleft())
            if done:
                parts[0] = parts[0][done:]


def _answered(writer: subprocess.Popen[bytes]) -> bool:
    assert writer.stdout is not None
    ready, _, _ = select.select([writer.stdout], [], [], 0)
    return bool(ready)


def _refusal(line: bytes) -> StagingFailed | None:
    try:
        said = json.loads(line)
        error = OSError(said["errno"], said["strerror"], said["filename"])
        return StagingFailed(error, said["rel"])
    except (ValueError, KeyError, TypeError):
        return None


def _stopped(rel: str) -> StagingFailed:
    return StagingFailed(OSError(errno.EPIPE, "the file writer process stopped (killed, or "
                                 "out of memory?)"), rel)


def _start_writer(root: Path, reuse: bool) -> subprocess.Popen[bytes] | None:
    """The writer process for `root`, or None where it cannot run (then the build thread
    creates the files). It runs without site-packages (`-S`): it needs only this package,
    found where this process found it, and starts in a few milliseconds."""
    if os.name != "posix":
        return None
    package = Path(site_builder.__file__).resolve().parent.parent
    code = (f"import sys; sys.path.insert(0, {str(package)!r}); "
            "from site_builder.render.output.staging import serve_forever; serve_forever()")
    try:
        with starting_helpers():
            writer = subprocess.Popen([sys.executable, "-I", "-S", "-c", code,
                                       os.fspath(root), str(os.getpid()), str(int(reuse))],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      bufsize=0, close_fds=True)
    except OSError:
        return None
    assert writer.stdin is not None
    _widen(writer.stdin)
    os.set_blocking(writer.stdin.fileno(), False)  # see _Backlog
    return writer


def _widen(pipe: IO[bytes]) -> None:
    try:
        import fcntl

        fcntl.fcntl(pipe.fileno(), _F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, OSError):  # another system, or a lower limit: the default pipe
        pass


def serve_forever() -> None:
    """The writer process: create the files framed on standard input under the folder named
    by the first argument, until the input ends; the second names the build's process (a
    writer whose build died before it started exits at once)."""
    become_helper(int(sys.argv[2]))
    folders = Folders(Path(sys.argv[1]), reuse=sys.argv[3] == "1")
    source = open(0, "rb", buffering=PIPE_BYTES)  # noqa: SIM115 - the process's own input
    answers = open(1, "wb", buffering=0)  # noqa: SIM115 - the process's own output
    failure: StagingFailed | None = None
    while True:
        header = source.read(_HEADER.size)
        if len(header) < _HEADER.size:
            return  # the build is done with this writer (or gone)
        kind, path_length, content_length = _HEADER.unpack(header)
        rel = source.read(path_length).decode("utf-8", "surrogateescape")
        content = source.read(content_length)
        if len(content) < content_length:
            return
        try:
            if kind == _FLUSH:
                answers.write(_DONE if failure is None else _said(failure))
            elif failure is None:
                try:
                    if kind == _LINKS:
                        for name in content.decode("utf-8", "surrogateescape").split("\0"):
                            folders.link(name, os.fsencode(os.path.join(rel, name)))
                    else:
                        folders.create(rel, content)
                except StagingFailed as failed:
                    failure = failed
                    answers.write(_said(failure))  # seen by the build's next write
        except BrokenPipeError:
            # The build stopped listening (it gave up on a full disk, or died): nobody is
            # left to tell, and the build says what happened itself.
            return


def _said(failure: StagingFailed) -> bytes:
    error = failure.error
    return json.dumps({"errno": error.errno, "strerror": error.strerror,
                       "filename": error.filename, "rel": failure.rel}).encode() + b"\n"


def write_file(path: Path, content: bytes) -> None:
    """Create or replace the file `path` with `content`.

    With the os module's calls rather than `Path.write_bytes`: a build writes tens of
    thousands of files, and a Python file object costs three more system calls each
    (terminal check, seek, stat) that a whole file written at once never needs.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0),
                 0o666)
    try:
        view = memoryview(content)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)
