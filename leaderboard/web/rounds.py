"""How many rounds a finished game lasted, read from its record: the round of the last
``turn_started`` event. The database does not keep it, and a record ends with its last
turn, so only the record's tail is read (more only when the last turn was very long)."""

from __future__ import annotations

import re
from pathlib import Path

_TURN = re.compile(rb'"event":"turn_started","player":\d+,"round":(\d+)')
TAIL = 64 * 1024
"""Bytes of a record's end read first (a turn's lines are far shorter, almost always)."""


def record_rounds(record_path: str) -> int | None:
    """The rounds of the game recorded at ``record_path`` (None: no record kept, or none
    begun: a game that ended in its set-up)."""
    if not record_path:
        return None
    path = Path(record_path)
    try:
        with path.open("rb") as f:
            size = f.seek(0, 2)
            tail = TAIL
            while True:
                f.seek(max(0, size - tail))
                found = _TURN.findall(f.read())
                if found or tail >= size:
                    return int(found[-1]) if found else None
                tail *= 4
    except OSError:
        return None
