"""`site-builder init --from DIR`: adopt a repository's decision folders without moving a file.

Finds the folders other tools keep records in (`.log4brains.yml` and its packages, `.adr-dir`,
`doc/adr`, `docs/adr`, `docs/decisions`, `docs/architecture/decisions`), guesses each one's
format from its files, and writes `site.yml` with one `format` source per folder, plus the
scaffold beside it: the workflow, a server entry merged into `.mcp.json`, a section added to
`AGENTS.md`. Every guess is returned in words, to be printed.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.archive.formats import auto, is_record_name
from site_builder.authoring.scaffold import ScaffoldError, scaffold_files
from site_builder.config.site import CONFIG_FILE, read_yaml_mapping
from site_builder.sources.git import GitError, run_git

CANDIDATES = ("doc/adr", "docs/adr", "docs/decisions", "docs/architecture/decisions")
_SECTION_MARK = "<!-- site-builder: decision records -->"
_DATE_NAME = re.compile(r"^\d{8}-")


@dataclass(frozen=True, slots=True)
class Folder:
    """A decision folder found in the repository: its path (POSIX, relative to the repo),
    the format and project guessed for it, and why."""

    path: str
    format: str
    project: str
    why: str


@dataclass(slots=True)
class Adoption:
    """What `adopt` found, wrote and guessed."""

    folders: list[Folder] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    guesses: list[str] = field(default_factory=list)


def _name(text: str) -> str:
    """A project name from any text: lowercase letters, digits and dashes."""
    name = re.sub(r"[^a-z0-9._-]+", "-", text.strip().lower()).strip("-._")
    return name or "decisions"


def _records(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and is_record_name(p.name))


def guess_format(folder: Path) -> tuple[str, str]:
    """(format, why) for a folder, from what its record files look like."""
    files = _records(folder)
    if not files:
        return "auto", "no records yet"
    readers = Counter(auto.reader_for(p.read_text(encoding="utf-8", errors="replace")).__module__
                      .rsplit(".", 1)[-1] for p in files)
    dated = sum(1 for p in files if _DATE_NAME.match(p.name))
    if set(readers) == {"log4brains", "madr"} and dated * 2 < len(files):
        return "madr", f"{len(files)} files with MADR 2 items or MADR 3/4 front matter"
    if len(readers) > 1:
        return "auto", f"{len(files)} files in several layouts ({', '.join(sorted(readers))})"
    reader = next(iter(readers))
    if reader == "log4brains" and dated * 2 < len(files):
        return "madr", f"{len(files)} files with '* Status:' items (MADR 2)"
    if reader == "log4brains":
        return "log4brains", f"{len(files)} date-named files with '- Status:' items"
    if reader == "madr":
        return "madr", f"{len(files)} files with front matter (MADR 3/4)"
    return "nygard", f"{len(files)} files with a Status section (adr-tools)"


def _log4brains(repo: Path, found: dict[str, Folder]) -> None:
    # Read as every YAML file is (regular file, size cap, no alias bombs): the repository
    # is somebody else's. Anything unusable reads as {}.
    data, _ = read_yaml_mapping(repo / ".log4brains.yml")
    project = data.get("project")
    if not isinstance(project, dict):
        return
    entries = [(project.get("name") or repo.name, project.get("adrFolder"))]
    for package in project.get("packages") or []:
        if isinstance(package, dict):
            entries.append((package.get("name"), package.get("adrFolder")))
    for name, folder in entries:
        if not isinstance(folder, str) or not isinstance(name, str):
            continue
        rel = Path(folder).as_posix().removeprefix("./").rstrip("/")
        if (repo / rel).is_dir() and rel not in found:
            found[rel] = Folder(rel, "log4brains", _name(name),
                                f".log4brains.yml names it for '{name}'")


def find_folders(repo: Path) -> list[Folder]:
    """The decision folders of the repository at `repo`, in the order they were found."""
    found: dict[str, Folder] = {}
    if (repo / ".log4brains.yml").is_file():
        _log4brains(repo, found)
    marker = repo / ".adr-dir"
    if marker.is_file():
        rel = marker.read_text(encoding="utf-8").strip().removeprefix("./").rstrip("/")
        if rel and (repo / rel).is_dir() and rel not in found:
            fmt, why = guess_format(repo / rel)
            found[rel] = Folder(rel, fmt, _name(repo.name), f".adr-dir names it; {why}")
    for rel in CANDIDATES:
        if (repo / rel).is_dir() and rel not in found and _records(repo / rel):
            fmt, why = guess_format(repo / rel)
            found[rel] = Folder(rel, fmt, _name(repo.name), why)
    projects = Counter(f.project for f in found.values())
    out = []
    for folder in found.values():
        if projects[folder.project] > 1 and folder.format != "log4brains":
            # Two folders of one repository: a project each, named after the folder.
            folder = Folder(folder.path, folder.format,
                            _name(f"{folder.project}-{folder.path.split('/')[-1]}"), folder.why)
        out.append(folder)
    return out


def _git(repo: Path, *args: str) -> str | None:
    """git's answer in `repo`, or None when git fails, is missing or takes over 10 s."""
    try:
        return run_git(*args, cwd=repo, timeout=10)
    except GitError:
        return None


def edit_url(repo: Path) -> str | None:
    """The GitHub "edit this page" template of the repository's `origin`, or None."""
    remote = _git(repo, "remote", "get-url", "origin")
    match = re.match(r"^(?:https://github\.com/|git@github\.com:)([^/]+/[^/]+?)(?:\.git)?/?$",
                     remote or "")
    if not match:
        return None
    branch = _git(repo, "symbolic-ref", "--short", "HEAD") or "main"
    return f"https://github.com/{match.group(1)}/edit/{branch}/{{path}}"


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


def adopt(repo: Path) -> Adoption:
    """Write site.yml and the scaffold into the repository at `repo`.

    Raises ScaffoldError, with nothing written, when `repo` is no folder, already holds a
    site.yml, has no decision folder, or has an `.mcp.json` that cannot take the server.
    """
    repo = repo.resolve()
    if not repo.is_dir():
        raise ScaffoldError(f"{repo} is not a folder; nothing was written")
    if (repo / CONFIG_FILE).exists():
        raise ScaffoldError(f"{repo / CONFIG_FILE} already exists; nothing was written")
    folders = find_folders(repo)
    if not folders:
        raise ScaffoldError(f"no decision folder found in {repo} (looked for .log4brains.yml, "
                            f".adr-dir, {', '.join(CANDIDATES)}); nothing was written")
    out = Adoption(folders=folders)
    if content_folder(repo) != "content":
        out.guesses.append("content: decisions (content/ holds something else)")
    edit = edit_url(repo)
    if edit:
        out.guesses.append(f"edit_url {edit} (from git remote origin)")
    files = {CONFIG_FILE: site_yml(repo, folders, edit),
             ".mcp.json": _merged_mcp(repo / ".mcp.json")}
    scaffold = scaffold_files(repo.name, dt.date.today())
    workflow = ".github/workflows/decisions.yml"
    if (repo / workflow).exists():
        out.guesses.append(f"{workflow} exists: left as it is")
    else:
        files[workflow] = scaffold[workflow]
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


