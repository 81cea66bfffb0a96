"""Names' skeletons (:mod:`hegemon.leaderboard.store.names`): a new user or bot name whose
look-alike form is taken already is refused. Users' skeletons are unique; of the users whose
names already share one, the first keeps it and the others get none (they keep signing in by
their exact names, and no new name can take theirs). Bots' skeletons are per name (every
version of a name has the same); names sharing one already keep working.

Revision ID: 0009_name_skeletons
Revises: 0008_ladder
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from hegemon.leaderboard.store.names import skeleton

revision: str = "0009_name_skeletons"
down_revision: str | Sequence[str] | None = "0008_ladder"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(length=64), nullable=True))
    with op.batch_alter_table("bots") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(length=64), nullable=True))
    conn = op.get_bind()
    users = sa.table("users", sa.column("id"), sa.column("name"), sa.column("name_skeleton"))
    taken: set[str] = set()
    for user_id, name in conn.execute(sa.select(users.c.id, users.c.name).order_by(users.c.id)):
        form = skeleton(name)
        if form not in taken:
            taken.add(form)
            conn.execute(users.update().where(users.c.id == user_id).values(name_skeleton=form))
    bots = sa.table("bots", sa.column("name"), sa.column("name_skeleton"))
    for (name,) in conn.execute(sa.select(bots.c.name).distinct()):
        conn.execute(bots.update().where(bots.c.name == name).values(name_skeleton=skeleton(name)))
    op.create_index("ix_users_name_skeleton", "users", ["name_skeleton"], unique=True)
    op.create_index("ix_bots_name_skeleton", "bots", ["name_skeleton"])


def downgrade() -> None:
    op.drop_index("ix_bots_name_skeleton", "bots")
    op.drop_index("ix_users_name_skeleton", "users")
    with op.batch_alter_table("bots") as batch:
        batch.drop_column("name_skeleton")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("name_skeleton")
