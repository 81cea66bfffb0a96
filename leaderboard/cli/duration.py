"""Durations as the live display and ``season status`` show them."""

from __future__ import annotations

import math


def format_duration(seconds: float | None) -> str:
    """``1h05m``, ``3m07s``, ``42s``; ``–`` when unknown.

    >>> format_duration(3907), format_duration(187), format_duration(None)
    ('1h05m', '3m07s', '–')
    """
    if seconds is None or math.isinf(seconds) or math.isnan(seconds):
        return "–"
    seconds = round(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"
