"""What every layer stands on; nothing here knows what a record is.

- `findings.py`   Finding: one problem `check` reports, at its file and line
- `confined.py`   reading files that must stay inside a folder
- `site_paths.py` where every file of a built site lives: the one table of output paths
- `installed.py`  the versions of the installed distributions, for caches and stamps
- `kept.py`       a cache file that outlives the process and builds only the classes it lists
- `words.py`      counts in messages, as people write them (`1 error`, `2 errors`)
"""
