"""Games' records and seats' logs kept in the database, so that every web server and runner
reads them whichever machine played the game (``stored_records``, ``stored_logs``).

A runner stores them in the transaction that stores the game's result
(:meth:`~.claims.ClaimStore.finish_match`); the local ``$HEGEMON_HOME/records`` folder is only
a cache, and the place older games are read from until ``hegemon db import-records`` moved them
in. Both are keyed by the *match* (one game per match; a voided game's record stays, as its
file did) and compressed with zlib (in the standard library; records are repetitive JSON lines,
a fifth of their size or less once compressed). A record comes back byte for byte as written.
A bot's notes are lines of its game's record, so they are stored with it.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Sequence

import sqlalchemy as sa
from sqlmodel import Field, Session, SQLModel, col, select

from .database import Database

TURN_STARTED = re.compile(rb'"event":"turn_started","player":\d+,"round":(\d+)')
TAIL = 64 * 1024
"""Bytes of a record's end searched first for its last round (a turn's lines are far shorter,
almost always)."""


class StoredRecordRow(SQLModel, table=True):
    """One game's record, zlib-compressed UTF-8 JSON lines."""

    __tablename__ = "stored_records"

    match_id: int = Field(foreign_key="matches.id", primary_key=True)
    data: bytes = Field(sa_type=sa.LargeBinary)
    size: int  # bytes of the record itself
    rounds: int | None = None  # the round of its last turn (None: ended in its set-up)


class StoredLogRow(SQLModel, table=True):
    """What the bot in one seat of a game wrote (capped as on disk), zlib-compressed."""

    __tablename__ = "stored_logs"

    match_id: int = Field(foreign_key="matches.id", primary_key=True)
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    data: bytes = Field(sa_type=sa.LargeBinary)


def last_round(data: bytes) -> int | None:
    """The round of the last ``turn_started`` event of a record's bytes (None: none begun),
    searching its end first."""
    tail = TAIL
    while True:
        found = TURN_STARTED.findall(data[-tail:])
        if found or tail >= len(data):
            return int(found[-1]) if found else None
        tail *= 4


def record_row(match_id: int, record: str) -> StoredRecordRow:
    """The row storing ``record`` for ``match_id``."""
    data = record.encode("utf-8")
    return StoredRecordRow(
        match_id=match_id, data=zlib.compress(data), size=len(data), rounds=last_round(data)
    )


def log_rows(match_id: int, logs: Sequence[bytes | None]) -> list[StoredLogRow]:
    """The rows storing each seat's log (``None``: no log, e.g. a remote bot)."""
    return [
        StoredLogRow(match_id=match_id, seat=seat, data=zlib.compress(data))
        for seat, data in enumerate(logs)
        if data is not None
    ]


def game_file_rows(
    match_id: int, record: str | None, logs: Sequence[bytes | None]
) -> list[StoredRecordRow | StoredLogRow]:
    """The rows storing a game's record (if any) and logs."""
    found: list[StoredRecordRow | StoredLogRow] = (
        [] if record is None else [record_row(match_id, record)]
    )
    return found + list(log_rows(match_id, logs))


def add_game_files(
    s: Session, match_id: int, record: str | None, logs: Sequence[bytes | None]
) -> None:
    """Add a game's record and logs to the session ``s`` (the caller's transaction)."""
    s.add_all(game_file_rows(match_id, record, logs))


def stored_record(store: Database, match_id: int) -> str | None:
    """The record of ``match_id``'s game, or None: none stored (an older game, not imported)."""
    with store.session() as s:
        data = s.exec(
            select(col(StoredRecordRow.data)).where(col(StoredRecordRow.match_id) == match_id)
        ).first()
    unpacked = _unpack(data)
    return None if unpacked is None else unpacked.decode("utf-8", errors="replace")


def stored_log(store: Database, match_id: int, seat: int) -> bytes | None:
    """What the bot in ``seat`` of ``match_id``'s game wrote, or None: none stored."""
    with store.session() as s:
        data = s.exec(
            select(col(StoredLogRow.data)).where(
                col(StoredLogRow.match_id) == match_id, col(StoredLogRow.seat) == seat
            )
        ).first()
    return _unpack(data)


def _unpack(data: bytes | None) -> bytes | None:
    """Stored bytes decompressed (None: nothing stored, or bytes damaged in the database: a
    page then says the record or log is not kept, rather than failing)."""
    if data is None:
        return None
    try:
        return zlib.decompress(data)
    except zlib.error:
        return None


def stored_rounds(store: Database, match_ids: Iterable[int]) -> dict[int, int | None]:
    """The rounds of the games of ``match_ids`` whose record is stored (the others missing)."""
    wanted = list(set(match_ids))
    if not wanted:
        return {}
    with store.session() as s:
        rows = s.exec(
            select(col(StoredRecordRow.match_id), col(StoredRecordRow.rounds)).where(
                col(StoredRecordRow.match_id).in_(wanted)
            )
        ).all()
    return {int(m): r for m, r in rows}


def logged_seats(store: Database, match_id: int) -> set[int]:
    """The seats of ``match_id``'s game with a stored log."""
    with store.session() as s:
        seats = s.exec(
            select(col(StoredLogRow.seat)).where(col(StoredLogRow.match_id) == match_id)
        ).all()
    return {int(seat) for seat in seats}


def has_record(store: Database, match_id: int) -> bool:
    """Whether ``match_id``'s game has its record stored."""
    with store.session() as s:
        found = s.exec(
            select(col(StoredRecordRow.match_id)).where(col(StoredRecordRow.match_id) == match_id)
        ).first()
    return found is not None
