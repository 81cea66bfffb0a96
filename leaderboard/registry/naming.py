"""Bot names: what a registered or submitted bot may be called (the whole name, spaces around
it dropped; one that looks like a registered name is refused when the version is added, see
:mod:`hegemon.leaderboard.store.names`)."""

from __future__ import annotations

from ..store import Store
from ..store.bots import name_taken
from ..store.names import is_name
from .quotas import QuotaError
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


def refuse_look_alike(store: Store, name: str) -> None:
    """Refuse (409, as the ownership of a name is) a new bot ``name`` that looks like a
    registered one, before any work is spent on its version."""
    other = store.look_alike(name)
    if other is not None:
        raise QuotaError(name_taken(name, other), 409)
