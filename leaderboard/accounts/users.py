"""Users: adding, finding, listing, disabling, changing a password and signing in."""

from __future__ import annotations

import re
from collections.abc import Sequence

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from hegemon.leaderboard.store import ROLES, Store, StoreError, UserRow

from . import AccountError
from .passwords import check_new_password, hash_password, verify_password, waste_a_check

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def check_name(name: str) -> None:
    """Raise :class:`AccountError` unless ``name`` is a possible user name."""
    if not NAME.match(name):
        raise AccountError(
            f"not a user name: {name[:70]!r} (1 to 64 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit)"
        )


def new_user(session: Session, name: str, password: str, role: str) -> UserRow:
    """Add a user inside the caller's write ``session`` (raises :class:`AccountError` for a bad
    name, role or password; a name already taken fails when the session commits)."""
    check_name(name)
    if role not in ROLES:
        raise AccountError(f"no such role: {role} (one of {', '.join(ROLES)})")
    check_new_password(password)
    if session.exec(select(UserRow.id).where(col(UserRow.name) == name)).first() is not None:
        raise AccountError(f"the name {name} is taken")
    user = UserRow(name=name, role=role, password_hash=hash_password(password))
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
            raise AccountError(f"the name {name} is taken") from None
        raise


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


def set_password(store: Store, user_id: int, password: str) -> None:
    check_new_password(password)
    with store.session(write=True) as s:
        user = s.get(UserRow, user_id)
        if user is None:
            raise AccountError("no such user")
        user.password_hash = hash_password(password)
        s.add(user)


def authenticate(store: Store, name: str, password: str) -> UserRow | None:
    """The user ``name`` if ``password`` is theirs, else None (in about the same time whether
    or not the name exists). A disabled user's right password raises :class:`AccountError`."""
    user = find_user(store, name)
    if user is None:
        waste_a_check(password)
        return None
    if not verify_password(user.password_hash, password):
        return None
    if user.disabled:
        raise AccountError(f"the account {user.name} is disabled (ask an organiser)")
    return user
