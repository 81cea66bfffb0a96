"""Passwords: hashed with argon2id (memory-hard), checked, and rules for a new one."""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from . import AccountError

MIN_LENGTH = 10
MAX_LENGTH = 1000  # argon2 takes any length; a megabyte "password" would only cost us time

COST = "HEGEMON_PASSWORD_COST"
"""``test``: hash with argon2id's least parameters, for the test suite only (honoured only
beside ``HEGEMON_TESTING=1``, refused otherwise): a test signs up and in hundreds of times, and
each hash at the real parameters costs about 0.2 CPU-seconds. A stored hash names its own
parameters, so a server at the real cost still checks it."""


def refused_cost(environ: Mapping[str, str]) -> str | None:
    """Why ``environ``'s :data:`COST` setting is refused, in one line; None if it is honoured
    (or absent)."""
    cost = environ.get(COST, "")
    if cost and cost != "test":
        return f"{COST}={cost!r} is not a setting: its only value is 'test'"
    if cost and environ.get("HEGEMON_TESTING") != "1":
        return f"{COST}=test is for the test suite only: it is refused without HEGEMON_TESTING=1"
    return None


def hasher_for(environ: Mapping[str, str]) -> PasswordHasher:
    """The hasher the settings in ``environ`` choose; :class:`AccountError` for a setting that
    is refused."""
    refused = refused_cost(environ)
    if refused is not None:
        raise AccountError(refused)
    if environ.get(COST):
        return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)  # argon2's least
    return PasswordHasher()  # argon2id with the library's (RFC 9106 low-memory) parameters


@cache
def _hasher() -> PasswordHasher:
    return hasher_for(os.environ)


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
