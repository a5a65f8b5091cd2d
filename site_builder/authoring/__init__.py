"""Files written into a repository for its people: new archives, new records, adoption.

- `scaffold.py`     `site-builder init`: a new archive that `check` accepts
- `adopt.py`        `site-builder init --from DIR`: adopt decision folders without moving a file
- `adopt_report.py` what `init --from` and `import` print: folders found, guesses, `check`
- `importing.py`    `site-builder import`: another tool's records → native files
- `new.py`          `site-builder new`: the next-numbered record, from the template
- `origin.py`       where the running site-builder came from, as a `pip install` line for CI
"""
