"""Teams: a team (name, owner) and its members (invited, then members once they accept); a bot
owned by a team has its ``team_id`` (every member of the team may act on it).

Revision ID: 0011_teams
Revises: 0010_notifications
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_teams"
down_revision: str | Sequence[str] | None = "0010_notifications"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "teams",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("name_skeleton", sa.String(length=64), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["users.id"], name=op.f("fk_teams_owner_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_teams")),
        sa.UniqueConstraint("name", name=op.f("uq_teams_name")),
        sa.UniqueConstraint("name_skeleton", name=op.f("uq_teams_name_skeleton")),
    )
    op.create_index(op.f("ix_teams_owner_id"), "teams", ["owner_id"])
    op.create_table(
        "team_members",
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("invited_at", WHEN, nullable=False),
        sa.Column("joined_at", WHEN, nullable=True),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_team_members_team_id_teams")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_team_members_user_id_users")
        ),
        sa.PrimaryKeyConstraint("team_id", "user_id", name=op.f("pk_team_members")),
    )
    op.create_index(op.f("ix_team_members_user_id"), "team_members", ["user_id"])
    with op.batch_alter_table("bots") as batch:
        batch.add_column(sa.Column("team_id", sa.Integer(), nullable=True))
        batch.create_index(batch.f("ix_bots_team_id"), ["team_id"])
        batch.create_foreign_key(batch.f("fk_bots_team_id_teams"), "teams", ["team_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("bots") as batch:
        batch.drop_constraint(batch.f("fk_bots_team_id_teams"), type_="foreignkey")
        batch.drop_index(batch.f("ix_bots_team_id"))
        batch.drop_column("team_id")
    op.drop_index(op.f("ix_team_members_user_id"), "team_members")
    op.drop_table("team_members")
    op.drop_index(op.f("ix_teams_owner_id"), "teams")
    op.drop_table("teams")
