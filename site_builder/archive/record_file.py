"""One record file read for the loader: parsed, its bytes digested, its own problems found.

A parse is kept (loader_cache.py) with the digest of the bytes it was made from, so that a
file whose mtime moved but whose bytes did not, as every file of a fresh checkout in CI,
takes its kept parse again (`restamped`): reading and digesting a file costs a fiftieth of
parsing it. The problems a record has on its own (the template's placeholder text left in)
are found here and kept with the parse, so the checks across records never read a body.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from site_builder.archive.body_files import decoded, file_digest
from site_builder.archive.checks import placeholders
from site_builder.archive.loader_cache import Parsed
from site_builder.archive.records import Record, RecordContext, parse_record
from site_builder.base.confined import MAX_RECORD_BYTES, Refused, read_regular
from site_builder.base.findings import Finding

__all__ = ["parse_file", "restamped"]


def parse_file(path: Path, ctx: RecordContext,
                ) -> tuple[Record | None, list[Finding], bytes]:
    """Read and parse one record file (line ends become `\\n` as in text mode); the digest of
    its bytes last (b"" when unread)."""
    try:  # bytes, then decode: cheaper than a text stream
        data = read_regular(path, MAX_RECORD_BYTES)
    except Refused as exc:
        return None, [Finding(path, 1, "error", f"'{path.name}' {exc.reason}")], b""
    digest = file_digest(data)
    try:
        text = decoded(data)
    except UnicodeDecodeError as exc:
        return None, [Finding(path, 1, "error", f"not UTF-8 text ({exc.reason})")], digest
    record, findings = parse_record(text, ctx)
    if record is not None:  # a record's own problems, kept with its parse
        findings = [*findings, *placeholders(record, record.body_text)]
    return record, findings, digest


def restamped(parsed: Parsed, key: str, stamp: tuple[int, int]) -> Parsed:
    """`parsed` with `stamp` when the file at `key` still holds the bytes it was parsed from
    (a fresh checkout, as in CI, gives every file a new mtime), else `parsed` itself."""
    if not parsed.digest:
        return parsed
    try:
        data = read_regular(key, MAX_RECORD_BYTES)
    except (Refused, OSError):
        return parsed
    if file_digest(data) != parsed.digest:
        return parsed
    record = parsed.record
    if record is not None and record.body_file is not None:
        record = replace(record, body_file=replace(record.body_file, stamp=stamp))
    return Parsed(stamp, parsed.context, record, parsed.findings, parsed.digest)
