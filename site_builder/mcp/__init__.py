"""The read-only MCP server: `site-builder mcp` (SPEC §6).

protocol.py (JSON-RPC framing, versions, errors) → server.py (dispatch) → tools.py (the
table of tools, each a query function) over a source.py Source: the content folder
(LocalSource, with changes.py noticing edits) or a published site (remote.py).
"""
