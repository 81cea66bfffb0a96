"""Signed-in browsers: a random cookie value handed out at sign-in, kept only as its sha256."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import col, delete, select

from hegemon.leaderboard.store import SessionRow, Store, UserRow, utcnow

from .keys import digest, new_secret

LIFETIME = timedelta(days=14)


def open_session(store: Store, user_id: int, lifetime: timedelta = LIFETIME) -> str:
    """A new session of ``user_id``: the cookie value (given to the browser, never stored)."""
    key = new_secret()
    now = utcnow()
    with store.session(write=True) as s:
        # sign-in is a good moment to forget the sessions that have expired
        s.exec(delete(SessionRow).where(col(SessionRow.expires_at) <= now))
        s.add(SessionRow(key_hash=digest(key), user_id=user_id, expires_at=now + lifetime))
    return key


def session_user(store: Store, key: str) -> UserRow | None:
    """Whose session the cookie value ``key`` is, if it is current and they are not disabled."""
    with store.session() as s:
        found = s.exec(
            select(UserRow, SessionRow.expires_at)
            .join(SessionRow, col(SessionRow.user_id) == col(UserRow.id))
            .where(col(SessionRow.key_hash) == digest(key))
        ).first()
    if found is None or found[1] <= utcnow() or found[0].disabled:
        return None
    return found[0]


def close_session(store: Store, key: str) -> None:
    """Sign out: the session of the cookie value ``key`` is forgotten."""
    with store.session(write=True) as s:
        s.exec(delete(SessionRow).where(col(SessionRow.key_hash) == digest(key)))


def close_user_sessions(store: Store, user_id: int) -> None:
    """Every session of ``user_id`` ends (after a password change)."""
    with store.session(write=True) as s:
        s.exec(delete(SessionRow).where(col(SessionRow.user_id) == user_id))
