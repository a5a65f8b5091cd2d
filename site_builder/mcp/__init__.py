"""The read-only MCP server: `site-builder mcp` (see the README's MCP section).

- `protocol.py`     JSON-RPC lines, batches, versions and errors
- `envelope.py`     the 2026-07-28 era told from the handshake era; its result decorations
- `server.py`       each request dispatched; over stdio it reads the lines itself
- `tools.py`        the table of tools: each one row (query, parameters, output schema)
- `resources.py`    each record as `decision://{id}`, listed page by page and read
- `prompts.py`      the table of prompts: each one row (arguments, text, completion)
- `prompt_texts.py` each prompt's text, written from the query layer's answers
- `completion.py`   the archive's names offered for `completion/complete`
- `http.py`         Streamable HTTP as an ASGI app (also the `app` factory for uvicorn)
- `listen.py`       binds the address and runs the app under uvicorn
- `tokens.py`       the bearer tokens an HTTP server accepts
- `hosts.py`        the Host allow-list a server answers to, and its public URL
- `guard.py`        GuardedH11: request deadlines, a connection cap, CL+TE closes
- `refusals.py`     one log line per kind of refusal, not per event
- `post.py`         POST bodies parsed off the event loop, bounded in depth and items

The archive comes from the access package: the content folder or a published site.
"""
