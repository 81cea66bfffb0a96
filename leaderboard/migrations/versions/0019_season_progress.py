"""A counter row per season (``season_progress``: its matches by status and their attempts),
kept by triggers on ``matches`` in the transaction that moves a match, so that a season's
progress is one row's read at any length of the season (it was a scan of every match, every
runner, every two seconds).

Triggers, not the store's code: every writer of a match (claims, finishes, voids, releases, an
admin voiding a game, the ladders' matchmaker, the events' rounds) is counted without knowing
of it, and no round trip is added. A later migration that rebuilds ``matches`` on SQLite
(``batch_alter_table`` copies the table) must create the triggers again (:func:`triggers`).

Revision ID: 0019_season_progress
Revises: 0018_runner_tokens
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019_season_progress"
down_revision: str | Sequence[str] | None = "0018_runner_tokens"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STATUSES = ("pending", "claimed", "done", "void")
COUNTS = ("total", *STATUSES, "attempts")


def _delta(sign: str, row: str) -> str:
    """``SET`` terms adding (``sign`` '+') or taking away ('-') ``row``'s match."""
    terms = [f"total = total {sign} 1"]
    terms += [
        f"{s} = {s} {sign} (CASE WHEN {row}.status = '{s}' THEN 1 ELSE 0 END)" for s in STATUSES
    ]
    terms.append(f"attempts = attempts {sign} {row}.attempts")
    return ", ".join(terms)


def _count(row: str, sign: str) -> str:
    """The statements counting ``row`` (NEW or OLD) in (+) or out (-) of its season's row."""
    ensure = (
        f"INSERT INTO season_progress (season_id) VALUES ({row}.season_id) "
        "ON CONFLICT (season_id) DO NOTHING;"
    )
    update = f"UPDATE season_progress SET {_delta(sign, row)} WHERE season_id = {row}.season_id;"
    return (ensure + " " if sign == "+" else "") + update


_CHANGED = (
    "OLD.status IS NOT NEW.status OR OLD.attempts IS NOT NEW.attempts "
    "OR OLD.season_id IS NOT NEW.season_id"
)


def triggers(dialect: str) -> list[str]:
    """The DDL of the counting triggers on ``dialect`` (sqlite or postgresql)."""
    if dialect == "postgresql":
        body = (
            "BEGIN "
            f"IF TG_OP IN ('UPDATE', 'DELETE') THEN {_count('OLD', '-')} END IF; "
            f"IF TG_OP IN ('UPDATE', 'INSERT') THEN {_count('NEW', '+')} END IF; "
            "RETURN NULL; END"
        )
        changed = _CHANGED.replace("IS NOT", "IS DISTINCT FROM")
        return [
            "CREATE FUNCTION hegemon_count_match() RETURNS trigger LANGUAGE plpgsql "
            f"AS $$ {body} $$",
            "CREATE TRIGGER matches_counted_in AFTER INSERT OR DELETE ON matches "
            "FOR EACH ROW EXECUTE FUNCTION hegemon_count_match()",
            "CREATE TRIGGER matches_counted_moved AFTER UPDATE ON matches FOR EACH ROW "
            f"WHEN ({changed}) EXECUTE FUNCTION hegemon_count_match()",
        ]
    return [
        "CREATE TRIGGER matches_counted_in AFTER INSERT ON matches FOR EACH ROW "
        f"BEGIN {_count('NEW', '+')} END",
        "CREATE TRIGGER matches_counted_out AFTER DELETE ON matches FOR EACH ROW "
        f"BEGIN {_count('OLD', '-')} END",
        f"CREATE TRIGGER matches_counted_moved AFTER UPDATE ON matches FOR EACH ROW "
        f"WHEN {_CHANGED} BEGIN {_count('OLD', '-')} {_count('NEW', '+')} END",
    ]


def _drop(dialect: str) -> list[str]:
    names = ["matches_counted_in", "matches_counted_moved"]
    if dialect == "postgresql":
        return [f"DROP TRIGGER IF EXISTS {n} ON matches" for n in names] + [
            "DROP FUNCTION IF EXISTS hegemon_count_match()"
        ]
    return [f"DROP TRIGGER IF EXISTS {n}" for n in [*names, "matches_counted_out"]]


def upgrade() -> None:
    op.create_table(
        "season_progress",
        sa.Column(
            "season_id",
            sa.Integer(),
            sa.ForeignKey("seasons.id", ondelete="CASCADE"),
            primary_key=True,
            autoincrement=False,
        ),
        *(sa.Column(c, sa.Integer(), nullable=False, server_default="0") for c in COUNTS),
    )
    # a claim finds the next match among the unfinished ones, not past every finished one
    unfinished = sa.text("status IN ('pending', 'claimed')")
    op.create_index(
        "ix_matches_unfinished",
        "matches",
        ["season_id", "number"],
        sqlite_where=unfinished,
        postgresql_where=unfinished,
    )
    dialect = op.get_bind().dialect.name
    for ddl in triggers(dialect):
        op.execute(ddl)
    cases = ", ".join(f"SUM(CASE WHEN status = '{s}' THEN 1 ELSE 0 END)" for s in STATUSES)
    op.execute(
        f"INSERT INTO season_progress (season_id, {', '.join(COUNTS)}) "
        f"SELECT season_id, COUNT(*), {cases}, COALESCE(SUM(attempts), 0) "
        "FROM matches GROUP BY season_id"
    )


def downgrade() -> None:
    for ddl in _drop(op.get_bind().dialect.name):
        op.execute(ddl)
    op.drop_table("season_progress")
    op.drop_index("ix_matches_unfinished", table_name="matches")
