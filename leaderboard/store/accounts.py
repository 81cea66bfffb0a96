"""The accounts' tables: users, invitations, sign-in sessions and API tokens.

Nothing secret is kept in clear: a password as its argon2id hash, an invitation code, a
session's cookie value and an API token as the sha256 of the random value handed out (see
:mod:`hegemon.leaderboard.accounts`, which reads and writes these rows).
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from .models import UTCDateTime, utcnow

ADMIN, MEMBER = "admin", "member"
ROLES = (ADMIN, MEMBER)


class UserRow(SQLModel, table=True):
    """A person who signs in: ``admin`` (the organisers) or ``member`` (a bot author)."""

    __tablename__ = "users"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_type=sa.String(64), unique=True)
    # the name's look-alike form (store.names), unique: no new name may look like this one
    name_skeleton: str | None = Field(default=None, sa_type=sa.String(64), index=True, unique=True)
    role: str = Field(default=MEMBER, sa_type=sa.String(16))  # admin | member
    password_hash: str = Field(sa_type=sa.String(200))  # argon2id, with its salt and parameters
    disabled: bool = False  # refused at sign-in, its sessions and tokens no longer work
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)

    @property
    def is_admin(self) -> bool:
        return self.role == ADMIN


class InvitationRow(SQLModel, table=True):
    """A single-use sign-up code, given out by an admin (``hegemon user invite``)."""

    __tablename__ = "invitations"

    id: int | None = Field(default=None, primary_key=True)
    code_hash: str = Field(sa_type=sa.String(64), unique=True)  # sha256 hex of the code
    role: str = Field(default=MEMBER, sa_type=sa.String(16))
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    expires_at: datetime = Field(sa_type=UTCDateTime)
    used_by: int | None = Field(default=None, foreign_key="users.id")
    used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class SessionRow(SQLModel, table=True):
    """A signed-in browser: the sha256 of its cookie's value, whose it is, until when."""

    __tablename__ = "user_sessions"

    id: int | None = Field(default=None, primary_key=True)
    key_hash: str = Field(sa_type=sa.String(64), unique=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    expires_at: datetime = Field(sa_type=UTCDateTime)


class ApiTokenRow(SQLModel, table=True):
    """A token for the command line (``Authorization: Bearer …``), shown once when made."""

    __tablename__ = "api_tokens"

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(sa_type=sa.String(64), unique=True)
    name: str = Field(sa_type=sa.String(100))  # what its owner called it ("laptop", …)
    user_id: int = Field(foreign_key="users.id", index=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    last_used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
