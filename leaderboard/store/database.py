"""Opening a league database: the URL (a file path or a URL), the engine (SQLite made
transactional, PostgreSQL through psycopg 3), sessions, and the schema migrations (alembic).

:class:`Database` is the base of :class:`hegemon.leaderboard.store.Store`; its jobs (bots,
seasons, claims) are the mixins beside this module.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DisconnectionError, SQLAlchemyError
from sqlalchemy.pool import ConnectionPoolEntry
from sqlmodel import Session

from .. import paths

if TYPE_CHECKING:
    from alembic.config import Config

INITIAL_REVISION = "0001"
"""The alembic revision that creates the whole schema."""

_Query = TypeVar("_Query", bound=sa.Select[Any])

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"


class StoreError(Exception):
    """A database problem, said in one line (``str(exc)``) fit for the user."""


POOL_ENV = "HEGEMON_DB_POOL"
"""Environment variable setting the connections a process keeps open to PostgreSQL (a burst
may open as many again, closed once used); it overrides the process's own choice."""

RUNNER_POOL = 2
"""Connections a runner process keeps open (:data:`POOL_ENV` overrides): its claims, commits,
heartbeats and progress are short transactions, and none holds a connection across a game."""

PING_AFTER_IDLE = 10.0
"""Seconds a pooled connection may sit unused before it is checked (a round trip) as it is
handed out: a busy process never pays for the check, and a connection idle long enough for the
server or a pooler to have dropped it is replaced before the caller's statement fails on it."""


def pool_setting(chosen: int | None = None) -> int | None:
    """The pool size to use: :data:`POOL_ENV` if set, else ``chosen`` (None: SQLAlchemy's
    default, 5 kept and 10 more for a burst)."""
    value = os.environ.get(POOL_ENV, "").strip()
    if not value:
        return chosen
    if not value.isdigit() or int(value) < 1:
        raise StoreError(f"{POOL_ENV} must be a whole number of connections, 1 or more: {value!r}")
    return int(value)


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def database_url(target: str | os.PathLike[str] | None = None) -> URL:
    """The SQLAlchemy URL for ``--db`` / ``HEGEMON_DB`` / the default file.

    A file path (relative to the current folder) means SQLite; ``sqlite:///FILE`` likewise;
    ``postgresql://…`` (or ``postgres://…``) uses the psycopg 3 driver.
    """
    text = paths.db_target(target)
    if not _SCHEME.match(text):
        return URL.create("sqlite", database=str(Path(text).expanduser().absolute()))
    try:
        url = make_url(text)
    except ArgumentError:
        raise StoreError(f"not a database URL or file path: {text}") from None
    backend = url.get_backend_name()
    if backend in ("postgresql", "postgres"):
        if url.drivername in ("postgresql", "postgres"):
            url = url.set(drivername="postgresql+psycopg")
        return url
    if backend == "sqlite":
        return url
    scheme = text.split("://", 1)[0]
    raise StoreError(
        f"unsupported database '{scheme}://': give a file path, sqlite:///FILE "
        "or postgresql://USER@HOST/DATABASE"
    )


def _display(url: URL) -> str:
    shown = (
        url.set(drivername=url.get_backend_name())
        if url.get_backend_name() == "postgresql"
        else url
    )
    return shown.render_as_string(hide_password=True)


def _one_line(exc: BaseException) -> str:
    """The driver's message of a database error, on one line."""
    inner = getattr(exc, "orig", None) or exc
    text = str(inner) or type(inner).__name__
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    # SQLAlchemy appends "(Background on this error at: …)" and the SQL; keep the message.
    lines = [
        ln
        for ln in lines
        if not ln.startswith(("(Background on this error", "[SQL:", "[parameters:"))
    ]
    line = " ".join(lines) or type(inner).__name__
    line = re.sub(r"^\([\w.]+\)\s*", "", line)
    return line if len(line) <= 300 else line[:297] + "..."


