"""Records from other places: site.yml's `sources`, read like the archive's own `content`.

- `resolve.py`   site.yml → content roots for the loader (a missing clone is made here)
- `load.py`      the archive of a root: its config, its content roots, the loader
- `checkouts.py` the cache of `repo:` sources under `.site-builder/sources/`
- `git.py`       the system git, the only code that touches the network
- `browse.py`    a checkout's web address: its remote as https, its default branch
- `update.py`    `site-builder sources update`: fetch every repo again, report what changed

`resolve` turns site.yml's `content` and `sources` into the content roots that
`archive.loader.load_archive` reads, so every front end gets source records the same way.
"""
