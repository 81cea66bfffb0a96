"""A season's progress from its counter row (``season_progress``), which triggers on
``matches`` keep in the transaction that moves a match (migration ``0019_season_progress``):
reading it costs one row whatever the season's length, plus the claims in play (a handful, by
the index of season and status)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import func
from sqlmodel import Field, Session, SQLModel, col, select

from .models import CLAIMED, EVENT, FINISHED, LADDER, MatchRow, SeasonProgress, SeasonRow, utcnow


class SeasonProgressRow(SQLModel, table=True):
    """A season's matches by status and their voided plays, counted by the database."""

    __tablename__ = "season_progress"

    season_id: int = Field(
        sa_column=sa.Column(
            sa.Integer(),
            sa.ForeignKey("seasons.id", ondelete="CASCADE"),
            primary_key=True,
            autoincrement=False,
        )
    )
    total: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    pending: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    claimed: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    done: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    void: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    attempts: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


def season_progress(s: Session, season_id: int) -> SeasonProgress:
    """The season's progress read in ``s``: its counter row and who holds its claims."""
    row = s.get(SeasonProgressRow, season_id)
    workers = s.exec(
        select(col(MatchRow.worker), func.count())
        .where(col(MatchRow.season_id) == season_id, col(MatchRow.status) == CLAIMED)
        .group_by(col(MatchRow.worker))
    ).all()
    if row is None:  # a season without matches (yet: a ladder before its first table)
        row = SeasonProgressRow(season_id=season_id)
    return SeasonProgress(
        season_id,
        row.total,
        row.pending,
        row.claimed,
        row.done,
        row.void,
        row.attempts,
        {str(k): int(v) for k, v in workers if k is not None},
    )


def with_pending(s: Session) -> list[int]:
    """The ids of the seasons with a match waiting to be claimed (one read of the counter rows,
    whatever the seasons' lengths)."""
    return [
        int(i)
        for i in s.exec(
            select(col(SeasonProgressRow.season_id)).where(col(SeasonProgressRow.pending) > 0)
        ).all()
    ]


def finish_if_complete(season_id: int) -> sa.Update:
    """The statement that marks the season finished if it has no match pending or in play
    (a ladder never ends; an event's next round is made when a round finishes:
    :mod:`hegemon.leaderboard.events.progress`). Run after the match moved: the counter row's
    lock, taken by the trigger, orders the season's finishers, so exactly the last one sees
    nothing left — no lock on the season row is needed."""
    left = (
        select(SeasonProgressRow.pending + SeasonProgressRow.claimed)
        .where(col(SeasonProgressRow.season_id) == season_id)
        .scalar_subquery()
    )
    return (
        sa.update(SeasonRow)
        .where(
            col(SeasonRow.id) == season_id,
            col(SeasonRow.status) != FINISHED,
            col(SeasonRow.kind).not_in((LADDER, EVENT)),
            left == 0,
        )
        .values(status=FINISHED, finished_at=utcnow())
    )
