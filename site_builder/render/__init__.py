"""Archive → files: the HTML site for people and the agent-facing artifacts.

urls.py decides where every output file lives and how pages link to each other;
markdown.py renders bodies; pages.py renders Jinja2 templates; artifacts.py writes the files
for agents; output.py is the one writer, which stages a build and swaps it in atomically.
"""
