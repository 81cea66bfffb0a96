"""Ladders: a season that never ends (``seasons.kind`` = ``ladder``; every season made before
is a ``season``).

Revision ID: 0008
Revises: 0005_time_clock
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_ladder"
down_revision: str | Sequence[str] | None = "0007_bot_versions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seasons") as batch:
        batch.add_column(
            sa.Column("kind", sa.String(length=16), nullable=False, server_default="season")
        )


def downgrade() -> None:
    with op.batch_alter_table("seasons") as batch:
        batch.drop_column("kind")
