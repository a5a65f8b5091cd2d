"""`make bench`: site-builder measured side by side with Hugo and MkDocs (SPEC §8).

run.py        the entry point: steps, arguments, where the report goes
corpus.py     the benchmark archive (make_corpus.py, kept byte-identical to the shared one)
hugo_site.py, mkdocs_site.py, site_builder_target.py
              each tool: install, convert the archive, the commands to run
measure.py    one command in a fresh child: wall time, CPU time, peak memory of its tree
builds.py     full builds interleaved across tools, site-builder's rebuilds
large.py      sizes above 10,000 records: builds only, Hugo only where it fits in memory
live.py       `serve`: save a record → new page served
mcp_client.py, mcp_timing.py, http_site.py
              the MCP server, local and remote, through a raw JSON-RPC client
http_load.py  `mcp --http` under many concurrent clients: req/s, p50/p99, errors, memory
stats.py      median, spread, percentiles, ratios
targets.py    SPEC §8's targets, met or missed by how much
profiling.py  pyinstrument / tracemalloc summaries of missed targets
report.py     the Markdown report (printed and written to RESULTS.md)
completion.py `completion/complete` at 10,000 records: the first of each kind, then p95
citations.py  code citations in a 10,000-file repository: cold, unchanged, matched
mcp_workers.py `mcp --http` under 1 and 2 uvicorn workers
adoption.py   not part of `make bench`: `init --from` + `build` on real public archives
              (adoption-repos.txt), the table and findings in ADOPTION.md
"""
