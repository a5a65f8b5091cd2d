"""Dates as other tools' folders write them: ISO, day first with `/` or `.`, month names.

`2016-02-12`, `2025-11- 05` (dasch-swiss/dsp-api), `12/02/2016` (adr-tools before ISO 8601),
`21.07.2017` (adoble/adr-j), `16 May 2025`, `2 Sept 2024`, `12 June 2026`
(DFE-Digital/publish-teacher-training), `Jan 29, 2021` (adoble/adr-j). A two-digit year
(`23/10/24`) is not read: which part is the year cannot be told. Pure functions.
"""

from __future__ import annotations

import re

# Spaces around the dashes are read too (`2025-11- 05`, dasch-swiss/dsp-api).
_ISO = re.compile(r"^(\d{4})[ \t]*-[ \t]*(\d{1,2})[ \t]*-[ \t]*(\d{1,2})(.*)$")
_DMY = re.compile(r"^(\d{1,2})([/.])(\d{1,2})\2(\d{4})(.*)$")
_ORDINAL = r"(?:st|nd|rd|th)?"
_NAMED_DMY = re.compile(rf"^(\d{{1,2}}){_ORDINAL}[ \t]+([A-Za-z]{{3,9}})\.?,?[ \t]+(\d{{4}})(.*)$")
_NAMED_MDY = re.compile(rf"^([A-Za-z]{{3,9}})\.?[ \t]+(\d{{1,2}}){_ORDINAL},?[ \t]+(\d{{4}})(.*)$")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
SPELLINGS = "YYYY-MM-DD, DD/MM/YYYY or '16 May 2025'"
"""The spellings read, for the message about a date that is none of them."""


def month_of(name: str) -> int | None:
    """The month a name or its abbreviation (at least three letters) says, or None."""
    lowered = name.lower()
    return next((number for number, month in enumerate(_MONTHS, 1)
                 if len(lowered) >= 3 and month.startswith(lowered)), None)


def read_date(text: str) -> tuple[int, int, int, str] | None:
    """(year, month, day, the text after the date) of a date as written, or None when the
    text does not start with one. The numbers are not checked (`2023-13-10` is returned)."""
    iso = _ISO.match(text)
    if iso:
        return int(iso[1]), int(iso[2]), int(iso[3]), iso[4]
    dmy = _DMY.match(text)
    if dmy:
        return int(dmy[4]), int(dmy[3]), int(dmy[1]), dmy[5]
    for pattern, day, month in ((_NAMED_DMY, 1, 2), (_NAMED_MDY, 2, 1)):
        named = pattern.match(text)
        number = month_of(named[month]) if named else None
        if named and number:
            return int(named[3]), number, int(named[day]), named[4]
    return None
