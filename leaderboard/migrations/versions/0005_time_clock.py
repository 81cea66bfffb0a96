"""The clock a season's decisions are timed by.

``cpu``: the CPU time of each bot's own processes (the default of new seasons); ``wall``: wall
time from request to answer. Seasons made before keep ``wall``, the clock they were played on.

Revision ID: 0005_time_clock
Revises: 0004_bot_archives
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_time_clock"
down_revision: str | Sequence[str] | None = "0004_bot_archives"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seasons") as batch:
        batch.add_column(
            sa.Column("time_clock", sa.String(length=8), nullable=False, server_default="wall")
        )


def downgrade() -> None:
    with op.batch_alter_table("seasons") as batch:
        batch.drop_column("time_clock")
