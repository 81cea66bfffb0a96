"""The notifications' tables: each member's notices (read or not), their webhooks, the queue of
deliveries to those hooks (with each one's log: status, attempts, last error), and who asked for
the daily digest (:mod:`hegemon.leaderboard.notify` writes and reads these rows).

A hook's secret is kept as given out: it must sign every delivery (HMAC-SHA256), which its hash
could not do. It is shown once, when the hook is made, and never again (see docs/security.md).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import JSON, Column
from sqlmodel import Field, SQLModel

from .models import UTCDateTime, utcnow

PENDING, SENT, FAILED = "pending", "sent", "failed"
"""A delivery's status: waiting for its next try, received (2xx), or given up."""


class NoticeRow(SQLModel, table=True):
    """Something a member should hear: a version checked, a bot's faults, a digest, …"""

    __tablename__ = "notices"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    kind: str = Field(sa_type=sa.String(32))  # version.checked, bot.faults, digest, …
    title: str = Field(sa_type=sa.String(300))
    body: str = Field(default="", sa_type=sa.Text)
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))  # the webhook's payload
    link: str = Field(default="", sa_type=sa.String(300))  # a path of the site
    bot_id: int | None = Field(default=None, foreign_key="bots.id", index=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    read_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class WebhookRow(SQLModel, table=True):
    """A member's URL that receives their notices as signed JSON."""

    __tablename__ = "webhooks"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    url: str = Field(sa_type=sa.String(2000))
    secret: str = Field(sa_type=sa.String(100))  # signs deliveries; never shown after creation
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class DeliveryRow(SQLModel, table=True):
    """One notice to one hook: the exact body signed, and how its sending went."""

    __tablename__ = "deliveries"

    id: int | None = Field(default=None, primary_key=True)
    hook_id: int = Field(foreign_key="webhooks.id", index=True)
    notice_id: int | None = Field(default=None, foreign_key="notices.id")
    event: str = Field(sa_type=sa.String(32))
    body: str = Field(sa_type=sa.Text)
    status: str = Field(default=PENDING, sa_type=sa.String(16), index=True)
    attempts: int = 0
    next_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    last_code: int | None = None  # the receiver's last HTTP status
    last_error: str | None = Field(default=None, sa_type=sa.Text)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    sent_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class NoticePrefsRow(SQLModel, table=True):
    """A member's choices: the daily digest (opt-in), and when it was last made."""

    __tablename__ = "notice_prefs"

    user_id: int = Field(foreign_key="users.id", primary_key=True)
    digest: bool = False
    last_digest_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
