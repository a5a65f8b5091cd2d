"""The spare site: the folder an exchange commit (`exchange`) stages the next site in.

After an exchange the old site sits under the staging folder's name. Deleting it, and staging
the next build from nothing, cost 10,000 folders created, 21,000 files linked and as many
removed at 10,000 records (about 10 s on the disks measured here) however small the change.
So the old site is kept instead, as `<root>/.site-builder/spare/<output>`, and the next build
brings it up to date in place: most of its files are hard links to the live site's already,
and only what changed in the last two builds differs. Nothing about its state is trusted:
every file the new site keeps is checked to be the live file's own inode (`linked`), every
file the build writes replaces whatever entry was there without writing through it (it may
be a link to a live file), and `prune` removes what the new site does not hold. A spare left
half updated by a kill is therefore as good as any other, and deleting it is always safe
(build/adr/0037).

Used by the writer process too, so this module imports nothing outside the standard library.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from pathlib import Path

from site_builder.render.output import tree


def clear(path: Path) -> None:
    """Remove whatever entry is at `path` (a file, a link, a folder), if any, so that a new
    file can be created there without writing into an old one."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(path)
    else:
        os.unlink(path)


def make_folder(root: Path, rel: str) -> None:
    """Create the folder `root/rel` and its parents, replacing any file or link that stands
    where one of them must be (a page that became a folder). Raises OSError."""
    try:
        (root / rel).mkdir(parents=True, exist_ok=True)
        if not (root / rel).is_symlink():
            return
    except (FileExistsError, NotADirectoryError):
        pass
    current = root
    for part in rel.split("/"):
        current = current / part
        if os.path.lexists(current) and (current.is_symlink() or not current.is_dir()):
            os.unlink(current)
        if not current.exists():
            current.mkdir()


def linked(path: Path, source: Path) -> bool:
    """True when `path` is already a hard link to the file `source`."""
    try:
        return os.path.samestat(os.lstat(path), os.lstat(source))
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR):
            return False
        raise


def prune(root: Path, keep: set[str]) -> dict[str, str]:
    """Remove every file, link and folder under `root` that holds nothing of `keep` (site
    paths of files). Returns each remaining folder's `tree.listing` by its path, from which
    the output's fingerprint is made without walking it again. Raises OSError."""
    emptied: set[str] = set()  # folders left with nothing: removed by their parent's turn
    listings: dict[str, str] = {}
    for here in tree.walk(str(root), bottom_up=True):
        held = False
        for entry in here.files:
            if here.inside(entry.name) in keep:
                held = True
            else:
                os.unlink(entry.path)
        for name in here.links:
            os.unlink(f"{here.path}/{name}")
        for name in here.folders:
            if here.inside(name) not in emptied:
                held = True
                continue
            try:
                os.rmdir(f"{here.path}/{name}")
            except OSError as error:
                if error.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                    raise
                held = True
        if not held and here.rel:
            emptied.add(here.rel)
        else:
            listings[here.rel] = tree.listing(
                here.rel, [entry for entry in here.files if here.inside(entry.name) in keep])
    return listings
