"""site-builder: a static-site generator for decision records that also publishes for agents.

The packages are the layers, from the bottom; a package imports its own layer and those below
it, never above (tests/test_imports.py holds the table):

- `errors.py`  the one exception tree: every failure with its exit code and one line
- `base/`      what every layer stands on: findings, confined reading, output paths, plurals
- `text/`      the text formats read with their line numbers: YAML, and GFM Markdown
- `config/`    site.yml and `_project.yml` → frozen values, every key declared once
- `archive/`   the only code that knows what a decision record is: files → an Archive
- `contract/`  the record's JSON shape and decisions.json, declared once; schemas derive
- `sources/`   records from other places (`sources:` in site.yml), cloned and updated
- `query/`     one search semantics and the queries every front end answers
- `render/`    archive → files: pages for people, files for agents, the one writer
- `access/`    where an Archive comes from: a content folder or a published site
- `authoring/` files written into a repository: `init`, `init --from`, `new`, `import`
- `mcp/`       the MCP server over stdio and Streamable HTTP
- `serve/`     the live preview
- `cli/`       the command line; `__main__.py` runs it (`python -m site_builder`)
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
