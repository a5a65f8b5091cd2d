"""Rendered bodies on disk: one SQLite database under `<root>/.site-builder/cache/`
(BUILD-ADR-0022).

One database rather than a file per body: creating a file is the costliest thing a cold build
asks of the file system, and a file per body added 10,000 to the 20,000 files a cold build of
10,000 records must create anyway (its pages and `.md` copies), for seconds of system time.
SQLite keeps the entries in one file, reads them back by key, and lets a `serve` and a `build`
of the same archive use the cache at once (write-ahead log: readers never wait for the writer).

The processes that render bodies add them (a build's workers, or the build itself when it
renders in one process): each stores a batch of work once it is rendered, in one transaction,
so a concurrent writer never waits long, and a body is in the database before the build asks
for it back. The HTML is kept as it is, beside a small JSON of its headings and assets:
escaping 170 MB of HTML into JSON cost a 10,000-record build 2 s. The cache is disposable:
an unreadable database is replaced by an empty one.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import threading
from pathlib import Path

from site_builder.archive.records import Record
from site_builder.render.markdown.headings import TocEntry
from site_builder.render.markdown.to_html import RenderedBody

DATABASE = "bodies.sqlite"
# Entries added before the transaction is committed: bounds how long another process waits.
COMMIT_EVERY = 256
_TABLE = "rendered"
_SCHEMA = (f"CREATE TABLE IF NOT EXISTS {_TABLE} "
           "(key TEXT PRIMARY KEY, html TEXT NOT NULL, meta TEXT NOT NULL)")
# The table of earlier versions (the whole entry as JSON): dropped when found.
_OLD_TABLE = "bodies"


class BodyCache:
    """Rendered bodies by cache key, in `folder/bodies.sqlite`. Safe to share between the
    threads of one process; open in each process that uses it (it does not pickle)."""

    def __init__(self, folder: Path, environment: str) -> None:
        self.folder = folder
        self.environment = environment
        self.path = folder / DATABASE
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._keys: set[str] | None = None
        self._added = 0

    def key(self, record: Record, body: str | bytes,
            signature: tuple[tuple[str, str], ...]) -> str:
        """The cache key of `record`'s rendered body given how its links resolve: `body` is
        its text, or its digest (`body_files.body_digest`)."""
        digest = hashlib.sha256(self.environment.encode())
        digest.update(f"\0{record.id}\0{signature!r}\0".encode())
        if isinstance(body, bytes):
            digest.update(b"\0digest\0" + body)
        else:
            digest.update(body.encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def has(self, key: str) -> bool:
        """True when an entry for `key` is stored."""
        with self._lock:
            return key in self._known()

    def load(self, key: str) -> RenderedBody | None:
        """The stored body, or None when there is none or it cannot be read."""
        with self._lock:
            try:
                row = self._connection().execute(
                    f"SELECT html, meta FROM {_TABLE} WHERE key = ?", (key,)).fetchone()
                if row is None:
                    return None
                meta = json.loads(row[1])
                return RenderedBody(row[0], tuple(TocEntry(*t) for t in meta["toc"]),
                                    tuple(meta["assets"]))
            except (sqlite3.Error, ValueError, KeyError, TypeError):
                return None

    def store(self, key: str, body: RenderedBody) -> None:
        """Add one entry; it is committed within COMMIT_EVERY entries, or by `commit()`."""
        with self._lock:
            self._insert([(key, body)])
            if self._added >= COMMIT_EVERY:
                self._commit()

    def store_all(self, entries: list[tuple[str, RenderedBody]]) -> None:
        """Add the entries and commit them, in one short transaction: a worker renders its
        batch first and stores it after, so that it holds the database's write lock for
        milliseconds, not for as long as rendering takes (SQLite lets one process write at a
        time; the other workers would sleep in its busy handler meanwhile)."""
        with self._lock:
            self._insert(entries)
            self._commit()

    def commit(self) -> None:
        """Make every entry added so far visible to other processes."""
        with self._lock:
            self._commit()

    def prune(self, keep: set[str]) -> int:
        """Delete entries not in `keep` (bodies since edited or deleted), and the files of
        the one-file-per-body cache earlier versions kept beside the database; returns how
        many entries."""
        _remove_file_cache(self.folder)
        with self._lock:
            stale = [(key,) for key in self._known() - keep]
            if stale:
                self._connection().executemany(f"DELETE FROM {_TABLE} WHERE key = ?", stale)
                self._known().difference_update(key for key, in stale)
            self._commit()
            return len(stale)

    def close(self) -> None:
        """Commit and close the database (it opens again when used)."""
        with self._lock:
            if self._db is not None:
                self._commit()
                self._db.close()
                self._db = None
                self._keys = None

    # ---- the database, under the lock -------------------------------------------------------

    def _insert(self, entries: list[tuple[str, RenderedBody]]) -> None:
        rows = [(key, body.html,
                 json.dumps({"toc": [[t.level, t.anchor, t.title] for t in body.toc],
                             "assets": list(body.assets)}, ensure_ascii=False))
                for key, body in entries]
        self._connection().executemany(
            f"INSERT OR REPLACE INTO {_TABLE} (key, html, meta) VALUES (?, ?, ?)", rows)
        if self._keys is not None:  # a worker that only adds never reads them all
            self._keys.update(key for key, _ in entries)
        self._added += len(entries)

    def _commit(self) -> None:
        if self._db is not None and self._db.in_transaction:
            self._db.commit()
        self._added = 0

    def _known(self) -> set[str]:
        if self._keys is None:
            rows = self._connection().execute(f"SELECT key FROM {_TABLE}")
            self._keys = {key for key, in rows}
        return self._keys

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            try:
                self._db = _open(self.path)
            except sqlite3.DatabaseError:  # not a database (any more): the cache is disposable
                for leftover in self.folder.glob(f"{DATABASE}*"):
                    leftover.unlink()
                self._db = _open(self.path)
        return self._db

    def __getstate__(self) -> dict[str, object]:
        raise TypeError("a BodyCache is opened by each process that uses it, not sent to one")


def _open(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=30, check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        # A cache: losing the last entries to a power cut is fine, waiting for the disk is not.
        db.execute("PRAGMA synchronous=OFF")
        db.execute(f"DROP TABLE IF EXISTS {_OLD_TABLE}")
        db.execute(_SCHEMA)
        db.commit()
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


def _remove_file_cache(folder: Path) -> None:
    """Delete the one-file-per-body cache earlier versions kept in `folder` (shard folders
    named by two hex digits), if it is there."""
    if not folder.is_dir():
        return
    for shard in folder.iterdir():
        if shard.is_dir() and len(shard.name) == 2:
            shutil.rmtree(shard, ignore_errors=True)
