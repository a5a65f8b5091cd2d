"""The one writer: every file of a build goes through it, staged, then committed at once.

- `writer.py`  `Output`: stage each file, commit the build, leave a failed one unseen
- `staging.py` staged files created by a writer process of their own
- `journal.py` the commit journal that repairs an interrupted commit
- `lock.py`    one build of an archive at a time
- `stamp.py`   the up-to-date check: skip a build when nothing changed
"""
