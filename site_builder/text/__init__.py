"""The text formats records are written in, read with the line of everything found.

- `yamlfile.py`    YAML for site.yml, `_project.yml` and front matter, with the line of every key
- `yaml_subset.py` the plain subset of YAML front matter nearly always uses, read fast
- `gfm.py`         Markdown → HTML with cmark-gfm, GitHub's own renderer
"""
