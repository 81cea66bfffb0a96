"""How many rounds a finished game lasted, read from its local record: the round of the last
``turn_started`` event. A record ends with its last turn, so only the record's tail is read
(more only when the last turn was very long). A record stored in the database has the figure
stored with it (:mod:`hegemon.leaderboard.store.records`)."""

from __future__ import annotations

from pathlib import Path

from hegemon.leaderboard.store.records import TAIL, TURN_STARTED


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
                found = TURN_STARTED.findall(f.read())
                if found or tail >= size:
                    return int(found[-1]) if found else None
                tail *= 4
    except OSError:
        return None
