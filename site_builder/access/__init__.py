"""Where an Archive comes from, for the MCP server and the CLI's `--url` alike.

- `source.py`  a Source: the archive of a content folder, read again when it changes
- `changes.py` whether anything under the content folders changed (inotify)
- `remote.py`  the archive of a published site, fetched lazily and cached
- `published.py` decisions.json and llms files back into an Archive, checked against the
  index's declaration (`contract.index.readable`)
- `jsonshape.py` what the declaration cannot say of an untrusted value (real dates, text)
- `fetch.py`   one bounded HTTP request: deadline, redirects kept on the site, size caps
- `network.py` the environment's proxy (HTTPS_PROXY, NO_PROXY, ...) and CA bundle for `--url`
- `start.py`   a folder or an address → a Source, with the one-line refusals both share
"""
