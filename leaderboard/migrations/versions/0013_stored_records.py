"""Games' records and seats' logs in the database (zlib-compressed), keyed by match, so every
web server and runner reads them whichever machine played the game.

Revision ID: 0013_stored_records
Revises: 0012_events
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_stored_records"
down_revision: str | Sequence[str] | None = "0012_events"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "stored_records",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_stored_records_match_id_matches")
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_stored_records")),
    )
    op.create_table(
        "stored_logs",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_stored_logs_match_id_matches")
        ),
        sa.PrimaryKeyConstraint("match_id", "seat", name=op.f("pk_stored_logs")),
    )


def downgrade() -> None:
    op.drop_table("stored_logs")
    op.drop_table("stored_records")
