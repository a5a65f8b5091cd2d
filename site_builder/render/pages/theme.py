"""Where templates and theme files come from: the built-in ones, overridden per archive.

An archive may place files of the same name in `<root>/templates/` or `<root>/theme/` (as
MkDocs' `custom_dir`); those win, everything else comes from the copies shipped with the
package. Theme files are published under `assets/` with a content hash in their name, so a
host may cache them forever and a changed stylesheet is never served stale.

The archive's own files arrive through pull requests like records do, so each is read only
as a regular file inside the archive root (`confined.read_regular`): Jinja's own file loader
would follow a symlink to any file of the machine. One that is refused is not used (the
built-in file serves instead); `check` reports it at the file (archive.checks).
"""

from __future__ import annotations

import hashlib
import os
import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import jinja2
from jinja2.loaders import split_template_path

import site_builder
from site_builder.base import installed
from site_builder.base.confined import MAX_RECORD_BYTES, Refused, inside, read_regular
from site_builder.base.site_paths import ASSETS, FAVICON
from site_builder.render.markdown.title_html import inline_code

TEMPLATES = "templates"
THEME = "theme"
ASSETS_DIR = ASSETS
# Theme files that are published at the site root under their own name (browsers and
# crawlers look for them there) rather than fingerprinted under assets/.
ROOT_FILES = frozenset({FAVICON})
# Fonts and images of a theme may be larger than any record; nothing in a theme needs more.
MAX_THEME_BYTES = 32 * 1024 * 1024


def builtin_folder(name: str) -> Path:
    """The built-in `templates` or `theme` folder.

    Installed from a wheel it sits inside the package (`site_builder/templates`); in a source
    checkout or an editable install it sits beside the package, at the repository root.
    Raises FileNotFoundError when neither exists (a broken installation).
    """
    package = Path(site_builder.__file__).resolve().parent
    for candidate in (package / name, package.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"site-builder's built-in {name}/ folder is missing from {package}")


# Compiled templates of this process, shared by every Theme (see _CompiledTemplates).
_IN_MEMORY: dict[str, bytes] = {}
# Where an archive's own templates are kept compiled between processes: its cache folder.
COMPILED_FOLDER = Path(".site-builder") / "cache" / "templates"


def machine_cache() -> Path:
    """Where the built-in templates are kept compiled: the user's cache folder
    (`$XDG_CACHE_HOME`, else `~/.cache`), one folder per site-builder version."""
    return installed.machine_cache("templates")


class _CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates, by template file and source checksum: in memory for the life of
    the process, and on disk for the processes after it.

    `serve` renders a page or two with a new `Theme` after every save, and compiling a page's
    template and those it extends costs more than rendering it; every `build` is a new process
    that would compile them all again (a tenth of a second, as much as rendering a hundred
    small pages). The built-in templates are the same for every archive, so they are kept
    with the machine's copy of site-builder (`machine`), as Python keeps its bytecode: a
    first build, with no output and no cache of its own, does not compile them again. An
    archive's own templates are kept in its cache folder (`archive`). Jinja checks each
    entry's checksum against the template's source and its own format version, so an edited
    template or another Jinja compiles again. Every `Theme` builds its environment with the
    same settings, which is what sharing compiled code needs.
    """

    def __init__(self, archive: Path | None, machine: Path | None = None,
                 builtin: Path | None = None) -> None:
        self.archive = archive
        self.machine = machine
        self.builtin = builtin
        self._folders: dict[str, Path | None] = {}

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None,
                   source: str) -> jinja2.bccache.Bucket:
        key = self.get_cache_key(name, filename)
        shipped = (self.machine is not None and self.builtin is not None
                   and filename is not None and Path(filename).is_relative_to(self.builtin))
        self._folders[key] = self.machine if shipped else self.archive
        bucket = jinja2.bccache.Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        folder = self._folders.get(bucket.key, self.archive)
        code = _IN_MEMORY.get(bucket.key)
        if code is not None:
            # Compiled for another archive in this process: the cache on disk gets it too.
            if folder is not None and not (folder / bucket.key).is_file():
                _keep(folder, bucket.key, code)
        elif folder is not None:
            try:
                code = (folder / bucket.key).read_bytes()
            except OSError:  # not compiled yet, or the cache was deleted: compile
                code = None
        if code is not None:
            try:
                bucket.bytecode_from_string(code)
            except Exception:  # unpickling a damaged entry raises any kind of error
                # An entry damaged on disk (the rename keeps builds from reading half a
                # file, not a disk or another program from spoiling one): compile again.
                bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = bucket.bytecode_to_string()
        _IN_MEMORY[bucket.key] = code
        folder = self._folders.get(bucket.key, self.archive)
        if folder is not None:
            _keep(folder, bucket.key, code)


def _keep(folder: Path, key: str, code: bytes) -> None:
    try:  # written beside and renamed: a concurrent build never reads half a file
        # Compiled code is run when read back: only this user may write it (as Jinja's own
        # FileSystemBytecodeCache insists for its folder).
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        partial = folder / f".{key}.{os.getpid()}"
        partial.write_bytes(code)
        partial.replace(folder / key)
    except OSError:  # a cache that cannot be written only costs the next build time
        pass


class _ArchiveTemplates(jinja2.BaseLoader):
    """The archive's `templates/` folder, read only as regular files inside the archive."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.folder = root / TEMPLATES

    def get_source(self, environment: jinja2.Environment,
                   template: str) -> tuple[str, str, Callable[[], bool]]:
        """The template's text, its file name and an always-true up-to-date check.

        Raises TemplateNotFound when the archive has no usable file of that name (none, or
        one that is refused), so that the built-in template is used.
        """
        path = self.folder.joinpath(*split_template_path(template))
        if not os.path.lexists(path):
            raise jinja2.TemplateNotFound(template)
        try:
            source = read_regular(path, MAX_RECORD_BYTES, root=self.root).decode("utf-8")
        except (Refused, UnicodeDecodeError):
            raise jinja2.TemplateNotFound(template) from None
        return source, str(path), lambda: True


