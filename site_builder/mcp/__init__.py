"""The read-only MCP server: `site-builder mcp` (see the README's MCP section).

command.py starts it; protocol.py frames JSON-RPC lines, batches, versions and errors;
envelope.py tells the 2026-07-28 era from the handshake era and decorates its results;
server.py dispatches each request; tools.py declares each tool in one row (its query
function, parameters and output schema), prompts.py each prompt, whose text prompt_texts.py
writes from the query layer; completion.py offers the archive's names for completion. The
archive comes from a source: the content folder (source.py's LocalSource, with changes.py
noticing edits) or a published site (remote.py). Over stdio, server.py reads the lines
itself; over Streamable HTTP, http.py is the ASGI app listen.py binds the address and runs
it under uvicorn, and tokens.py reads the bearer tokens.
"""
