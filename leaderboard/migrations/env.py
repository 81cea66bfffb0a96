"""Alembic environment for hegemon.

The store runs migrations programmatically and hands over its open connection in
``config.attributes["connection"]``. Run by hand, the database comes from ``-x db=URL`` (a file
path or URL, as for ``--db``), else ``HEGEMON_DB`` / the default file.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

from hegemon.leaderboard import store

config = context.config
target_metadata = SQLModel.metadata


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        run(connection)
        return
    if context.is_offline_mode():
        url = store.database_url(context.get_x_argument(as_dictionary=True).get("db"))
        context.configure(
            url=url, target_metadata=target_metadata, literal_binds=True, render_as_batch=True
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    import sqlalchemy as sa

    engine = sa.create_engine(
        store.database_url(context.get_x_argument(as_dictionary=True).get("db"))
    )
    try:
        with engine.connect() as conn:
            run(conn)
    finally:
        engine.dispose()


main()
