"""The GitLab CI file `init --ci gitlab` writes: `check` on merge requests as a code-quality
report, and a `pages` job publishing the site to GitLab Pages from the default branch.

It installs site-builder as the GitHub workflow does (one `Install`, from `origin.py`), so it
never names a path of the machine that ran `init`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlparse

if TYPE_CHECKING:  # a type only: `init --help` reads CI_FILES without loading origin.py
    from site_builder.authoring.origin import Install

# Where GitLab looks for a repository's pipeline.
GITLAB_CI = ".gitlab-ci.yml"
# The CI services `init --ci` writes a pipeline for (its choices), and the file each reads.
CI_FILES = {"github": ".github/workflows/decisions.yml", "gitlab": GITLAB_CI}

_GITLAB_CI = """\
# site-builder: check decision records on merge requests, publish them with GitLab Pages.
variables:
  # The whole history: records without a Date take the date git first added them.
  GIT_DEPTH: 0
default:
  image: python:3.12
  before_script:
__INSTALL__
decisions-check:
  stage: test
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
  script:
    - site-builder check --format gitlab > gl-code-quality-report.json
  artifacts:
    when: always
    reports:
      codequality: gl-code-quality-report.json
# GitLab Pages serves the folder `public/`; if the site is served below a path
# (https://GROUP.gitlab.io/PROJECT/), set `base: /PROJECT/` in site.yml.
pages:
  stage: deploy
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
  # Kept between pipelines: what the last build read and made, and its output, so a push
  # that changes one record rebuilds that record.
  cache:
    key: site-builder-$CI_COMMIT_REF_SLUG
    paths:
      - .site-builder/
      - public/
  script:
    - site-builder build --output public
  artifacts:
    paths:
      - public
"""


def gitlab_ci(install: Install) -> str:
    """The `.gitlab-ci.yml` text, installing site-builder as `install` says. The default
    branch is GitLab's own (`$CI_DEFAULT_BRANCH`), so nothing else is asked."""
    comment = "".join(f"    # {line}\n" for line in install.comment)
    return _GITLAB_CI.replace("__INSTALL__", f"{comment}    - {install.pip_line()}")


def is_gitlab(remote: str | None) -> bool:
    """True when the https address `remote` (as `browse.origin_url` gives it) is on a GitLab
    host: gitlab.com, or a host whose name has a `gitlab` label (gitlab.acme.org)."""
    host = urlparse(remote).hostname if remote else None
    return bool(host) and "gitlab" in (host or "").split(".")
