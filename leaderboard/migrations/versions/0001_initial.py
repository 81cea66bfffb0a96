"""The initial schema: bots, seasons, season_bots, matches, games.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "bots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("command", sa.JSON(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("language", sa.String(length=32), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bots")),
        sa.UniqueConstraint("name", "version", name=op.f("uq_bots_name_version")),
    )
    op.create_index(op.f("ix_bots_content_hash"), "bots", ["content_hash"], unique=False)
    op.create_index(op.f("ix_bots_name"), "bots", ["name"], unique=False)

    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("preset", sa.String(length=64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("startup_time", sa.Float(), nullable=False),
        sa.Column("decision_time", sa.Float(), nullable=False),
        sa.Column("time_bank", sa.Float(), nullable=False),
        sa.Column("max_strikes", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("fault_policy", sa.String(length=32), nullable=False),
        sa.Column("keep_memory", sa.Boolean(), nullable=False),
        sa.Column("duplicate", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seasons")),
        sa.UniqueConstraint("name", name=op.f("uq_seasons_name")),
    )

    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("worker", sa.String(length=200), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_matches_season_id_seasons")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
        sa.UniqueConstraint("season_id", "number", name=op.f("uq_matches_season_id_number")),
    )
    op.create_index("ix_matches_season_id_status", "matches", ["season_id", "status"], unique=False)

    op.create_table(
        "season_bots",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["bot_id"], ["bots.id"], name=op.f("fk_season_bots_bot_id_bots")),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_season_bots_season_id_seasons")
        ),
        sa.PrimaryKeyConstraint("season_id", "bot_id", name=op.f("pk_season_bots")),
    )
    op.create_index(op.f("ix_season_bots_bot_id"), "season_bots", ["bot_id"], unique=False)

    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("record_path", sa.Text(), nullable=False),
        sa.Column("places", sa.JSON(), nullable=False),
        sa.Column("faults", sa.JSON(), nullable=False),
        sa.Column("finish_reason", sa.String(length=200), nullable=False),
        sa.Column("duration", sa.Float(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("worker", sa.String(length=200), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_games_match_id_matches")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("match_id", name=op.f("uq_games_match_id")),
    )


def downgrade() -> None:
    op.drop_table("games")
    op.drop_index(op.f("ix_season_bots_bot_id"), table_name="season_bots")
    op.drop_table("season_bots")
    op.drop_index("ix_matches_season_id_status", table_name="matches")
    op.drop_table("matches")
    op.drop_table("seasons")
    op.drop_index(op.f("ix_bots_name"), table_name="bots")
    op.drop_index(op.f("ix_bots_content_hash"), table_name="bots")
    op.drop_table("bots")
