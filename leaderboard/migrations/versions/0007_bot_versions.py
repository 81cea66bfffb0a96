"""Bot versions' states: a submitted version is queued, then checked by a runner, then active
or refused (with the reason and the check's log); a newer active version retires the older,
an admin disables one. Versions registered before were checked by ``bot add``: active.

Revision ID: 0007_bot_versions
Revises: 0006_accounts
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_bot_versions"
down_revision: str | Sequence[str] | None = "0006_accounts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("bots") as batch:
        batch.add_column(
            sa.Column("state", sa.String(length=16), nullable=False, server_default="active")
        )
        batch.add_column(sa.Column("reason", sa.Text(), nullable=False, server_default=""))
        batch.add_column(sa.Column("check_log", sa.Text(), nullable=True))
        batch.add_column(sa.Column("checker", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("check_claimed_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_bots_state", ["state"])


def downgrade() -> None:
    with op.batch_alter_table("bots") as batch:
        batch.drop_index("ix_bots_state")
        for column in ("check_claimed_at", "checker", "check_log", "reason", "state"):
            batch.drop_column(column)
