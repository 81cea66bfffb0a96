"""Route parameters checked before they reach the database: an id that is not a plain decimal
number a database column can hold (30 digits, ``²``, ``-1``) names nothing, so the page is a
404 with a message, never a 500."""

from __future__ import annotations

MAX_ID = 2**63 - 1
"""The largest id a database integer column holds."""


def database_id(text: object) -> int | None:
    """``text`` as a database id (ASCII digits, at most :data:`MAX_ID`), else None."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text if 0 <= text <= MAX_ID else None
    value = str(text)
    if not (value.isascii() and value.isdigit()) or len(value) > len(str(MAX_ID)):
        return None
    number = int(value)
    return number if number <= MAX_ID else None
