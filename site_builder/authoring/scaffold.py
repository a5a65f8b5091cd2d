"""`site-builder init`: a new archive that `check` accepts, ready for people and agents."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from site_builder.authoring.action_ref import action_ref
from site_builder.authoring.gitlab import CI_FILES, gitlab_ci
from site_builder.authoring.origin import HOME, Install, running_install
from site_builder.config.site import CONFIG_FILE
from site_builder.errors import SiteBuilderError

# Where `init` points people for every key of site.yml (generated from the key tables of config/).
REFERENCE_URL = f"{HOME}/blob/main/docs/site-yml.md"
# Folder names that say what the folder holds rather than whose it is: `init` names the
# archive after the folder above (`acme/decisions` → "Acme decisions").
_GENERIC_NAMES = frozenset({"adr", "adrs", "decisions", "decision-records", "docs", "records",
                            "rfcs", "architecture"})


class ScaffoldError(SiteBuilderError):
    """`init` refused; nothing was written."""


_SITE_YML = """\
# site-builder configuration; every key, its default and an example: {reference}
title: {title}
description: {description}
# url: https://decisions.example.org   # makes llms.txt, the feed and AGENTS.md absolute
base: /
content: content
output: _site
"""

_PROJECT_YML = """\
name: Architecture
description: Decisions that shape the system as a whole
owners: []
order: 1
"""

_FIRST_RECORD = """\
---
title: Record architecture decisions
status: accepted
date: {date}
description: We keep decision records in git as Markdown with YAML front matter.
authors: []
deciders: []
tags: [process]
---

## Context and Problem Statement

Decisions are made in meetings, chats and pull requests, and their reasons fade. New people,
and coding agents, cannot tell which decisions are still in force or why they were made.

## Considered Options

1. Keep decisions in a wiki
2. Keep decision records in the repository, next to the code they govern

## Decision Outcome

Chosen option: keep decision records in the repository. Each record is one Markdown file
under `content/<project>/<type>/NNNN-slug.md`, written with `site-builder new`, reviewed in a
pull request like code, and published with `site-builder build`.

## Consequences

- Good, because the history of a decision is the history of its file.
- Good, because people read the site and agents query `site-builder mcp`.
- Bad, because a decision made elsewhere must still be written down here.
"""

_AGENTS_MD = """\
# Decision records: instructions for coding agents

This repository keeps its architecture decisions as records under `content/`. Before you
change code, find out which decisions govern it.

- Ask the MCP server first, rather than reading every file: `site-builder mcp --root .`
  (configured in `.mcp.json`). Start with `list_projects` or `search_records`, and call
  `records_for_paths` with the files you are about to change.
- Trust only records whose `current` is true. A superseded record names its replacement
  in `supersededBy` and `currentRecord`.
- To propose a new decision, run `site-builder new PROJECT adr "Title"` and open a pull
  request; never edit an accepted record to change what was decided.
- Run `site-builder check` before you commit a record.
"""

_WORKFLOW = """\
name: decisions
on:
  push:
    branches: [__BRANCH__]
  pull_request:
permissions:
  contents: read
  pages: write
  id-token: write
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      # The whole history: records without a Date take the date git first added them.
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      # Kept between runs: what the last build read and made, and its output (site.yml's
      # `output`), so a push that changes one record rebuilds that record. Keyed by the tool
      # (the pin of the site-builder step below: change both together) and the archive's
      # files; a new key starts from the newest cache of the same tool.
      - uses: actions/cache@v4
        with:
          path: |
            .site-builder
            _site
          key: site-builder-${{ runner.os }}-__KEY__-${{ hashFiles(__FILES__) }}
          restore-keys: site-builder-${{ runner.os }}-__KEY__-
