"""Lineage pictures: which record replaced which, laid out and drawn at build time.

- `lineage.py`     the lineage of decisions as pictures to draw
- `layered.py`     a layered layout of one small directed graph, left to right
- `lineage_svg.py` a lineage picture as SVG or Graphviz DOT
"""
