"""How the pages write numbers, times and counts (plain text: the templates escape it)."""

from __future__ import annotations

from typing import Any


def num(value: Any, digits: int = 0) -> str:
    """A number to ``digits`` decimals ("" for none): ratings are whole numbers on the pages
    (a tenth of an Elo point means nothing; the JSON keeps one decimal)."""
    return "" if value is None else f"{value:.{digits}f}"


def minute(iso: str | None) -> str:
    """A stored time (ISO, UTC) to the minute: "2026-12-02 01:57"."""
    return "" if not iso else iso[:16].replace("T", " ")


def duration(seconds: float | None) -> str:
    """A game's duration as a person reads it: "42.0 s", "3 min 05 s", "1 h 02 min"."""
    if seconds is None:
        return ""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    return f"{minutes // 60} h {minutes % 60:02d} min"


def played(progress: dict[str, Any]) -> str:
    """``done of total`` (a ladder: ``done``, it never ends)."""
    if progress.get("ladder"):
        return f"{progress['done']} (ladder)"
    return f"{progress['done']} of {progress['total']}"


def share(progress: dict[str, Any]) -> float:
    """How full a season's progress bar is, in percent (a ladder's: full)."""
    if progress["total"] and not progress.get("ladder"):
        return float(100 * progress["done"] / progress["total"])
    return 100.0


def causes(groups: list[dict[str, Any]]) -> str:
    """Faults grouped by cause, "time-out (timeout): 3, illegal action (illegal): 2"."""
    return ", ".join(f"{g['cause']} ({g['kind']}): {g['count']}" for g in groups)


FILTERS = {
    "num": num,
    "minute": minute,
    "duration": duration,
    "played": played,
    "share": share,
    "causes": causes,
}
"""The filters the templates use (``{{ value | num(2) }}``)."""
