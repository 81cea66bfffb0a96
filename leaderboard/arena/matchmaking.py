"""The ladders' matchmaker in the arena's loop: each ladder's queue of pending matches topped up
(:func:`hegemon.leaderboard.ladder.matchmaker.fill_queue`, which leaves other seasons alone)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ..store import FINISHED, Store


def _fill_queue() -> Callable[[Store, Any], int] | None:
    # by name: the ladders are a part of their own, which this arena runs where it exists
    try:
        module = importlib.import_module("hegemon.leaderboard.ladder.matchmaker")
    except ImportError:  # a hegemon without ladders
        return None
    fill: Callable[[Store, Any], int] = module.fill_queue
    return fill


def fill_ladders(store: Store) -> int:
    """Top up every ladder's queue once; returns the matches created."""
    fill = _fill_queue()
    if fill is None:
        return 0
    return sum(fill(store, season) for season in store.seasons() if season.status != FINISHED)
