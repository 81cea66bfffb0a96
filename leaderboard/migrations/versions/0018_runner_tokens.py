"""Runner tokens: runners on other machines join the arena over HTTP with a token an admin
made (only its sha256 kept), not the database's password.

Revision ID: 0018_runner_tokens
Revises: 0017_live_worker
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018_runner_tokens"
down_revision: str | Sequence[str] | None = "0017_live_worker"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "runner_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("last_used_at", WHEN, nullable=True),
        sa.Column("revoked_at", WHEN, nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_runner_tokens")),
        sa.UniqueConstraint("name", name=op.f("uq_runner_tokens_name")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_runner_tokens_token_hash")),
    )


def downgrade() -> None:
    op.drop_table("runner_tokens")
