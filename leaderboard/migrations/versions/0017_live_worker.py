"""Live games: the runner (worker id) playing each, so that only it appends to and ends its
row (a runner whose claim was taken over no longer deletes the row of the one that took it).

Revision ID: 0017_live_worker
Revises: 0016_challenges
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_live_worker"
down_revision: str | Sequence[str] | None = "0016_challenges"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("live_games") as batch:
        batch.add_column(
            sa.Column("worker", sa.String(length=200), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("live_games") as batch:
        batch.drop_column("worker")
