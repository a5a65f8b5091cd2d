"""The versions of the installed distributions, as the build's caches and stamp record them,
and the machine's cache of what this copy of site-builder compiled."""

from __future__ import annotations

import hashlib
import os
import re
import sys
from functools import cache
from pathlib import Path

import site_builder

_DISTRIBUTION = re.compile(r"(?P<name>[^-]+)-(?P<version>[^-]+?)\.(?:dist|egg)-info")


def normal_name(name: str) -> str:
    """A distribution's name as packaging compares them (`pymdown-extensions` →
    `pymdown_extensions`)."""
    return re.sub(r"[-_.]+", "_", name).lower()


@cache
def installed_versions() -> dict[str, str]:
    """Normalised distribution name → version, for what is installed on `sys.path`, read
    from the names of the `<name>-<version>.dist-info` folders; the first on the path wins,
    as for imports. `importlib.metadata` says the same, but importing it costs every build
    13 ms (it loads the email package), more than listing these folders. Read once per
    process (the body cache key and the build stamp both ask): what this process runs is
    what was installed when it started. Callers must not change the mapping."""
    versions: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            found = _DISTRIBUTION.fullmatch(name)
            if found:
                versions.setdefault(normal_name(found["name"]), found["version"])
    return versions


def machine_cache(kind: str) -> Path:
    """The folder of the machine's cache holding `kind` (`templates`, `lexers`): in the
    user's cache folder (`$XDG_CACHE_HOME`, else `~/.cache`), one per site-builder version."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "site-builder" / site_builder.__version__ / kind


@cache
def code_digest() -> str:
    """A digest of this copy of site-builder's code: every module's path and bytes, so an
    edit to any of them, not only a new version, makes the caches that depend on it miss.
    Read once per process (some 10 ms)."""
    digest = hashlib.sha256()
    package = Path(site_builder.__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(f"{path.relative_to(package).as_posix()}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()
