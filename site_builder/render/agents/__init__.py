"""The files for agents and machines.

- `artifacts.py`  decisions.json (and its schema), `.md` copies, llms.txt, llms-full.txt
- `guide.py`      AGENTS.md: what a coding agent should know of the published archive
- `agent_text.py` archive values made safe to write into the Markdown agents read
- `schema.py`     decisions.schema.json
- `agent_menu.py` the record page's menu that hands the record to an agent
"""
