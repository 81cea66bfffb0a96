"""Invitations: single-use sign-up codes an admin gives out, each for a role, until it expires."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from hegemon.leaderboard.store import (
    MEMBER,
    ROLES,
    InvitationRow,
    Store,
    StoreError,
    UserRow,
    utcnow,
)

from . import AccountError
from .keys import digest, new_secret
from .users import new_user

DEFAULT_LIFETIME = timedelta(days=7)


def create_invitation(
    store: Store, role: str = MEMBER, lifetime: timedelta = DEFAULT_LIFETIME
) -> str:
    """A new invitation's code (shown to the admin once; only its hash is kept)."""
    if role not in ROLES:
        raise AccountError(f"no such role: {role} (one of {', '.join(ROLES)})")
    if lifetime <= timedelta(0):
        raise AccountError("an invitation must last some time")
    code = new_secret("inv_")
    with store.session(write=True) as s:
        s.add(InvitationRow(code_hash=digest(code), role=role, expires_at=utcnow() + lifetime))
    return code


def redeem_invitation(store: Store, code: str, name: str, password: str) -> UserRow:
    """Sign up ``name`` with the invitation ``code``: the user and the code's use are written in
    one transaction, so a code makes one account however many try at once."""
    try:
        with store.session(write=True) as s:
            found = s.exec(
                select(InvitationRow).where(col(InvitationRow.code_hash) == digest(code))
            ).first()
            if found is None or found.used_by is not None:
                raise AccountError("this invitation is unknown or already used")
            if found.expires_at <= utcnow():
                raise AccountError("this invitation has expired")
            user = new_user(s, name, password, found.role)
            found.used_by, found.used_at = user.id, utcnow()
            s.add(found)
            return user
    except StoreError as exc:
        if isinstance(exc.__cause__, IntegrityError):
            raise AccountError(f"the name {name} is taken") from None
        raise
