"""Which site-builder GitHub Action a scaffolded workflow `uses:`, from how `Install` pins.

The action (action.yml at the root of site-builder's repository) installs its own checkout,
so a pin to a commit of a repository on github.com becomes `uses: OWNER/REPO@COMMIT` and
nothing else is needed. Any other pin (a PyPI version, a git remote elsewhere, an archive URL)
uses the project's own repository at the release's tag and passes the pin as the action's
`version` input, so the workflow installs exactly what `Install` says and never a path of the
machine that ran `init` (`Install` never names one).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from urllib.parse import urlparse

from site_builder.authoring.origin import DISTRIBUTION, HOME, Install

# `site-builder @ git+https://github.com/OWNER/REPO(.git)@COMMIT(#subdirectory=PATH)`
_GITHUB_PIN = re.compile(
    rf"^{DISTRIBUTION} @ git\+https://github\.com/(?P<repo>[\w.-]+/[\w.-]+?)(?:\.git)?"
    r"@(?P<ref>[\w./-]+)(?:#subdirectory=(?P<sub>[\w./-]+))?$")


@dataclass(frozen=True, slots=True)
class ActionRef:
    """A `uses:` value, the `version` input to give it (None: the action's own checkout),
    and a short name of the pinned tool for cache keys."""

    uses: str
    version: str | None
    key: str


def action_ref(install: Install) -> ActionRef:
    """The action step for `install`: the pinned repository and commit when it is one on
    github.com, else the project's own action at tag `v<version>` given the pin as input."""
    pinned = _GITHUB_PIN.match(install.requirement)
    if pinned:
        path = pinned["repo"] + (f"/{pinned['sub'].strip('/')}" if pinned["sub"] else "")
        return ActionRef(f"{path}@{pinned['ref']}", None, pinned["ref"])
    home = urlparse(HOME).path.strip("/")
    tag = f"v{install.version}"
    if install.requirement == f"{DISTRIBUTION}=={install.version}":
        return ActionRef(f"{home}@{tag}", None, tag)
    # A requirement holds spaces, slashes and perhaps commas, which a cache key cannot.
    digest = hashlib.sha256(install.requirement.encode()).hexdigest()[:16]
    return ActionRef(f"{home}@{tag}", install.requirement, digest)
