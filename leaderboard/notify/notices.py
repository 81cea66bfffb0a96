"""Notices: written for one member with a delivery queued for each of their hooks in the same
transaction (so a runner's part is one short database write, never a network call), then
listed, counted and marked read on the site."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlmodel import col, func, select

from hegemon.leaderboard.store import DeliveryRow, NoticeRow, Store, WebhookRow, utcnow

LIST_LIMIT = 100
"""Notices shown on the list, newest first."""


@dataclass(frozen=True)
class Notice:
    """What a member is told: its kind, a one-line title, a longer text, a path of the site,
    the event's data (the webhook's ``data``), and the bot it is about (if any)."""

    kind: str
    title: str
    body: str = ""
    link: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    bot_id: int | None = None


def payload(row: NoticeRow) -> dict[str, Any]:
    """A notice as its webhook delivery (and the API) says it."""
    return {
        "id": row.id,
        "event": row.kind,
        "created_at": row.created_at.isoformat(),
        "title": row.title,
        "body": row.body,
        "link": row.link,
        "read": row.read_at is not None,
        "data": row.data,
    }


def delivery_body(row: NoticeRow) -> str:
    """The exact JSON sent (and signed) for ``row``: no "read", which changes after sending."""
    sent = {k: v for k, v in payload(row).items() if k != "read"}
    return json.dumps(sent, sort_keys=True, separators=(",", ":"))


def notify(store: Store, user_id: int, notice: Notice) -> NoticeRow:
    """Write ``notice`` for ``user_id`` and queue its delivery to each of their hooks."""
    with store.session(write=True) as s:
        row = NoticeRow(
            user_id=user_id, kind=notice.kind, title=notice.title[:300], body=notice.body,
            link=notice.link, data=notice.data, bot_id=notice.bot_id,
        )  # fmt: skip
        s.add(row)
        s.flush()
        body = delivery_body(row)
        hooks = s.exec(select(WebhookRow.id).where(col(WebhookRow.user_id) == user_id)).all()
        for hook_id in hooks:
            assert hook_id is not None
            s.add(DeliveryRow(hook_id=hook_id, notice_id=row.id, event=row.kind, body=body))
        return row


def notices_of(store: Store, user_id: int, limit: int = LIST_LIMIT) -> Sequence[NoticeRow]:
    """``user_id``'s notices, newest first."""
    with store.session() as s:
        return s.exec(
            select(NoticeRow)
            .where(col(NoticeRow.user_id) == user_id)
            .order_by(col(NoticeRow.id).desc())
            .limit(limit)
        ).all()


def unread_count(store: Store, user_id: int) -> int:
    """How many of ``user_id``'s notices are unread (the top bar's number)."""
    with store.session() as s:
        return int(
            s.exec(
                select(func.count())
                .select_from(NoticeRow)
                .where(col(NoticeRow.user_id) == user_id, col(NoticeRow.read_at).is_(None))
            ).one()
        )


def mark_read(store: Store, user_id: int, notice_id: int | None = None) -> int:
    """Mark ``user_id``'s notice ``notice_id`` read (None: all of them); returns how many
    changed. Another member's notice is never touched."""
    where = [col(NoticeRow.user_id) == user_id, col(NoticeRow.read_at).is_(None)]
    if notice_id is not None:
        where.append(col(NoticeRow.id) == notice_id)
    with store.session(write=True) as s:
        done = s.exec(sa.update(NoticeRow).where(*where).values(read_at=utcnow()))
        return int(done.rowcount or 0)
