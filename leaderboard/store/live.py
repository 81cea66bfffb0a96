"""The games in play, as far as their runners have got: one small row per match being played
(``live_games``), which the runner appends to every second or so and deletes once the game is
stored (or given back). Every web server reads it; none of them ever talks to a runner
(:mod:`hegemon.leaderboard.live`).

The text kept is the record so far *without* what is not the public's: no note lines, no fault
details, no result line (it reveals the seed) — so a leak of this table shows no more than the
public may see once the game ends. The drawn cards are still in it (the engine checks its own
events against them while the page redraws the game); the pages redact them.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy import JSON, Column
from sqlmodel import Field, SQLModel

from .models import UTCDateTime, utcnow


class LiveGameRow(SQLModel, table=True):
    """One match being played: its seats' names and its record so far (public lines only)."""

    __tablename__ = "live_games"

    match_id: int = Field(foreign_key="matches.id", primary_key=True)
    season_id: int = Field(foreign_key="seasons.id", index=True)
    title: str = Field(sa_type=sa.String(300))  # "<season> #<number>"
    # the runner (its worker id) playing it: only it appends to and ends the row, so a runner
    # whose claim was taken over cannot end the row of the runner that took it
    worker: str = Field(default="", sa_type=sa.String(200))
    seats: list[str] = Field(sa_column=Column(JSON, nullable=False))  # bot labels, seat order
    record: str = Field(default="", sa_type=sa.Text)  # JSON lines so far, appended to
    decisions: int = 0  # action lines in ``record``
    started_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
