"""The versions of the installed distributions, as the build's caches and stamp record them."""

from __future__ import annotations

import os
import re
import sys
from functools import cache

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