class Database:
    """An open database, its schema migrated: the engine, sessions and error wording that the
    store's jobs (bots, seasons, claims) share. Open one as a
    :class:`hegemon.leaderboard.store.Store`, whose docstring says what ``target`` may be."""

    def __init__(
        self,
        target: str | os.PathLike[str] | None = None,
        *,
        create: bool = True,
        echo: bool = False,
        pool_size: int | None = None,
    ):
        self.url = database_url(target)
        self.display = _display(self.url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        self.is_postgres = self.url.get_backend_name() == "postgresql"
        if self.is_sqlite:
            self._prepare_sqlite_file(create)
        self.engine = self._make_engine(echo, pool_size)
        try:
            if not _at_head(self.engine):
                upgrade(self.engine, "head")
        except StoreError:
            self.engine.dispose()
            raise
        except Exception as exc:
            self.engine.dispose()
            raise StoreError(f"cannot open database {self.display}: {_one_line(exc)}") from exc

    # ------------------------------------------------------------------ plumbing
    def secret_url(self) -> str:
        """The full URL, password included: for a child process of this one only, passed
        by a pipe or the environment (never argv, never a log: ``display`` is for those)."""
        return self.url.render_as_string(hide_password=False)

    def _prepare_sqlite_file(self, create: bool) -> None:
        database = self.url.database or ""
        if database in ("", ":memory:") or database.startswith("file:"):
            return
        path = Path(database)
        if path.exists():
            if path.is_dir():
                raise StoreError(f"cannot open database {self.display}: it is a folder")
            return
        if not create:
            raise StoreError(f"no database at {path}")
        if path.parent.resolve() == paths.home().resolve():
            path.parent.mkdir(parents=True, exist_ok=True)

    def _make_engine(self, echo: bool, pool_size: int | None) -> Engine:
        if self.is_sqlite:
            kwargs: dict[str, Any] = {"connect_args": {"timeout": 30}}
            if (self.url.database or ":memory:") == ":memory:":
                kwargs["poolclass"] = sa.pool.StaticPool
                kwargs["connect_args"]["check_same_thread"] = False
            engine = sa.create_engine(self.url, echo=echo, **kwargs)
            _sqlite_transactions(engine)
            return engine
        options: dict[str, Any] = {}
        if self.is_postgres:
            # no server-side prepared statements: a pooler in transaction mode (PgBouncer) may
            # run the next statement on another server connection, which never saw them
            options["connect_args"] = {"connect_timeout": 10, "prepare_threshold": None}
            size = pool_setting(pool_size)
            if size is not None:
                options.update(pool_size=size, max_overflow=size)
        try:
            engine = sa.create_engine(self.url, echo=echo, **options)
        except ModuleNotFoundError as exc:
            raise StoreError(
                f"cannot open database {self.display}: the driver is not installed "
                f"({exc.name}); for PostgreSQL: pip install 'hegemon[postgres]'"
            ) from None
        _ping_after_idle(engine, PING_AFTER_IDLE)
        return engine

    def _error(self, exc: BaseException) -> StoreError:
        return StoreError(f"database {self.display}: {_one_line(exc)}")

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.display!r})"

    @contextmanager
    def session(self, write: bool = False) -> Iterator[Session]:
        """A sqlmodel Session in one transaction: committed when the block ends, rolled back if
        it raises. Objects stay usable after the block (not expired on commit).

        ``write=True`` takes the write lock at the start (SQLite ``BEGIN IMMEDIATE``), which a
        transaction that reads and then writes should do, so concurrent writers wait their turn
        instead of failing. Database errors raise :class:`StoreError`.
        """
        session = Session(
            self.engine,
            expire_on_commit=False,
            execution_options={"hegemon_write": True} if write else {},
        )
        try:
            with session.begin():
                yield session
        except StoreError:
            raise
        except SQLAlchemyError as exc:
            raise self._error(exc) from exc
        finally:
            session.close()

    @contextmanager
    def autocommit(self) -> Iterator[sa.Connection]:
        """A connection each statement of which commits by itself (PostgreSQL): for a job
        done in one statement, which then holds its locks only while the server runs it, never
        while the client waits for the answer, and costs no BEGIN or COMMIT round trip.
        Database errors raise :class:`StoreError`."""
        try:
            with self.engine.connect() as conn:
                yield conn.execution_options(isolation_level="AUTOCOMMIT")
        except SQLAlchemyError as exc:
            raise self._error(exc) from exc

    def _lock(self, query: _Query) -> _Query:
        return query.with_for_update() if self.is_postgres else query

    def _skip_locked(self, query: _Query) -> _Query:
        """``query`` passing over rows another runner holds locked (PostgreSQL; SQLite has one
        writer at a time anyway)."""
        return query.with_for_update(skip_locked=True) if self.is_postgres else query

    def try_lock(self, s: Session, key: str) -> bool:
        """Take the lock named ``key`` for the rest of ``s``'s transaction, if nobody holds it;
        False if someone does (PostgreSQL: a transaction-level advisory lock, which works
        through a pooler in transaction mode; SQLite: True, a write transaction holds the
        file's one write lock already)."""
        if not self.is_postgres:
            return True
        taken = s.execute(sa.select(sa.func.pg_try_advisory_xact_lock(sa.func.hashtext(key))))
        return bool(taken.scalar())

    def revision(self) -> str | None:
        """The database's schema revision (alembic)."""
        from alembic.runtime.migration import MigrationContext

        try:
            with self.engine.connect() as conn:
                return MigrationContext.configure(conn).get_current_revision()
        except SQLAlchemyError as exc:
            raise self._error(exc) from exc


