"""The labels of a game's seats: each bot's own name, numbered where names repeat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..bottext import bot_name


def seat_labels(links: Sequence[Any]) -> list[str]:
    """Seat labels for a game: each bot's ``Hello`` name (its command's name when it said
    none or never started), numbered where the same name sits in more than one seat."""
    names = []
    for link in links:
        hello = getattr(link, "hello", None)
        said = bot_name(getattr(hello, "name", ""))  # the bot's text: made inert
        names.append(said or link.name)
    return number_duplicates(names)


def number_duplicates(names: Sequence[str]) -> list[str]:
    """``names`` with ``#1``, ``#2``… added where a name appears more than once."""
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if names.count(name) == 1 else f"{name}#{seen[name]}")
    return labels
