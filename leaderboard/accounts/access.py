"""Who sees what: everything is public except a bot's logs, fault details and files, which only
its owner and the admins see. A bot without an owner belongs to the organiser (the admins)."""

from __future__ import annotations

from hegemon.leaderboard.store import UserRow


def sees_private(user: UserRow | None, owner_id: int | None) -> bool:
    """Whether ``user`` (None: anonymous) may see the private parts of a bot owned by
    ``owner_id`` (None: the organiser's)."""
    if user is None or user.disabled:
        return False
    return user.is_admin or (owner_id is not None and owner_id == user.id)
