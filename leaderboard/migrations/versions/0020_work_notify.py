"""Work appearing wakes idle runners (PostgreSQL): a trigger calls ``pg_notify`` on one channel,
``hegemon_work``, when a match becomes claimable by a write — inserted pending (a season's
schedule, a ladder's matchmaker, an event's next round), or put back to pending (released by a
stopped runner, voided by an arena fault and queued again) — and when a bot version is queued
for its check game. A runner with nothing to do LISTENs on that channel
(:mod:`hegemon.leaderboard.arena.wakeup`) instead of polling the counter rows every second.

A claim that lapses (its runner died, no heartbeat) has no write, so no notification: a
listener's safety-net timeout covers it. A claim (pending → claimed) and a finish notify
nobody: busy runners do not wake idle ones. NOTIFY is delivered on commit and deduplicated
within a transaction (a schedule of 1,000 matches is one notification).

SQLite: nothing (no server to notify through; a runner on one machine reads its local file).

Revision ID: 0020_work_notify
Revises: 0019_season_progress
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0020_work_notify"
down_revision: str | Sequence[str] | None = "0019_season_progress"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHANNEL = "hegemon_work"
"""The channel (``hegemon.leaderboard.arena.wakeup.CHANNEL`` says the same)."""

UPGRADE = [
    "CREATE FUNCTION hegemon_work_notify() RETURNS trigger LANGUAGE plpgsql AS "
    f"$$ BEGIN PERFORM pg_notify('{CHANNEL}', ''); RETURN NULL; END $$",
    "CREATE TRIGGER matches_work_in AFTER INSERT ON matches FOR EACH ROW "
    "WHEN (NEW.status = 'pending') EXECUTE FUNCTION hegemon_work_notify()",
    "CREATE TRIGGER matches_work_back AFTER UPDATE OF status ON matches FOR EACH ROW "
    "WHEN (NEW.status = 'pending' AND OLD.status IS DISTINCT FROM 'pending') "
    "EXECUTE FUNCTION hegemon_work_notify()",
    "CREATE TRIGGER bots_check_queued AFTER INSERT OR UPDATE OF state ON bots FOR EACH ROW "
    "WHEN (NEW.state = 'queued') EXECUTE FUNCTION hegemon_work_notify()",
]

DOWNGRADE = [
    "DROP TRIGGER IF EXISTS matches_work_in ON matches",
    "DROP TRIGGER IF EXISTS matches_work_back ON matches",
    "DROP TRIGGER IF EXISTS bots_check_queued ON bots",
    "DROP FUNCTION IF EXISTS hegemon_work_notify()",
]


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for ddl in UPGRADE:
            op.execute(ddl)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for ddl in DOWNGRADE:
            op.execute(ddl)
