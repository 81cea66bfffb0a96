"""A cheap token that changes whenever anything is committed to the arena database, so a page
cached under one token is known to be current while the token stays the same.

SQLite: ``PRAGMA data_version`` on a connection of our own that never writes (it changes when
any other connection commits: a runner, the CLI, this server's own writes), microseconds a
call, never waiting for a writer (the store keeps the database in WAL mode): the server reads
it on its event loop. PostgreSQL: the transaction snapshot (two equal snapshots see the same
committed data), one round trip. Any other database (an in-memory SQLite, shared by one
connection): no token, and nothing is cached.
"""

from __future__ import annotations

import sqlite3
import threading

import sqlalchemy as sa

from hegemon.leaderboard.store import Store


class Changes:
    """Call it for the database's change token (None: this database gives none)."""

    def __init__(self, store: Store):
        self._lock = threading.Lock()
        self._sqlite: sqlite3.Connection | None = None
        self._engine: sa.Engine | None = None
        database = store.url.database or ""
        if (
            store.is_sqlite
            and database not in ("", ":memory:")
            and not database.startswith("file:")
        ):
            # autocommit, so each PRAGMA reads the database as it is now
            self._sqlite = sqlite3.connect(database, check_same_thread=False, isolation_level=None)
        elif store.is_postgres:
            self._engine = store.engine
        self.instant = self._engine is None
        """Whether a call never waits on the network (SQLite's token, or none): then the
        server reads it on its event loop rather than in a thread."""

    def __call__(self) -> object | None:
        if self._sqlite is not None:
            with self._lock:  # one connection, shared by the server's threads
                token: object = self._sqlite.execute("PRAGMA data_version").fetchone()[0]
                return token
        if self._engine is not None:
            with self._engine.connect() as conn:
                return conn.exec_driver_sql("SELECT txid_current_snapshot()::text").scalar()
        return None

    def close(self) -> None:
        if self._sqlite is not None:
            self._sqlite.close()
