"""Seeds of 128 secret bits and a time increment.

A season's seed is its secret (every match seed derives from it) and a fresh one has 128 random
bits, so seeds are stored as decimal text instead of a 64-bit integer. Seasons gain the time
control's increment (seconds added to a seat's bank after every answered decision).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _seed_as(table: str, new_type: sa.types.TypeEngine[Any], cast: str) -> None:
    with op.batch_alter_table(table) as batch:
        batch.alter_column(
            "seed",
            existing_type=sa.BigInteger() if cast == "text" else sa.String(length=40),
            type_=new_type,
            existing_nullable=False,
            postgresql_using=f"seed::{cast}",
        )


def upgrade() -> None:
    with op.batch_alter_table("seasons") as batch:
        batch.add_column(
            sa.Column("time_increment", sa.Float(), nullable=False, server_default="0")
        )
    for table in ("seasons", "matches"):
        _seed_as(table, sa.String(length=40), "text")


def downgrade() -> None:
    for table in ("seasons", "matches"):
        _seed_as(table, sa.BigInteger(), "bigint")
    with op.batch_alter_table("seasons") as batch:
        batch.drop_column("time_increment")
