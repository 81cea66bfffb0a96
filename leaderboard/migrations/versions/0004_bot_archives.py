"""Bot files in the database: content-addressed archives.

A registered bot's files travel with the database, so a runner on any machine materialises a
bot from its archive (verified against the bot's content hash) with nothing but the database
URL. One row per content hash, shared by every bot version with those files.

Revision ID: 0004_bot_archives
Revises: 0003_rating_cache
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_bot_archives"
down_revision: str | Sequence[str] | None = "0003_rating_cache"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "bot_archives",
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("files", sa.Integer(), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("content_hash", name=op.f("pk_bot_archives")),
    )


def downgrade() -> None:
    op.drop_table("bot_archives")
