"""site.yml and `_project.yml`: every key declared once, read into frozen values.

- `keys.py`           every key of site.yml, of its list entries and of `_project.yml`
- `values.py`         the frozen values: statuses, fields, sources and the config itself
- `sources.py`        the `sources:` list: records kept outside `content`
- `source_formats.py` the keys of a `sources:` entry kept in another tool's format
- `citations.py`      the `citations:` key: which tracked files are read for citations
- `checker.py`        reading one settings file, and its problems at their lines
- `site.py`           site.yml's key table with its parsers, and `load_config`
"""
