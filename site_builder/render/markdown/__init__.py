"""Record bodies → sanitised HTML, rendered once per body and cached.

- `renderers.py`       the Markdown renderers a site can choose: text → raw HTML
- `to_html.py`         a body → sanitised HTML with its table of contents
- `html_pass.py`       the one pass every renderer's HTML goes through
- `links.py`           links between source files, rewritten for the pages
- `headings.py`        heading ids and the table of contents, as data
- `highlight.py`       fenced code highlighted by Pygments at build time
- `lexers.py`          Pygments lexers, their patterns compiled once per machine
- `lexing.py`          a lexer's rules tried with one pattern per state
- `diagrams.py`        Mermaid fences kept as code, found again by the pages
- `sanitise.py`        HTML reduced to an allow-list with nh3
- `table_alignment.py` Python-Markdown's column alignment as a class
- `title_html.py`      titles with inline code, as HTML
- `bodies.py`          every body rendered once, in worker processes
- `body_cache.py`      rendered bodies on disk, in one SQLite database
"""
