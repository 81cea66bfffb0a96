"""A member's webhooks: an http(s) URL and a secret that signs each delivery, handed out once
when the hook is made; listed with their last deliveries (the delivery log); removed with
their queue."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import sqlalchemy as sa
from sqlmodel import col, select

from hegemon.leaderboard.accounts.keys import new_secret
from hegemon.leaderboard.store import DeliveryRow, Store, WebhookRow

PREFIX = "whsec_"  # says what the value is, to a person or a secret scanner
MAX_HOOKS = 5
"""Hooks per member: each notice is sent to every one."""
LOG_LENGTH = 20
"""Deliveries shown per hook on the account page."""


class HookError(ValueError):
    """A hook refused, said in one line for its member."""


@dataclass(frozen=True)
class HookLog:
    """A hook (never its secret) and its last deliveries, newest first."""

    id: int
    url: str
    deliveries: Sequence[DeliveryRow]


def check_url(url: str) -> str:
    """``url`` if a hook may send to it (http or https, a host, at most 2000 characters)."""
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise HookError("a hook needs an http:// or https:// URL with a host")
    if len(url) > 2000 or any(c.isspace() for c in url):
        raise HookError("a hook's URL has at most 2000 characters and no spaces")
    return url


def add_hook(store: Store, user_id: int, url: str) -> tuple[WebhookRow, str]:
    """A new hook of ``user_id`` to ``url``: its row and its secret (to show once)."""
    url = check_url(url)
    secret = new_secret(PREFIX)
    with store.session(write=True) as s:
        count = len(s.exec(select(WebhookRow.id).where(col(WebhookRow.user_id) == user_id)).all())
        if count >= MAX_HOOKS:
            raise HookError(f"at most {MAX_HOOKS} hooks: remove one first")
        row = WebhookRow(user_id=user_id, url=url, secret=secret)
        s.add(row)
        s.flush()
    return row, secret


def remove_hook(store: Store, user_id: int, hook_id: int) -> None:
    """Remove ``user_id``'s hook ``hook_id`` and its deliveries (sent or not)."""
    with store.session(write=True) as s:
        hook = s.get(WebhookRow, hook_id)
        if hook is None or hook.user_id != user_id:
            raise HookError("no such hook of yours")
        s.exec(sa.delete(DeliveryRow).where(col(DeliveryRow.hook_id) == hook_id))
        s.delete(hook)


def hook_logs(store: Store, user_id: int, length: int = LOG_LENGTH) -> list[HookLog]:
    """``user_id``'s hooks, each with its last ``length`` deliveries."""
    with store.session() as s:
        hooks = s.exec(
            select(WebhookRow)
            .where(col(WebhookRow.user_id) == user_id)
            .order_by(col(WebhookRow.id))
        ).all()
        logs = []
        for hook in hooks:
            assert hook.id is not None
            deliveries = s.exec(
                select(DeliveryRow)
                .where(col(DeliveryRow.hook_id) == hook.id)
                .order_by(col(DeliveryRow.id).desc())
                .limit(length)
            ).all()
            logs.append(HookLog(hook.id, hook.url, deliveries))
        return logs
