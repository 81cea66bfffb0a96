"""The challenges' table: a member's unrated test games of one of their versions, each a small
season of kind ``challenge`` (its matches, games, records and logs are a season's) with who
asked, which version, against whom and when its finish was told
(:mod:`hegemon.leaderboard.challenges` makes and reads these rows)."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy import JSON, Column
from sqlmodel import Field, SQLModel

from .models import UTCDateTime, utcnow


class ChallengeRow(SQLModel, table=True):
    """One challenge: ``season_id`` holds its games; ``bot_id`` the version tested,
    ``opponents`` the bot versions it plays (in the order asked)."""

    __tablename__ = "challenges"

    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="seasons.id", unique=True)
    owner_id: int = Field(foreign_key="users.id", index=True)
    bot_id: int = Field(foreign_key="bots.id", index=True)
    opponents: list[int] = Field(sa_column=Column(JSON, nullable=False))
    games: int
    ladder_id: int | None = Field(default=None, foreign_key="seasons.id")  # rules taken from
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    notified_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # its finish told
    note: str = Field(default="", sa_type=sa.String(200))  # how the opponents were chosen
