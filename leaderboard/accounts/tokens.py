"""API tokens for the command line: random, shown once, kept as their sha256, listed with their
last use, revocable."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from sqlmodel import col, select

from hegemon.leaderboard.store import ApiTokenRow, Store, UserRow, utcnow

from . import AccountError
from .keys import digest, new_secret

PREFIX = "hgm_"  # says what the value is, to a person or to a secret scanner
TOUCH_EVERY = timedelta(minutes=1)  # "last used" is kept to the minute: not a write per call


def create_token(store: Store, user_id: int, name: str) -> tuple[ApiTokenRow, str]:
    """A new token of ``user_id`` called ``name``: its row and its value (shown once)."""
    name = name.strip()
    if not name or len(name) > 100:
        raise AccountError("a token needs a name of 1 to 100 characters")
    value = new_secret(PREFIX)
    with store.session(write=True) as s:
        row = ApiTokenRow(token_hash=digest(value), name=name, user_id=user_id)
        s.add(row)
        s.flush()
    return row, value


def token_user(store: Store, value: str) -> UserRow | None:
    """Whose token ``value`` is, if it is not revoked and they are not disabled; notes its use."""
    with store.session() as s:
        found = s.exec(
            select(UserRow, ApiTokenRow)
            .join(ApiTokenRow, col(ApiTokenRow.user_id) == col(UserRow.id))
            .where(col(ApiTokenRow.token_hash) == digest(value))
        ).first()
    if found is None:
        return None
    user, token = found
    if token.revoked_at is not None or user.disabled:
        return None
    now = utcnow()
    if token.last_used_at is None or now - token.last_used_at >= TOUCH_EVERY:
        with store.session(write=True) as s:
            token.last_used_at = now
            s.add(token)
    return user


def list_tokens(store: Store, user_id: int) -> Sequence[ApiTokenRow]:
    """The tokens of ``user_id``, newest first (revoked ones too, marked)."""
    with store.session() as s:
        return s.exec(
            select(ApiTokenRow)
            .where(col(ApiTokenRow.user_id) == user_id)
            .order_by(col(ApiTokenRow.id).desc())
        ).all()


def revoke_token(store: Store, user_id: int, token_id: int) -> ApiTokenRow:
    """Revoke the token ``token_id`` of ``user_id`` (at once: it is checked on every call)."""
    with store.session(write=True) as s:
        token = s.get(ApiTokenRow, token_id)
        if token is None or token.user_id != user_id:
            raise AccountError(f"no such token: {token_id}")
        if token.revoked_at is None:
            token.revoked_at = utcnow()
            s.add(token)
        return token


def password_changed(revoked: int) -> str:
    """What a user is told when their password changed and ``revoked`` API tokens went."""
    tokens = (
        "no API token was"
        if revoked == 0
        else ("your API token is" if revoked == 1 else f"your {revoked} API tokens are")
    )
    return f"Your password is changed: your other browsers are signed out and {tokens} revoked" + (
        "." if revoked == 0 else " (sign in again on the command line: hegemon login URL)."
    )
