"""Bearer tokens for the HTTP server: from a file (--token-file) and from the environment.

A token is what RFC 6750 allows in a header (letters, digits, `-._~+/`, trailing `=`), so a
stray space or quote in the file is reported with its line instead of locking every client
out silently.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

TOKENS_VARIABLE = "SITE_BUILDER_MCP_TOKENS"
_TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]+=*")


def read_tokens(file: str | None) -> frozenset[str]:
    """The bearer tokens of `file` (one a line; blank lines and # comments skipped) and of
    SITE_BUILDER_MCP_TOKENS (comma-separated). Raises ValueError naming what is wrong."""
    found: set[str] = set()
    if file is not None:
        try:
            lines = Path(file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read the token file {file}: {exc}") from None
        for number, line in enumerate(lines, 1):
            token = line.strip()
            if token and not token.startswith("#"):
                if not _TOKEN.fullmatch(token):
                    raise ValueError(f"{file}:{number}: a token is letters, digits and "
                                     "-._~+/ only")
                found.add(token)
        if not found:
            raise ValueError(f"{file} holds no token")
    for token in os.environ.get(TOKENS_VARIABLE, "").split(","):
        if token.strip():
            if not _TOKEN.fullmatch(token.strip()):
                raise ValueError(f"{TOKENS_VARIABLE}: a token is letters, digits and "
                                 "-._~+/ only")
            found.add(token.strip())
    return frozenset(found)