def _ping_after_idle(engine: Engine, idle_s: float) -> None:
    """Check a pooled connection as it is handed out only if it sat unused ``idle_s`` seconds
    or more (``pool_pre_ping`` checks every one: a round trip on every session); a dead one is
    replaced (the pool connects afresh). A connection that died in use fails its statement,
    and SQLAlchemy then drops the whole pool's connections of that time."""

    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi: Any, record: ConnectionPoolEntry) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi: Any, record: ConnectionPoolEntry, _proxy: Any) -> None:
        since = record.info.pop("idle_since", None)
        if since is None or time.monotonic() - since < idle_s:
            return
        try:
            alive = engine.dialect.do_ping(dbapi)
        except Exception as exc:
            raise DisconnectionError(str(exc)) from exc
        if not alive:
            raise DisconnectionError("the pooled connection is gone")


def _sqlite_transactions(engine: Engine) -> None:
    """Real transactions on SQLite: we emit BEGIN ourselves (BEGIN IMMEDIATE for writers), turn
    on foreign keys, and use write-ahead logging so readers never wait for the runner."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: sqlite3.Connection, _record: ConnectionPoolEntry) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA foreign_keys=ON")
            database = engine.url.database or ""
            if database and database != ":memory:":
                cursor.execute("PRAGMA journal_mode=WAL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        write = conn.get_execution_options().get("hegemon_write")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


# ---------------------------------------------------------------------------------- migrations
def alembic_config() -> Config:
    """The alembic configuration of hegemon's migrations (no alembic.ini needed)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


_REVISION_LINE = re.compile(
    r"^(down_revision|revision)\s*(?::[^=]*)?=\s*(?:\"([^\"]*)\"|'([^']*)'|None)", re.M
)


def _script_head() -> str | None:
    """The head revision read straight from the migration files (no alembic import: opening a
    database that is already at head then costs one query). ``None`` if the files do not form
    one simple chain (alembic then decides)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS_DIR / "versions").glob("[0-9]*.py"):
        found = {
            m.group(1): m.group(2) or m.group(3)
            for m in _REVISION_LINE.finditer(path.read_text(encoding="utf-8"))
        }
        if not found.get("revision"):
            return None
        revisions.add(found["revision"])
        if found.get("down_revision"):
            parents.add(found["down_revision"])
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def _at_head(engine: Engine) -> bool:
    """Whether the database's schema is already at the head revision (the common case on every
    open, checked with one read; anything unusual — no version table, several rows, another
    revision — is left to :func:`upgrade`)."""
    head = _script_head()
    if head is None:
        return False
    try:
        with engine.connect() as conn:
            rows = conn.exec_driver_sql("SELECT version_num FROM alembic_version").fetchall()
            conn.rollback()
    except SQLAlchemyError:
        return False
    return len(rows) == 1 and rows[0][0] == head


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database to ``revision`` in one transaction (concurrent openers wait)."""
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as plain:
        if sqlite:
            # A migration may rebuild a table others reference (SQLite alters a column that way):
            # enforcement is off meanwhile (SQLite allows the switch only outside a transaction)
            # and every reference is checked before the migration commits.
            _sqlite_pragma(plain, "foreign_keys=OFF")
        try:
            _upgrade_in_transaction(plain.execution_options(hegemon_write=True), revision)
        finally:
            if sqlite:
                _sqlite_pragma(plain, "foreign_keys=ON")


def _sqlite_pragma(conn: sa.Connection, pragma: str) -> None:
    """Run ``PRAGMA pragma`` on the driver's connection, outside any transaction."""
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(f"PRAGMA {pragma}")
    finally:
        cursor.close()


def _upgrade_in_transaction(conn: sa.Connection, revision: str) -> None:
    from alembic import command
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    config = alembic_config()
    script = ScriptDirectory.from_config(config)
    engine = conn.engine
    with conn.begin():
        if engine.dialect.name == "postgresql":
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(4851563265)")  # "hegemon"
        current = MigrationContext.configure(conn).get_current_revision()
        if current is not None:
            try:
                script.get_revision(current)
            except Exception:
                raise StoreError(
                    f"cannot open database {_display(engine.url)}: it was written "
                    f"by a newer hegemon (schema revision {current}); upgrade "
                    "hegemon to open it"
                ) from None
        if current == revision or (revision == "head" and current == script.get_current_head()):
            return
        config.attributes["connection"] = conn
        command.upgrade(config, revision)
        if engine.dialect.name == "sqlite":
            broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise StoreError(f"the migration would leave broken references: {broken[:5]}")
