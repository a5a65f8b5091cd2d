"""The site's full-text search index, for the search page's script.

- `index.py` query/textindex.py's analysis of every record, split into small JSON files
"""
