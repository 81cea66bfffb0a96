"""Runner tokens: what a runner on another machine shows the arena's runner API
(``/api/runner/…``, :mod:`hegemon.leaderboard.web.endpoints.runner_api`) instead of the
database's URL and password. An admin makes one (``hegemon runner-token create NAME``); its value
is shown once and only its sha256 is kept; it is good for running matches and nothing else (no
member's route accepts it, it is no member's token); revoked, it is refused at its next request.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Field, SQLModel, col, select

from hegemon.leaderboard.accounts.keys import digest, new_secret

from .database import Database, StoreError
from .models import UTCDateTime, utcnow

PREFIX = "hgr_"
"""Says what the value is, to a person or a secret scanner (a member's API token is ``hgm_``)."""

TOUCH_EVERY = timedelta(minutes=1)
""""Last used" is kept to the minute: not a write per request."""

NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


class RunnerTokenRow(SQLModel, table=True):
    """One runner token: its name (the runners using it are ``NAME/…`` in the claims), the
    sha256 of its value, and when it was made, last used and revoked."""

    __tablename__ = "runner_tokens"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_type=sa.String(64), unique=True)
    token_hash: str = Field(sa_type=sa.String(64), unique=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    last_used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


def create_runner_token(store: Database, name: str) -> str:
    """A new runner token called ``name``; returns its value (shown once, never stored)."""
    name = name.strip()
    if not name or len(name) > 64 or not set(name) <= NAME_CHARS:
        raise StoreError("a runner token's name is 1 to 64 letters, digits, '-', '_' or '.'")
    value = new_secret(PREFIX)
    with store.session(write=True) as s:
        if s.exec(select(RunnerTokenRow).where(col(RunnerTokenRow.name) == name)).first():
            raise StoreError(f"a runner token named {name!r} exists already")
        s.add(RunnerTokenRow(name=name, token_hash=digest(value)))
    return value


def runner_of(store: Database, value: str) -> str | None:
    """The name of the runner token ``value`` if it is one and not revoked (its use noted), else
    None."""
    if not value.startswith(PREFIX):
        return None
    with store.session() as s:
        row = s.exec(
            select(RunnerTokenRow).where(col(RunnerTokenRow.token_hash) == digest(value))
        ).first()
    if row is None or row.revoked_at is not None:
        return None
    now = utcnow()
    if row.last_used_at is None or now - row.last_used_at >= TOUCH_EVERY:
        with store.session(write=True) as s:
            s.exec(
                sa.update(RunnerTokenRow)
                .where(col(RunnerTokenRow.id) == row.id)
                .values(last_used_at=now)
            )
    return row.name


def runner_tokens(store: Database) -> Sequence[RunnerTokenRow]:
    """Every runner token, oldest first (revoked ones too)."""
    with store.session() as s:
        return s.exec(select(RunnerTokenRow).order_by(col(RunnerTokenRow.id))).all()


def revoke_runner_token(store: Database, name: str) -> bool:
    """Revoke the runner token ``name`` (at once: every request checks it); False: no such
    token, or revoked already."""
    with store.session(write=True) as s:
        result = s.exec(
            sa.update(RunnerTokenRow)
            .where(col(RunnerTokenRow.name) == name, col(RunnerTokenRow.revoked_at).is_(None))
            .values(revoked_at=utcnow())
        )
        return bool(result.rowcount)
