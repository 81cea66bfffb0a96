"""Users: adding, finding, listing, disabling, changing a password and signing in."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from hegemon.leaderboard.store import ROLES, ApiTokenRow, Store, StoreError, UserRow, utcnow
from hegemon.leaderboard.store.names import is_name, skeleton

from . import AccountError
from .passwords import check_new_password, hash_password, verify_password, waste_a_check


def check_name(name: str) -> str:
    """``name`` without surrounding spaces, or :class:`AccountError` unless it is a possible
    user name (the whole of it: ``"alice\\n"`` is ``alice``, ``"al ice"`` is none)."""
    name = name.strip()
    if not is_name(name):
        raise AccountError(
            f"not a user name: {name[:70]!r} (1 to 64 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit)"
        )
    return name


def new_user(session: Session, name: str, password: str, role: str) -> UserRow:
    """Add a user inside the caller's write ``session`` (raises :class:`AccountError` for a bad
    name, role or password, or a name that is, or looks like, one taken; one taken meanwhile
    fails when the session commits)."""
    name = check_name(name)
    if role not in ROLES:
        raise AccountError(f"no such role: {role} (one of {', '.join(ROLES)})")
    check_new_password(password)
    form = skeleton(name)
    taken = session.exec(
        select(UserRow.name).where(
            (col(UserRow.name) == name) | (col(UserRow.name_skeleton) == form)
        )
    ).first()
    if taken is not None:
        raise AccountError(_taken(name, taken))
    user = UserRow(name=name, name_skeleton=form, role=role, password_hash=hash_password(password))
    session.add(user)
    session.flush()
    return user


def add_user(store: Store, name: str, password: str, role: str) -> UserRow:
    """Add the user ``name`` with ``password`` and ``role`` (admin or member)."""
    try:
        with store.session(write=True) as s:
            return new_user(s, name, password, role)
    except StoreError as exc:
        if isinstance(exc.__cause__, IntegrityError):
            raise AccountError(_taken(name.strip(), None)) from None
        raise


def _taken(name: str, other: str | None) -> str:
    """Why ``name`` cannot be had: it is ``other``'s, or too like it (None: taken meanwhile)."""
    if other is None or other == name:
        return f"the name {name} is taken"
    return f"the name {name} is taken: it looks like {other}'s, which is taken"


def find_user(store: Store, name: str) -> UserRow | None:
    with store.session() as s:
        return s.exec(select(UserRow).where(col(UserRow.name) == name)).first()


def get_user(store: Store, name: str) -> UserRow:
    """The user ``name``, or :class:`AccountError` saying there is none."""
    user = find_user(store, name)
    if user is None:
        raise AccountError(f"no such user: {name[:70]}")
    return user


def list_users(store: Store) -> Sequence[UserRow]:
    with store.session() as s:
        return s.exec(select(UserRow).order_by(col(UserRow.name))).all()


def any_users(store: Store) -> bool:
    """Whether the arena has accounts at all (without any, the site has nothing to sign in to)."""
    with store.session() as s:
        return s.exec(select(UserRow.id).limit(1)).first() is not None


def set_disabled(store: Store, name: str, disabled: bool) -> UserRow:
    """Disable (or enable again) the user ``name``: a disabled user cannot sign in, and their
    sessions and tokens stop working at once (they are checked on every request)."""
    with store.session(write=True) as s:
        user = s.exec(select(UserRow).where(col(UserRow.name) == name)).first()
        if user is None:
            raise AccountError(f"no such user: {name[:70]}")
        user.disabled = disabled
        s.add(user)
        return user


def set_password(store: Store, user_id: int, password: str) -> int:
    """Give ``user_id`` the new ``password`` and revoke every API token they have (a token
    made with the old password, perhaps by whoever knew it, must not outlive it); returns
    how many tokens were revoked."""
    check_new_password(password)
    hashed = hash_password(password)
    with store.session(write=True) as s:
        user = s.get(UserRow, user_id)
        if user is None:
            raise AccountError("no such user")
        user.password_hash = hashed
        s.add(user)
        revoked = s.exec(
            sa.update(ApiTokenRow)
            .where(col(ApiTokenRow.user_id) == user_id, col(ApiTokenRow.revoked_at).is_(None))
            .values(revoked_at=utcnow())
        )
        return int(revoked.rowcount or 0)


def authenticate(store: Store, name: str, password: str) -> UserRow | None:
    """The user ``name`` if ``password`` is theirs, else None (in about the same time whether
    or not the name exists). A disabled user's right password raises :class:`AccountError`."""
    user = find_user(store, name.strip())
    if user is None:
        waste_a_check(password)
        return None
    if not verify_password(user.password_hash, password):
        return None
    if user.disabled:
        raise AccountError(f"the account {user.name} is disabled (ask an organiser)")
    return user
