"""The read-only MCP server: `site-builder mcp` (see the README's MCP section).

- `protocol.py` JSON-RPC lines, batches, versions and errors
- `envelope.py` the 2026-07-28 era told from the handshake era; its result decorations
- `server.py`   each request dispatched; over stdio it reads the lines itself
- `tools.py`    the table of tools, each a query function with its schemas
- `http.py`     Streamable HTTP as an ASGI app (also the `app` factory for uvicorn)
- `listen.py`   binds the address and runs the app under uvicorn
- `tokens.py`   the bearer tokens an HTTP server accepts

The archive comes from the access package: the content folder or a published site.
"""