@dataclass(frozen=True)
class Theme:
    """Templates and theme files for one archive, with the archive's overrides applied."""

    root: Path
    """The archive root (the folder holding site.yml)."""
    _files: dict[str, bytes] = field(default_factory=dict, init=False, repr=False)

    @cached_property
    def environment(self) -> jinja2.Environment:
        """A Jinja2 environment with autoescaping on for every template, archive files first."""
        builtin = builtin_folder(TEMPLATES)
        environment = jinja2.Environment(
            loader=jinja2.ChoiceLoader([
                _ArchiveTemplates(self.root),
                jinja2.FileSystemLoader(str(builtin)),
            ]),
            autoescape=True,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            auto_reload=False,
            undefined=jinja2.StrictUndefined,
            bytecode_cache=_CompiledTemplates(self.root / COMPILED_FOLDER, machine_cache(),
                                              builtin),
        )
        environment.filters["inline_code"] = inline_code
        return environment

    def template(self, name: str) -> jinja2.Template:
        return self.environment.get_template(name)

    # ---- theme files ------------------------------------------------------------------------

    def theme_file(self, name: str) -> bytes:
        """The bytes of theme file `name`, the archive's own copy when it has one.

        Raises FileNotFoundError when neither the archive nor the built-in theme has it.
        """
        if name not in self._files:
            own = self._own_file(name)
            self._files[name] = own if own is not None else (
                builtin_folder(THEME) / name).read_bytes()
        return self._files[name]

    def _own_file(self, name: str) -> bytes | None:
        """The archive's own copy of theme file `name`, or None when it has no usable one
        (none, or one refused: outside the archive, not a regular file, too large)."""
        own = self.root / THEME / name
        if not os.path.lexists(own):
            return None
        try:
            return read_regular(own, MAX_THEME_BYTES, root=self.root)
        except Refused:
            return None

    @cached_property
    def file_names(self) -> tuple[str, ...]:
        """Every theme file name, built-in and the archive's own, sorted."""
        names = {p.name for p in builtin_folder(THEME).iterdir() if p.is_file()}
        own = self.root / THEME
        if own.is_dir() and inside(own, self.root):
            names.update(p.name for p in own.iterdir()
                         if p.is_file() and inside(p, self.root))
        return tuple(sorted(n for n in names if not n.startswith(".")))

    @cached_property
    def published(self) -> dict[str, str]:
        """Theme file name → its path in the site (`site.css` → `assets/site.3f2a…css`)."""
        out: dict[str, str] = {}
        for name in self.file_names:
            if name in ROOT_FILES:
                out[name] = name
                continue
            digest = hashlib.sha256(self.theme_file(name)).hexdigest()[:10]
            stem, ext = posixpath.splitext(name)
            out[name] = f"{ASSETS_DIR}/{stem}.{digest}{ext}"
        return out
