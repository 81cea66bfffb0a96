"""Live games: the record so far of each match being played, for the public live pages.

Revision ID: 0014_live_games
Revises: 0013_stored_records
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_live_games"
down_revision: str | Sequence[str] | None = "0013_stored_records"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "live_games",
        sa.Column("match_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("started_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_live_games_match_id_matches")
        ),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_live_games_season_id_seasons")
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_live_games")),
    )
    op.create_index(op.f("ix_live_games_season_id"), "live_games", ["season_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_live_games_season_id"), table_name="live_games")
    op.drop_table("live_games")
