"""`site-builder init --from DIR`: adopt a repository's decision folders without moving a file.

Takes the folders `adopt_folders` finds (or the ones named with `--folder`), and writes
`site.yml` with one `format` source per folder, plus the scaffold beside it: the pipeline
(GitHub's, or GitLab's for a repository on GitLab), a
server entry merged into `.mcp.json`, a section added to `AGENTS.md`. Every guess, and every
folder a configuration names in vain, is returned in words, to be printed.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.authoring.adopt_folders import Folder, find_folders
from site_builder.authoring.gitlab import CI_FILES, GITLAB_CI, is_gitlab
from site_builder.authoring.scaffold import ScaffoldError, scaffold_files
from site_builder.config.site import CONFIG_FILE
from site_builder.sources import browse

_SECTION_MARK = "<!-- site-builder: decision records -->"


@dataclass(slots=True)
class Adoption:
    """What `adopt` found, wrote and guessed, and the folders a configuration names in vain
    (`notes`). The files of those folders left out as no records are the archive's to say
    (`adopt_report.left_out`), read as `build` reads them."""

    folders: list[Folder] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    guesses: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def edit_url(repo: Path) -> str | None:
    """The "edit this page" template of the repository's `origin` on GitHub, or None."""
    url = browse.origin_url(repo)
    if url is None or not url.startswith("https://github.com/"):
        return None
    return f"{url}/edit/{browse.default_branch(repo)}/{{path}}"


def content_folder(repo: Path) -> str:
    """Where native records would go: `content`, unless the repository already has a folder
    of that name for something else (a docs site's), then `decisions`."""
    return "content" if not (repo / "content").exists() else "decisions"


def site_yml(repo: Path, folders: list[Folder], edit: str | None) -> str:
    """The site.yml adopting `folders`."""
    lines = [
        "# site-builder configuration, written by `site-builder init --from`.",
        f"title: {json.dumps(f'{repo.name} decisions')}",
        f"description: {json.dumps(f'Architecture decisions of {repo.name}')}",
        "base: /",
        f"content: {content_folder(repo)}   # native records (site-builder new); may be absent",
        "output: _site",
    ]
    if edit:
        lines.append(f"edit_url: {edit}   # links to other repository files point here too")
    lines.append("sources:   # read in place: no file is moved or rewritten")
    for folder in folders:
        lines += [f"  - path: {folder.path}", f"    format: {folder.format}",
                  f"    project: {folder.project}"]
    return "\n".join(lines) + "\n"


def _agents_section(folders: list[Folder]) -> str:
    where = ", ".join(f"`{f.path}/`" for f in folders)
    return (f"{_SECTION_MARK}\n## Decision records\n\nThis repository keeps its architecture "
            f"decisions in {where}. Before you change code, ask the MCP server which "
            "decisions govern it: `site-builder mcp --root .` (configured in `.mcp.json`); "
            "start with `search_records` or `records_for_paths`, and trust only records whose "
            "`current` is true. Run `site-builder check` before you commit a record.\n")


def _merged_mcp(path: Path) -> str:
    """`.mcp.json` with the `decisions` server added. Raises ScaffoldError when the file is
    not a JSON object, or already names another `decisions` server."""
    entry = {"command": "site-builder", "args": ["mcp", "--root", "."]}
    if not path.exists():
        return json.dumps({"mcpServers": {"decisions": entry}}, indent=2) + "\n"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ScaffoldError(f"{path} is not valid JSON ({exc}); nothing was written") from None
    servers = data.get("mcpServers", {}) if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        raise ScaffoldError(f"{path} has no 'mcpServers' object to add to; nothing was written")
    if servers.get("decisions", entry) != entry:
        raise ScaffoldError(f"{path} already names another 'decisions' server; nothing "
                            "was written")
    servers["decisions"] = entry
    data["mcpServers"] = servers
    return json.dumps(data, indent=2) + "\n"


