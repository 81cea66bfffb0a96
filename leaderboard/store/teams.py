"""The teams' tables: a team (its name and its owner) and its members, each invited by the
owner and a member once they accept (:mod:`hegemon.leaderboard.accounts.teams` writes and
reads these rows; a bot a team owns has its ``team_id``)."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel, col, select

from .database import Database
from .models import UTCDateTime, utcnow

INVITED, JOINED = "invited", "member"
"""A membership's state: asked by the owner, not yet accepted; a member of the team."""


class TeamRow(SQLModel, table=True):
    """A team: its name (the users' and bots' name rules, :mod:`.names`) and its owner."""

    __tablename__ = "teams"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_type=sa.String(64), unique=True)
    # the name's look-alike form: a new team's may not be another team's
    name_skeleton: str = Field(sa_type=sa.String(64), unique=True)
    owner_id: int = Field(foreign_key="users.id", index=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class TeamMemberRow(SQLModel, table=True):
    """One user's place in a team: invited, or a member (the owner is one from the start)."""

    __tablename__ = "team_members"

    team_id: int = Field(foreign_key="teams.id", primary_key=True)
    user_id: int = Field(foreign_key="users.id", primary_key=True, index=True)
    state: str = Field(default=INVITED, sa_type=sa.String(16))
    invited_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    joined_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


def team_names(db: Database) -> dict[int, str]:
    """Every team's id → its name (one read, for the pages that name a bot's team)."""
    with db.session() as s:
        return {i: n for i, n in s.exec(select(col(TeamRow.id), col(TeamRow.name))) if i}
