"""CSRF tokens: a form's hidden token is derived from a secret only the browser's cookie
holds (the session's value once signed in, a random pre-sign-in value before), so another site
can neither read nor forge it."""

from __future__ import annotations

import hashlib
import hmac

FIELD = "csrf"  # the form field
HEADER = "x-csrf-token"  # or this header, for scripts


def csrf_token(secret: str) -> str:
    """The token of forms shown to the holder of the cookie value ``secret``."""
    return hmac.new(secret.encode(), b"hegemon csrf", hashlib.sha256).hexdigest()


def csrf_valid(secret: str | None, given: str | None) -> bool:
    """Whether ``given`` is the token of ``secret`` (compared in constant time)."""
    if not secret or not given:
        return False
    return hmac.compare_digest(csrf_token(secret), given)
