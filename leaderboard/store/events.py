"""The final events' table: one row beside each event's season (``seasons.kind`` = ``event``),
holding how it is played, the hash of its seed published beforehand, the first match number
of each round made so far, and its final standings once it ends
(:mod:`hegemon.leaderboard.events` writes and reads these rows)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import JSON, Column
from sqlmodel import Field, SQLModel

from .models import UTCDateTime, utcnow


class EventRow(SQLModel, table=True):
    """A final event: its season plays the games; the entrants are the season's bot versions
    (frozen at entry, best first)."""

    __tablename__ = "events"

    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="seasons.id", unique=True)
    format: str = Field(sa_type=sa.String(16))  # round-robin | swiss | knockout
    advance: int = 0  # a knockout: the top of each table going on
    rounds: int = 1  # rounds planned
    rotate: bool = True  # each table plays every rotation of its seats
    source: str = Field(default="", sa_type=sa.String(300))  # where its entrants came from
    seed_hash: str = Field(sa_type=sa.String(64))  # sha256 commitment to the season's seed
    # the first match number of each round made so far
    round_starts: list[int] = Field(sa_column=Column(JSON, nullable=False))
    # once ended: [{"bot_id", "place", "points"}] best first
    standings: list[dict[str, Any]] | None = Field(default=None, sa_column=Column(JSON))
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
