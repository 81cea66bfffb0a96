"""Bot names: what a registered or submitted bot may be called (the whole name, spaces around
it dropped; one that looks like a registered name is refused when the version is added, see
:mod:`hegemon.leaderboard.store.names`)."""

from __future__ import annotations

from ..store.names import is_name
from .sources import RegistryError


def validate_name(name: str) -> str:
    """``name`` without surrounding spaces, or :class:`RegistryError` unless it is a bot name."""
    name = name.strip()
    if not is_name(name):
        raise RegistryError(
            f"bad bot name {name[:70]!r}: use letters, digits, '_', '-', '.' "
            "(up to 64, starting with a letter or digit)"
        )
    return name
