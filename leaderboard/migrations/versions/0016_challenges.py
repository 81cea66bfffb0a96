"""Challenges: a member's unrated test games of one of their versions, each a season of kind
``challenge`` (off the public boards, in no rating).

Revision ID: 0016_challenges
Revises: 0015_version_pins
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016_challenges"
down_revision: str | Sequence[str] | None = "0015_version_pins"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("opponents", sa.JSON(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("ladder_id", sa.Integer(), nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("notified_at", WHEN, nullable=True),
        sa.Column("note", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_challenges_season_id_seasons")
        ),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["users.id"], name=op.f("fk_challenges_owner_id_users")
        ),
        sa.ForeignKeyConstraint(["bot_id"], ["bots.id"], name=op.f("fk_challenges_bot_id_bots")),
        sa.ForeignKeyConstraint(
            ["ladder_id"], ["seasons.id"], name=op.f("fk_challenges_ladder_id_seasons")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
        sa.UniqueConstraint("season_id", name=op.f("uq_challenges_season_id")),
    )
    op.create_index(op.f("ix_challenges_owner_id"), "challenges", ["owner_id"])
    op.create_index(op.f("ix_challenges_bot_id"), "challenges", ["bot_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_challenges_bot_id"), table_name="challenges")
    op.drop_index(op.f("ix_challenges_owner_id"), table_name="challenges")
    op.drop_table("challenges")
