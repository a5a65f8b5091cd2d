"""Archive → files: the HTML site for people and the files for agents.

- `site.py`      `build_site`: load and check, work out what to make, write it, commit it
- `increment.py` incremental builds: what the last build read and made, what to make again
- `writing.py`   phase two: every file of the site (or what an increment makes) through a writer
- `result.py`    `BuildResult`: what one build did, as `build` prints it
- `planned.py`   one file of the plan: its site path, how to make it, what it reads
- `parallel.py`  worker processes over many items, on every core
- `lifeline.py`  helper processes that end with the build that started them
- `markdown/`    record bodies → sanitised HTML: renderers, the one HTML pass, links, cache
- `pages/`       the pages for people: templates, views, theme, feeds
- `agents/`      the files for agents: decisions.json, `.md` copies, llms.txt, AGENTS.md
- `search/`      the site's full-text search index
- `pictures/`    lineage pictures: layout and SVG
- `output/`      the one writer: staging, the whole-site exchange, the journal, lock and stamp
"""
