"""Passwords: hashed with argon2id (memory-hard), checked, and rules for a new one."""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from . import AccountError

MIN_LENGTH = 10
MAX_LENGTH = 1000  # argon2 takes any length; a megabyte "password" would only cost us time


@cache
def _hasher() -> PasswordHasher:
    return PasswordHasher()  # argon2id with the library's (RFC 9106 low-memory) parameters


def check_new_password(password: str) -> None:
    """Raise :class:`AccountError` if ``password`` is not acceptable as a new password."""
    if len(password) < MIN_LENGTH:
        raise AccountError(f"a password needs at least {MIN_LENGTH} characters")
    if len(password) > MAX_LENGTH:
        raise AccountError(f"a password may have at most {MAX_LENGTH} characters")


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (salt and parameters included), as stored."""
    return _hasher().hash(password)


def verify_password(stored: str, password: str) -> bool:
    """Whether ``password`` matches the ``stored`` hash (False for a malformed hash)."""
    if len(password) > MAX_LENGTH:
        return False
    try:
        return _hasher().verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


@cache
def _decoy() -> str:
    return hash_password("no such user: this hash only costs the same time")


def waste_a_check(password: str) -> None:
    """Spend a password check's time for a name that does not exist, so the time of an answer
    does not tell whether an account exists."""
    verify_password(_decoy(), password)
