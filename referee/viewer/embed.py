"""Data embedded in a page: JSON inside a ``<script>`` element that no string in it (a bot's
name, an error message) can break out of or change how the page parses."""

from __future__ import annotations

import json
from typing import Any

_INERT = str.maketrans(
    {
        "<": "\\u003c",  # no </script>, <!--, <script> …
        ">": "\\u003e",
        "&": "\\u0026",
    }
)


def script_json(data: Any) -> str:
    """``data`` as JSON text safe inside a ``<script>`` element: ``<``, ``>`` and ``&`` are
    written as ``\\u003c``-style escapes (the same value to a JSON parser), so the text holds
    none of the characters HTML's script parsing looks for. Everything beyond ASCII is
    escaped too (U+2028 and U+2029 included, line ends to a JavaScript parser)."""
    return json.dumps(data, separators=(",", ":")).translate(_INERT)
