"""The built-in theme: colour contrast (WCAG AA) in light and dark mode, and where theme and
template files are found."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import jinja2
import pytest

from site_builder.render.pages import theme as theme_module
from site_builder.render.pages.theme import Theme, builtin_folder
from site_builder.render.site import build_site

STYLESHEET = builtin_folder("theme") / "site.css"

# (text colour, background colour) pairs the theme puts on screen.
PAIRS = [
    ("text", "bg"), ("text", "surface"), ("text", "surface-2"),
    ("text-2", "bg"), ("text-2", "surface"), ("text-2", "surface-2"),
    ("muted", "bg"), ("muted", "surface"), ("muted", "surface-2"),
    ("accent", "bg"), ("accent", "surface"), ("accent", "surface-2"),
    ("accent-strong", "accent-soft"), ("on-accent", "accent"), ("text", "mark"),
    ("current-fg", "current-bg"), ("implemented-fg", "implemented-bg"),
    ("open-fg", "open-bg"), ("closed-fg", "closed-bg"), ("rejected-fg", "rejected-bg"),
    ("warn-fg", "warn-bg"), ("current-fg", "surface"),
    ("code-text", "code-bg"), ("tok-keyword", "code-bg"), ("tok-string", "code-bg"),
    ("tok-comment", "code-bg"), ("tok-number", "code-bg"), ("tok-function", "code-bg"),
    ("tok-class", "code-bg"), ("tok-builtin", "code-bg"), ("tok-tag", "code-bg"),
    ("tok-attr", "code-bg"), ("tok-deleted", "code-bg"), ("tok-inserted", "code-bg"),
]


def palette(css: str, dark: bool) -> dict[str, str]:
    """The colours of the `:root` block in one scheme: each is `light-dark(light, dark)`."""
    root = css[css.index(":root {"):]
    pairs = re.findall(r"--([\w-]+):\s*light-dark\((#[0-9a-fA-F]{6}),\s*(#[0-9a-fA-F]{6})\)",
                       root[:root.index("\n}")])
    return {name: dark_value if dark else light_value for name, light_value, dark_value in pairs}


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, two: str) -> float:
    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_text_colour_meets_wcag_aa_on_its_background(dark: bool) -> None:
    colours = palette(STYLESHEET.read_text(encoding="utf-8"), dark)
    failing = [f"--{fg} on --{bg}: {contrast(colours[fg], colours[bg]):.2f}"
               for fg, bg in PAIRS if contrast(colours[fg], colours[bg]) < 4.5]
    assert failing == []


def test_dark_mode_changes_every_colour_it_needs_to() -> None:
    css = STYLESHEET.read_text(encoding="utf-8")
    light, dark = palette(css, dark=False), palette(css, dark=True)
    assert {fg for fg, _ in PAIRS} | {bg for _, bg in PAIRS} <= light.keys()
    assert all(light[name] != dark[name] for name in light)
    # No colour of the theme is left to one scheme only.
    root = css[css.index(":root {"):]
    assert not re.search(r"--[\w-]+:\s*#", root[:root.index("\n}")])
    assert "prefers-color-scheme" not in css  # light-dark() follows the system and the toggle


def test_the_stylesheet_names_no_remote_resource() -> None:
    # Everything comes from the site itself: no CDN fonts, no framework.
    css = STYLESHEET.read_text(encoding="utf-8")
    assert "http:" not in css and "https:" not in css and "@import" not in css


def test_theme_files_are_published_under_content_hashed_names(tmp_path: Path) -> None:
    theme = Theme(tmp_path)
    published = theme.published
    assert published["favicon.svg"] == "favicon.svg"
    assert re.fullmatch(r"assets/site\.[0-9a-f]{10}\.css", published["site.css"])
    assert re.fullmatch(r"assets/site\.[0-9a-f]{10}\.js", published["site.js"])


def test_an_archive_theme_file_replaces_the_built_in_one(tmp_path: Path) -> None:
    (tmp_path / "theme").mkdir()
    (tmp_path / "theme" / "site.js").write_text("// ours\n", encoding="utf-8")
    (tmp_path / "theme" / "extra.svg").write_text("<svg/>", encoding="utf-8")
    theme = Theme(tmp_path)
    assert theme.theme_file("site.js") == b"// ours\n"
    assert theme.theme_file("site.css") == STYLESHEET.read_bytes()
    assert "extra.svg" in theme.published



def _counting_compiles(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The names of the templates Jinja compiles from now on, in a process that has
    compiled none yet."""
    monkeypatch.setattr(theme_module, "_IN_MEMORY", {})
    compiled: list[str | None] = []
    real = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: str, name: str | None = None,
                 *args: object, **kwargs: object) -> object:
        compiled.append(name)
        return real(self, source, name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return compiled


def test_built_in_templates_are_compiled_once_per_machine(
        site_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    machine = tmp_path / "machine-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(machine))
    compiled = _counting_compiles(monkeypatch)
    build_site(site_root, jobs=1)
    assert "base.html" in compiled and "record.html" in compiled
    kept = sorted(p.name for p in theme_module.machine_cache().iterdir())
    assert kept and not any(name.startswith(".") for name in kept)  # no half-written files
    assert theme_module.machine_cache().is_relative_to(machine)
    assert theme_module.machine_cache().stat().st_mode & 0o077 == 0  # this user's alone
    assert not (site_root / theme_module.COMPILED_FOLDER).exists()  # none is the archive's
    # A first build of another archive, with no output and no cache: nothing to compile.
    other = tmp_path / "other"
    shutil.copytree(site_root, other, ignore=shutil.ignore_patterns("_site", ".site-builder"))
    compiled.clear()
    monkeypatch.setattr(theme_module, "_IN_MEMORY", {})  # as in a new process
    build_site(other, jobs=1)
    assert compiled == []


def test_an_archive_template_is_kept_compiled_in_its_own_cache(
        site_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "machine-cache"))
    base = (builtin_folder("templates") / "base.html").read_text(encoding="utf-8")
    (site_root / "templates").mkdir()
    (site_root / "templates" / "base.html").write_text(
        base.replace("</body>", "<!-- ours --></body>"), encoding="utf-8")
    build_site(site_root, jobs=1)
    folder = site_root / theme_module.COMPILED_FOLDER
    kept = sorted(p.name for p in folder.iterdir())
    assert len(kept) == 1  # the archive's base.html, and none of the built-in ones
    compiled = _counting_compiles(monkeypatch)
    build_site(site_root, jobs=1, force=True)
    assert compiled == []  # the archive's template from its cache, the rest from the machine's
    assert "<!-- ours -->" in (site_root / "_site" / "index.html").read_text(encoding="utf-8")


def test_a_damaged_compiled_template_is_compiled_again(
        site_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "machine-cache"))
    build_site(site_root, jobs=1)
    pages = (site_root / "_site" / "index.html").read_bytes()
    for entry in theme_module.machine_cache().iterdir():
        kept = entry.read_bytes()
        entry.write_bytes(kept[:40] + b"garbage")  # Jinja's own header, then nothing usable
    compiled = _counting_compiles(monkeypatch)
    shutil.rmtree(site_root / "_site")
    build_site(site_root, jobs=1)
    assert "base.html" in compiled
    assert (site_root / "_site" / "index.html").read_bytes() == pages