__ACTION__
      - uses: actions/upload-pages-artifact@v3
        with:
          path: ${{ steps.site.outputs.site-path }}
  deploy:
    if: github.ref == 'refs/heads/__BRANCH__'
    needs: build
    runs-on: ubuntu-latest
    environment:
      name: github-pages
      url: ${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4
"""

# The files a build reads, as hashFiles() patterns: a change to any makes a new cache key.
# Records by suffix, not under `content/`: an adopted archive keeps them where they were.
_ARCHIVE_FILES = "'**/site.yml', '**/_project.yml', '**/*.md', 'templates/**', 'theme/**'"

_GITIGNORE = "_site/\n.site-builder/\n"


def archive_name(folder: Path) -> str:
    """What a new archive in `folder` (an absolute path) is named after: the folder's name
    in words, or its parent's when the folder's name is a generic one such as `decisions`."""
    name = folder.name
    if name.lower() in _GENERIC_NAMES and folder.parent.name:
        name = folder.parent.name
    words = name.replace("-", " ").replace("_", " ").strip() or "Our"
    return words[0].upper() + words[1:]


def workflow(install: Install, branch: str = "main") -> str:
    """The GitHub Actions workflow, running site-builder's action pinned as `install` says
    and publishing pushes to `branch` (the repository's default)."""
    ref = action_ref(install)
    lines = [f"# {line}" for line in install.comment]
    lines += [f"- uses: {ref.uses}", "  id: site"]
    if ref.version is not None:
        lines += ["  with:", f"    version: {json.dumps(ref.version)}"]
    return (_WORKFLOW.replace("__ACTION__", "\n".join(f"      {line}" for line in lines))
            .replace("__KEY__", ref.key).replace("__FILES__", _ARCHIVE_FILES)
            .replace("__BRANCH__", branch))


def ci_file(ci: str, install: Install, branch: str = "main") -> str:
    """The pipeline of the CI service `ci` (a key of CI_FILES), installing site-builder as
    `install` says and publishing `branch` (GitLab's knows its default branch itself)."""
    return gitlab_ci(install) if ci == "gitlab" else workflow(install, branch)


def scaffold_files(name: str, today: dt.date, install: Install | None = None,
                   branch: str = "main", ci: str = "github") -> dict[str, str]:
    """The files of a new archive named `name`, by path relative to its folder; the
    pipeline for `ci` (a key of CI_FILES) installs site-builder as `install` says
    (default: as this copy was) and publishes pushes to `branch`."""
    title = name if "decision" in name.lower() else f"{name} decisions"
    mcp = {"mcpServers": {"decisions": {"command": "site-builder",
                                        "args": ["mcp", "--root", "."]}}}
    return {
        CONFIG_FILE: _SITE_YML.format(reference=REFERENCE_URL, title=json.dumps(title),
                                      description=json.dumps(f"Architecture decisions of {name}")),
        "content/architecture/_project.yml": _PROJECT_YML,
        "content/architecture/adr/0001-record-architecture-decisions.md":
            _FIRST_RECORD.format(date=today.isoformat()),
        "AGENTS.md": _AGENTS_MD,
        ".mcp.json": json.dumps(mcp, indent=2) + "\n",
        CI_FILES[ci]: ci_file(ci, install or running_install(), branch),
        ".gitignore": _GITIGNORE,
    }


def init_archive(folder: Path, today: dt.date | None = None, ci: str = "github") -> list[Path]:
    """Create a new archive in `folder`, with the pipeline of `ci` (a key of CI_FILES), and
    return the files written.

    Raises ScaffoldError when `folder` already holds an archive or any file it would write;
    in that case nothing is written.
    """
    folder = folder.resolve()
    files = scaffold_files(archive_name(folder), today or dt.date.today(), ci=ci)
    if folder.exists() and not folder.is_dir():
        raise ScaffoldError(f"{folder} is a file, not a folder; nothing was written")
    if (folder / CONFIG_FILE).exists():
        raise ScaffoldError(f"{folder / CONFIG_FILE} already exists: {folder} is an archive "
                            "already; nothing was written")
    clashes = [rel for rel in files if (folder / rel).exists() and rel != ".gitignore"]
    if clashes:
        raise ScaffoldError(f"{folder / clashes[0]} already exists; nothing was written")
    written = []
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if rel == ".gitignore" and path.exists():
            existing = path.read_text(encoding="utf-8")
            missing = [line for line in text.splitlines() if line not in existing.splitlines()]
            if not missing:
                continue
            text = existing.rstrip("\n") + "\n" + "\n".join(missing) + "\n"
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
