"""Notifications: each member's notices, their webhooks, the deliveries' queue and log, and the
daily digest's opt-in.

Revision ID: 0010_notifications
Revises: 0009_name_skeletons
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_notifications"
down_revision: str | Sequence[str] | None = "0009_name_skeletons"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("link", sa.String(length=300), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("read_at", WHEN, nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_notices_user_id_users")),
        sa.ForeignKeyConstraint(["bot_id"], ["bots.id"], name=op.f("fk_notices_bot_id_bots")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notices")),
    )
    op.create_index(op.f("ix_notices_user_id"), "notices", ["user_id"])
    op.create_index(op.f("ix_notices_bot_id"), "notices", ["bot_id"])
    op.create_table(
        "webhooks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("secret", sa.String(length=100), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_webhooks_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhooks")),
    )
    op.create_index(op.f("ix_webhooks_user_id"), "webhooks", ["user_id"])
    op.create_table(
        "deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hook_id", sa.Integer(), nullable=False),
        sa.Column("notice_id", sa.Integer(), nullable=True),
        sa.Column("event", sa.String(length=32), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_at", WHEN, nullable=False),
        sa.Column("last_code", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("sent_at", WHEN, nullable=True),
        sa.ForeignKeyConstraint(
            ["hook_id"], ["webhooks.id"], name=op.f("fk_deliveries_hook_id_webhooks")
        ),
        sa.ForeignKeyConstraint(
            ["notice_id"], ["notices.id"], name=op.f("fk_deliveries_notice_id_notices")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deliveries")),
    )
    op.create_index(op.f("ix_deliveries_hook_id"), "deliveries", ["hook_id"])
    op.create_index(op.f("ix_deliveries_status"), "deliveries", ["status"])
    op.create_table(
        "notice_prefs",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.Boolean(), nullable=False),
        sa.Column("last_digest_at", WHEN, nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_notice_prefs_user_id_users")
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_notice_prefs")),
    )


def downgrade() -> None:
    op.drop_table("notice_prefs")
    op.drop_index(op.f("ix_deliveries_status"), table_name="deliveries")
    op.drop_index(op.f("ix_deliveries_hook_id"), table_name="deliveries")
    op.drop_table("deliveries")
    op.drop_index(op.f("ix_webhooks_user_id"), table_name="webhooks")
    op.drop_table("webhooks")
    op.drop_index(op.f("ix_notices_bot_id"), table_name="notices")
    op.drop_index(op.f("ix_notices_user_id"), table_name="notices")
    op.drop_table("notices")
