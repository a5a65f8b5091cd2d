"""Files written into a repository for its people: new archives, new records, adoption.

- `scaffold.py`     `site-builder init`: a new archive that `check` accepts
- `adopt.py`        `site-builder init --from DIR`: adopt decision folders without moving a file
- `adopt_folders.py` where `init --from` finds decision folders, and the format of each
- `adopt_report.py` what `init --from` and `import` print: guesses, files left out, `check`
- `importing.py`    `site-builder import`: another tool's records → native files
- `import_links.py` what becomes of an imported record's links: attachments, `repo_url` links
- `gitlab.py`       the `.gitlab-ci.yml` of `init --ci gitlab`: check on merge requests, Pages
- `new.py`          `site-builder new`: the next-numbered record, from the template
- `origin.py`       where the running site-builder came from, as a `pip install` line for CI
- `action_ref.py`   which site-builder GitHub Action (and `version` input) a workflow uses
"""
