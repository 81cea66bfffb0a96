"""Signing in with a name and password, on the site (``/login``) and for the command line
(``POST /api/tokens``, ``hegemon login``): the password checked only when the throttle lets the
attempt begin, and the attempt ended as it went."""

from __future__ import annotations

from dataclasses import dataclass

from hegemon.leaderboard.store import Store, UserRow

from . import AccountError
from .throttle import LoginThrottle
from .users import authenticate


@dataclass(frozen=True)
class Refusal:
    """Why a sign-in was refused, and its HTTP status."""

    status: int
    why: str


TOO_MANY = Refusal(429, "too many failed sign-ins: wait a few minutes and try again")


def check_password(
    store: Store, throttle: LoginThrottle, name: str, password: str, address: str
) -> UserRow | Refusal:
    """The user ``name`` if ``password`` is theirs, else why not; the attempt is counted
    against ``name`` from ``address`` and against ``address`` (see :mod:`.throttle`)."""
    if throttle.attempt(name, address) > 0:
        return TOO_MANY
    right = False
    try:
        user = authenticate(store, name, password)
        right = user is not None
    except AccountError as exc:  # the right password, of a disabled account
        right = True
        return Refusal(403, str(exc))
    finally:
        (throttle.succeeded if right else throttle.failed)(name, address)
    if user is None:
        return Refusal(401, "wrong name or password")
    return user
