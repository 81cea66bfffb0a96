"""A delivery's signature: the HMAC-SHA256 of its exact body under its hook's secret, sent as
``X-Hegemon-Signature: sha256=<hex>`` (GitHub's scheme), and the check a receiver makes."""

from __future__ import annotations

import hashlib
import hmac

HEADER = "X-Hegemon-Signature"
PREFIX = "sha256="


def signature(secret: str, body: bytes) -> str:
    """The header's value for ``body`` signed with ``secret``.

    >>> signature("s", b"{}")
    'sha256=143ca8d517ba1b181025d732b1cf275d90104fca57bb02a565542978aa18c4b6'
    """
    return PREFIX + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify(secret: str, body: bytes, header: str) -> bool:
    """Whether ``header`` is ``body``'s signature under ``secret`` (compared in constant time)."""
    return hmac.compare_digest(signature(secret, body), header)
