"""The JSON the archive is published as, declared once: schemas and readers derive from it.

- `records.py`  the record's JSON shape; `Param`/`Parameters`, what tools and prompts take
- `answers.py`  the shapes of the tools' answers, which each tool's row declares
- `index.py`    decisions.json as a whole: what a build writes and a reader takes back
- `validate.py` a value checked against the part of JSON Schema the contract uses
"""