def _found(repo: Path, named: tuple[str, ...]) -> Adoption:
    """The folders to adopt, with the notes on folders configurations name in vain.
    Raises ScaffoldError when there is none, or a `named` one is no folder of `repo`."""
    try:
        found = find_folders(repo, named)
    except ValueError as exc:
        raise ScaffoldError(f"--folder {exc}; nothing was written") from None
    if not found.folders:
        said = "; ".join(found.notes) or (
            "no folder holds two numbered or dated Markdown records with a Status or Date "
            "(or one, in a folder named adr or decisions), outside vendored, build and test "
            "folders")
        raise ScaffoldError(f"no decision folder found in {repo}: {said}. Name one with "
                            "--folder PATH; nothing was written")
    return Adoption(folders=found.folders, notes=list(found.notes))


def ci_service(repo: Path) -> str:
    """The CI service the repository at `repo` uses: GitLab when it has a `.gitlab-ci.yml`
    or its `origin` is on a GitLab host, else GitHub."""
    if (repo / GITLAB_CI).exists() or is_gitlab(browse.origin_url(repo)):
        return "gitlab"
    return "github"


def _pipeline(repo: Path, ci: str | None, out: Adoption) -> dict[str, str]:
    """The pipeline file to write for `ci` (None: the service `ci_service` guesses), or
    none when the repository has that file already (said in `out.guesses`)."""
    service = ci or ci_service(repo)
    path = CI_FILES[service]
    if ci is None and service == "gitlab":
        out.guesses.append("GitLab CI (a .gitlab-ci.yml or a GitLab remote; --ci github "
                           "for GitHub)")
    if (repo / path).exists():
        out.guesses.append(f"{path} exists: left as it is (`site-builder init --ci "
                           f"{service} DIR` in a new folder writes the jobs to copy)")
        return {}
    scaffold = scaffold_files(repo.name, dt.date.today(), branch=browse.default_branch(repo),
                              ci=service)
    return {path: scaffold[path]}


def adopt(repo: Path, named: tuple[str, ...] = (), ci: str | None = None) -> Adoption:
    """Write site.yml and the scaffold into the repository at `repo`, adopting the decision
    folders found in it, or only the `named` ones (paths relative to `repo`), with the
    pipeline of `ci` (a key of CI_FILES; None: the service the repository uses).

    Raises ScaffoldError, with nothing written, when `repo` is no folder, already holds a
    site.yml, has no decision folder (or a `named` one is none), or has an `.mcp.json` that
    cannot take the server.
    """
    repo = repo.resolve()
    if not repo.is_dir():
        raise ScaffoldError(f"{repo} is not a folder; nothing was written")
    if (repo / CONFIG_FILE).exists():
        raise ScaffoldError(f"{repo / CONFIG_FILE} already exists; nothing was written")
    out = _found(repo, named)
    folders = out.folders
    if content_folder(repo) != "content":
        out.guesses.append("content: decisions (content/ holds something else)")
    edit = edit_url(repo)
    if edit:
        out.guesses.append(f"edit_url {edit} (from git remote origin)")
    files = {CONFIG_FILE: site_yml(repo, folders, edit),
             ".mcp.json": _merged_mcp(repo / ".mcp.json")}
    files.update(_pipeline(repo, ci, out))
    agents = repo / "AGENTS.md"
    existing = agents.read_text(encoding="utf-8") if agents.exists() else ""
    if _SECTION_MARK not in existing:
        files["AGENTS.md"] = (existing.rstrip("\n") + "\n\n" if existing else "") + \
            _agents_section(folders)
    gitignore = repo / ".gitignore"
    present = gitignore.read_text(encoding="utf-8").splitlines() if gitignore.exists() else []
    missing = [line for line in ("_site/", ".site-builder/") if line not in present]
    if missing:
        files[".gitignore"] = "\n".join([*present, *missing]) + "\n"
    for rel, text in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        out.written.append(path)
    return out


