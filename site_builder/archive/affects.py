"""`affects` globs, matched the way .gitignore and CODEOWNERS match paths.

`*` and `?` never cross `/`; `**` spans folders; a pattern with no `/` (other than a trailing
one) matches a name at any depth; a leading `/` anchors at the repository root; a pattern that
matches a folder matches everything below it; `!pattern` excludes. A path matches when some
positive pattern matches it and no `!` pattern matches that same path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


def _translate(glob: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(glob):
        ch = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            end = glob.find("]", i + 1)
            if end == -1:
                out.append(re.escape(ch))
            else:
                body = glob[i + 1:end].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


@lru_cache(maxsize=4096)
def compile_glob(pattern: str) -> re.Pattern[str]:
    """A regex matching a repo-relative POSIX path (or any folder above it) against `pattern`."""
    glob = pattern.rstrip("/") if pattern not in ("/", "") else pattern
    if glob.startswith("./"):
        glob = "/" + normalise_path(glob)  # `./x` means x at the root, as `/x` does
    anchored = glob.startswith("/") or "/" in glob
    glob = glob.lstrip("/")
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(f"^{prefix}{_translate(glob)}(?:/.*)?$")


def normalise_path(path: str) -> str:
    """A repo-relative POSIX path without a leading `./` or `/`."""
    path = path.replace("\\", "/").strip()
    while path.startswith("./"):
        path = path[2:]
    return path.lstrip("/")


@dataclass(frozen=True, slots=True)
class Affects:
    """The compiled `affects` list of one record."""

    patterns: tuple[str, ...]

    def matches(self, path: str) -> bool:
        """True when a positive pattern matches `path` and no `!` pattern matches it."""
        path = normalise_path(path)
        if not path:
            return False
        hit = False
        for pattern in self.patterns:
            if pattern.startswith("!"):
                if compile_glob(pattern[1:]).match(path):
                    return False
            elif not hit and compile_glob(pattern).match(path):
                hit = True
        return hit
