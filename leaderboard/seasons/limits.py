"""The season runner's tunable limits, in a module light enough for ``hegemon --help`` to read
them as option defaults (the runner itself imports trio and the database)."""

from __future__ import annotations

DEFAULT_STALE_AFTER = 180.0
"""Seconds after which another runner's claim counts as abandoned (its runner died)."""

DEFAULT_MAX_ATTEMPTS = 3
"""Plays of one match spoiled by arena faults before it is given up as void."""
