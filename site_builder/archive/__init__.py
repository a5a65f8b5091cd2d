"""The archive: the only code that knows what a decision record is.

- `records.py`   one file's text → a Record (front matter, body, the lines of every key)
- `origins.py`   where records come from: content roots, and the source each belongs to
- `scan.py`      which files a content root holds; symlinks out of it are refused there
- `loader.py`    content roots → an Archive, reparsing only files that changed
- `loader_cache.py` what the loader remembers of each file's parse, also kept between runs
- `record_file.py` one record file read: parsed, its bytes digested, its own problems found
- `body_files.py` a record file's text: front matter split from the body, and bodies left in
                 their files by a one-off load, read again when asked for
- `archive.py`   the records with derived lineage, reviews and sign-offs; lookup by any name
- `checks.py`    the problems that need more than one record to see
- `links.py`     links in bodies: finding them, resolving them to records or attachments
- `affects.py`   `affects` globs, matched as .gitignore and CODEOWNERS match paths
- `schedule.py`  review schedules (`every: 6 months` → the next due date)
- `bulk.py`      whole-archive work run with the garbage collector paused
- `values.py`    front-matter values read one kind at a time, each with its problem
- `formats/`     readers for records kept in another tool's format; `foreign.py` a folder of them
- `gitdates.py`  what git knows of a folder: first-add dates (renames followed), its remote,
                 a shallow clone
- `urls.py`      repository addresses: which file of the archive's repository a URL names
- `attachments.py` which linked files are published, and SVG made safe
- `body_limits.py` bodies Python-Markdown cannot render in bounded time
- `static.py`    the `static` folder: files copied to the output root
- `project_file.py` `_project.yml`: a project's name, description, owners and fields
- `codescan.py`  what the repository's tracked files mention, cached by blob id
- `citations.py` those mentions matched to records: who cites what, and `check`'s warnings
- `cited.py`     citations as values, from a scan or read back from decisions.json
- `template.py`  the record `new` writes, and the placeholders `check` warns about
"""
