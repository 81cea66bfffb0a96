"""Where hegemon keeps its data: one folder, ``$HEGEMON_HOME`` (default ``~/.hegemon``).

::

    $HEGEMON_HOME/
        arena.db      the SQLite database (bots, seasons, matches, games) unless --db / HEGEMON_DB
                      name another file or a PostgreSQL URL
        bots/         each registered bot's own copy of its files, in bots/<content hash>/
        records/      game records (JSON lines), one per played game

The database may live elsewhere (``--db`` or ``HEGEMON_DB``: a file path or a URL such as
``sqlite:///arena.db`` or ``postgresql://user@host/db``); the bot files and records always live
under ``$HEGEMON_HOME``. Workers on several machines sharing one PostgreSQL database therefore
each need the bots' folders too: point ``HEGEMON_HOME`` at a shared folder, or register the bots
on each machine (the content hash names the folder, so the copies agree).

Nothing here creates a folder: callers create what they write into.
"""

from __future__ import annotations

import os
from pathlib import Path

HOME_ENV = "HEGEMON_HOME"
"""Environment variable naming hegemon's data folder."""

DB_ENV = "HEGEMON_DB"
"""Environment variable naming the database: a file path or a database URL."""

DEFAULT_HOME = "~/.hegemon"
DB_FILE = "arena.db"
BOTS_DIR = "bots"
RECORDS_DIR = "records"


def home() -> Path:
    """The data folder: ``$HEGEMON_HOME`` if set (and not empty), else ``~/.hegemon``."""
    value = os.environ.get(HOME_ENV, "").strip()
    return Path(value or DEFAULT_HOME).expanduser().absolute()


def default_db_path() -> Path:
    """The SQLite database used when neither ``--db`` nor ``HEGEMON_DB`` is given."""
    return home() / DB_FILE


def db_target(explicit: str | os.PathLike[str] | None = None) -> str:
    """The database to open, as given: ``explicit`` (``--db``), else ``$HEGEMON_DB``, else the
    default file. A file path or a URL; :func:`hegemon.leaderboard.store.database_url`
    normalises it."""
    if explicit is not None and str(explicit).strip():
        return str(explicit).strip()
    value = os.environ.get(DB_ENV, "").strip()
    return value or str(default_db_path())


def bots_dir() -> Path:
    """Where registered bots' files are stored, one folder per content hash."""
    return home() / BOTS_DIR


def bot_dir(content_hash: str) -> Path:
    """The stored copy of the bot files with this content hash (the bot's working folder)."""
    return bots_dir() / content_hash


def records_dir() -> Path:
    """Where game records are written."""
    return home() / RECORDS_DIR


def safe_name(name: str) -> str:
    """A season name usable as one folder name."""
    cleaned = "".join(c if c.isalnum() or c in "-_.@+" else "_" for c in name).lstrip(".")
    return cleaned or "season"
