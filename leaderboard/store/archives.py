"""The ``bot_archives`` table: a registered bot's files, packed, keyed by their content hash
(see :mod:`hegemon.leaderboard.registry.archive` for the format). Rows are written once and
never changed: the key is the hash of what they hold."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from .models import UTCDateTime, utcnow


class BotArchiveRow(SQLModel, table=True):
    """One set of bot files, packed (a gzip'd tar of regular files), by content hash."""

    __tablename__ = "bot_archives"

    content_hash: str = Field(sa_type=sa.String(64), primary_key=True)
    data: bytes = Field(sa_type=sa.LargeBinary)
    size: int = Field(sa_type=sa.BigInteger)  # bytes of the files, unpacked
    files: int
    added_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
