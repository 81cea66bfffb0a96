"""Version pins: the version of a bot name its owner chose to play (none: the newest active).

Revision ID: 0015_version_pins
Revises: 0014_live_games
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_version_pins"
down_revision: str | Sequence[str] | None = "0014_live_games"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "bot_pins",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("pinned_by", sa.Integer(), nullable=True),
        sa.Column("pinned_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["bot_id"], ["bots.id"], name=op.f("fk_bot_pins_bot_id_bots")),
        sa.ForeignKeyConstraint(
            ["pinned_by"], ["users.id"], name=op.f("fk_bot_pins_pinned_by_users")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_bot_pins")),
    )


def downgrade() -> None:
    op.drop_table("bot_pins")
