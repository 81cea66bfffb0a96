"""Final events: one row beside each event's season (its format, seed hash, rounds, final
standings).

Revision ID: 0012_events
Revises: 0011_teams
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_events"
down_revision: str | Sequence[str] | None = "0011_teams"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("advance", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("rotate", sa.Boolean(), nullable=False),
        sa.Column("source", sa.String(length=300), nullable=False),
        sa.Column("seed_hash", sa.String(length=64), nullable=False),
        sa.Column("round_starts", sa.JSON(), nullable=False),
        sa.Column("standings", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_events_season_id_seasons")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
        sa.UniqueConstraint("season_id", name=op.f("uq_events_season_id")),
    )


def downgrade() -> None:
    op.drop_table("events")
