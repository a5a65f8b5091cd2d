"""The one writer: every file of a build goes through it, staged, then committed at once.

- `writer.py`   `Output`: stage each file, commit the build, leave a failed one unseen
- `staging.py`  staged files created by a writer process of their own
- `same.py`     whether the old output holds a file's bytes already
- `pieces.py`   files made of pieces, each copied from the old output when it cannot differ
- `exchange.py` the whole staged site swapped in with one renameat2(RENAME_EXCHANGE)
- `spare.py`    the old site kept after an exchange, mended into the next one in place
- `journal.py`  where folders cannot be exchanged: the commit journal that repairs an
  interrupted commit
- `lock.py`     one build of an archive at a time
- `stamp.py`    the up-to-date check: skip a build when nothing changed
- `tree.py`     one fast walk of a folder tree, for all of the above
"""
