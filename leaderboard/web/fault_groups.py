"""A bot's faults grouped by cause with a count ("time-out (timeout): 3"): what a visitor
reads at a glance. Only the kind of each fault is used, which every viewer may see; the
details stay with the fault rows (:mod:`.visibility` hides them from non-owners)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

CAUSES = {
    "timeout": "time-out",
    "memory": "memory ceiling",
    "cpu": "CPU ceiling",
    "illegal": "illegal action",
    "crash": "crash",
    "startup": "failed to start",
    "protocol": "protocol error",
}
"""The cause a person reads for each fault kind the runner records."""


def group_faults(kinds: Iterable[Any]) -> list[dict[str, Any]]:
    """``[{"cause", "kind", "count"}]`` of ``kinds``, most frequent first (ties by kind)."""
    counts = Counter(str(kind) for kind in kinds)
    return [
        {"cause": CAUSES.get(kind, kind), "kind": kind, "count": n}
        for kind, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    ]


def kinds_by_bot(games: Iterable[tuple[list[int], list[Any]]]) -> dict[int, list[str]]:
    """The kinds of the faults of each bot id in ``games`` (each: its seats' bot ids and its
    stored faults, whose ``seat`` says whose fault it was)."""
    kinds: dict[int, list[str]] = {}
    for seats, faults in games:
        for f in faults or []:
            seat = f.get("seat", -1) if isinstance(f, dict) else -1
            if isinstance(seat, int) and 0 <= seat < len(seats):
                kinds.setdefault(seats[seat], []).append(str(f.get("kind")))
    return kinds
