"""Hugo as a competitor: install it, turn the archive into a minimal Hugo site, build it.

The site has no theme (nothing to download): four small layouts render every record, every
project and type section, the tag pages and the home page, so Hugo does the same kinds of work
as site-builder (Markdown with highlighted code, a page per record, lists, tags, feed, sitemap).
Record files are copied unchanged: Hugo reads their YAML front matter as page params.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from bench.corpus import Corpus

CONFIG = """\
baseURL = "http://127.0.0.1/"
title = {title}
languageCode = "en"
buildFuture = true
enableRobotsTXT = true

[taxonomies]
  tag = "tags"

[markup.highlight]
  noClasses = false
"""

BASEOF = """\
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} · {{ .Site.Title }}</title>
{{ with .Description }}<meta name="description" content="{{ . }}">{{ end }}
</head>
<body>
<header><a href="{{ "" | relURL }}">{{ .Site.Title }}</a></header>
<main>{{ block "main" . }}{{ end }}</main>
</body>
</html>
"""

SINGLE = """\
{{ define "main" }}
<article>
<h1>{{ .Title }}</h1>
<dl>
<dt>Status</dt><dd>{{ .Params.status }}</dd>
<dt>Date</dt><dd>{{ .Date.Format "2006-01-02" }}</dd>
{{ with .Params.authors }}<dt>Authors</dt><dd>{{ delimit . ", " }}</dd>{{ end }}
{{ with .Params.deciders }}<dt>Deciders</dt><dd>{{ delimit . ", " }}</dd>{{ end }}
{{ with .GetTerms "tags" }}<dt>Tags</dt><dd>{{ range . }}
<a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a>
{{ end }}</dd>{{ end }}
{{ with .Params.risk }}<dt>Risk</dt><dd>{{ . }}</dd>{{ end }}
{{ with .Params.team }}<dt>Team</dt><dd>{{ . }}</dd>{{ end }}
</dl>
{{ .Content }}
</article>
{{ end }}
"""

LIST = """\
{{ define "main" }}
<h1>{{ .Title }}</h1>
{{ .Content }}
<ul>
{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a>
{{ .Params.status }} {{ .Date.Format "2006-01-02" }}</li>
{{ end }}
</ul>
{{ end }}
"""

HOME = """\
{{ define "main" }}
<h1>{{ .Site.Title }}</h1>
<h2>Projects</h2>
<ul>
{{ range .Site.Sections }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a>
({{ len .RegularPagesRecursive }})</li>
{{ end }}
</ul>
<h2>Recent decisions</h2>
<ul>
{{ range first 20 .Site.RegularPages.ByDate.Reverse }}
<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>
{{ end }}
</ul>
{{ end }}
"""

LAYOUTS = {
    "_default/baseof.html": BASEOF,
    "_default/single.html": SINGLE,
    "_default/list.html": LIST,
    "index.html": HOME,
}


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _section_index(title: str, description: str = "") -> str:
    lines = ["---", f"title: {_toml_string(title)}"]
    if description:
        lines.append(f"description: {_toml_string(description)}")
    return "\n".join([*lines, "---", ""])


def write_site(corpus: Corpus, target: Path) -> Path:
    """Write a Hugo site for `corpus` at `target` (replacing it) and return `target`."""
    if target.exists():
        shutil.rmtree(target)
    content = target / "content"
    for name, text in LAYOUTS.items():
        path = target / "layouts" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (target / "config.toml").write_text(
        CONFIG.format(title=_toml_string(corpus.site_title())), encoding="utf-8")
    for project, meta in corpus.projects():
        source = corpus.content / project
        shutil.copytree(source, content / project, ignore=shutil.ignore_patterns("_project.yml"))
        (content / project / "_index.md").write_text(
            _section_index(str(meta.get("name", project)), str(meta.get("description", ""))),
            encoding="utf-8")
        for kind in sorted(p for p in source.iterdir() if p.is_dir()):
            (content / project / kind.name / "_index.md").write_text(
                _section_index(kind.name.upper()), encoding="utf-8")
    return target


def build_command(hugo: str, site: Path, output: Path) -> list[str]:
    """The command that builds `site` into `output` (which the caller empties first)."""
    return [hugo, "--quiet", "--source", str(site), "--destination", str(output),
            "--cacheDir", str(site / ".hugo-cache"), "--noBuildLock"]


def clean(site: Path, output: Path) -> None:
    """Remove the output and Hugo's caches, so the next build starts cold."""
    for folder in (output, site / "resources", site / ".hugo-cache"):
        shutil.rmtree(folder, ignore_errors=True)


def ensure_installed() -> tuple[str | None, str]:
    """The path of `hugo`, installing Debian's package when it is missing.

    Returns (path, "") or (None, why it is unavailable).
    """
    found = shutil.which("hugo")
    if found:
        return found, ""
    print("bench: installing Hugo (Debian package 'hugo') with apt-get", flush=True)
    prefix = [] if os.geteuid() == 0 else ["sudo", "-n"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for step in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "hugo"]):
        done = subprocess.run([*prefix, *step], env=env, capture_output=True, text=True,
                              check=False)
        if done.returncode != 0:
            return None, f"apt-get could not install hugo: {done.stderr.strip()[-300:]}"
    found = shutil.which("hugo")
    return (found, "") if found else (None, "hugo is not on PATH after apt-get install")


def version(hugo: str) -> str:
    """`hugo version`'s first words, e.g. `hugo v0.111.3+extended linux/amd64`."""
    done = subprocess.run([hugo, "version"], capture_output=True, text=True, check=False)
    words = done.stdout.split()
    return " ".join(words[:3]) if words else "hugo (unknown version)"
