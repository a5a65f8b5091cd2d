"""The questions every front end asks of an Archive: the CLI, local MCP and remote MCP.

- `textindex.py` what a text query means, for every search (tokens, stems, BM25)
- `postings.py`  the inverted index under it, kept up to date record by record
- `kept_index.py` the index kept between runs, so a change analyses only what changed
- `memo.py`      what is derived from an Archive once (indexes, facets) and dropped with it
- `ranking.py`   how matches are ordered (BM25 as integers), only as far as a page needs
- `textwords.py` the words of a query and of a record: stop words, folding, stems, parsing
- `facets.py`    records grouped by the values the filters use, once per archive
- `answers.py`   the queries behind the MCP tools, `search`/`show` and decisions.json
- `copies.py`    a record's published Markdown copy: its YAML block, then the body
- `governance.py` reviews due, RFC sign-offs, the records for paths, supersede chains
"""
