"""Random values handed out once (session cookies, API tokens, invitation codes) and the only
thing kept of them: their sha256."""

from __future__ import annotations

import hashlib
import secrets


def new_secret(prefix: str = "") -> str:
    """256 random bits, URL-safe, after ``prefix`` (which says what the value is for)."""
    return prefix + secrets.token_urlsafe(32)


def digest(value: str) -> str:
    """The sha256 (hex) under which ``value`` is stored and looked up.

    >>> digest("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
