"""The JSON the archive is published as, declared once: schemas and readers derive from it.

- `records.py`  the record's JSON shape and every tool's parameters
- `answers.py`  every tool's answer, as the `outputSchema` tools/list gives
- `index.py`    decisions.json as a whole: what a build writes and a reader takes back
- `validate.py` a value checked against the part of JSON Schema the contract uses
"""
