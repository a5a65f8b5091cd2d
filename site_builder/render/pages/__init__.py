"""The pages for people, each kind rendered from its Jinja2 template.

- `templates.py`       every page kind rendered from its template, with what each reads
- `rendering.py`       `render_pages`: every page, the theme files and the release, to a writer
- `views.py`           what the templates show, as plain values
- `page_parts.py`      links from a page and listing rows
- `urls.py`            links between the files of the site
- `theme.py`           templates and theme files: built-in, overridden per archive
- `csp.py`             the pages' Content-Security-Policy
- `feeds.py`           feed.xml, sitemap.xml and robots.txt
- `mermaid_release.py` the Mermaid release the theme ships
"""
