"""Moving the records and logs of games played before records lived in the database into it
(``hegemon db import-records``): each game whose record is not stored yet is read from its
local copy (``GameRow.record_path``, and the seats' logs beside it) and stored in a
transaction of its own, so an interrupted import keeps what it did and a second one carries on
(a game stored already is skipped). A file that is missing or is not a record is reported in
one line and skipped; a seat's log that cannot be read loses only that log."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from hegemon.referee.record import RecordError, parse
from hegemon.referee.runner.botlog import logs_dir

from ..store import GameRow, Store, StoreError
from ..store.records import StoredRecordRow, add_game_files

_SEAT_LOG = re.compile(r"^seat-(\d+)\.log$")


@dataclass
class ImportReport:
    """What an import did: records and logs stored, and the games it could not read."""

    records: int = 0
    logs: int = 0
    problems: list[str] = field(default_factory=list)


def games_to_import(store: Store) -> list[tuple[int, int, str]]:
    """(game id, match id, local record path) of every game with a local record and none
    stored, oldest first."""
    with store.session() as s:
        rows = s.exec(
            select(col(GameRow.id), col(GameRow.match_id), col(GameRow.record_path))
            .outerjoin(StoredRecordRow, col(StoredRecordRow.match_id) == col(GameRow.match_id))
            .where(col(StoredRecordRow.match_id).is_(None), col(GameRow.record_path) != "")
            .order_by(col(GameRow.id))
        ).all()
    return [(int(g or 0), int(m), str(p)) for g, m, p in rows]


def read_local_record(path: Path) -> str:
    """The record at ``path``, checked to be one (its lines JSON, a header first); raises
    ValueError saying in one line why not."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"no record at {path}") from None
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a game record (not UTF-8 text)") from None
    try:
        parse(text)
    except RecordError as exc:
        raise ValueError(f"{path} is not a whole game record ({exc})") from None
    return text


def read_local_logs(record: Path, problems: list[str]) -> list[bytes | None]:
    """Each seat's log kept beside the record at ``record`` (None: none kept); a log that
    cannot be read is reported in ``problems`` and left out."""
    folder = logs_dir(record)
    logs: dict[int, bytes] = {}
    for path in sorted(folder.glob("seat-*.log")) if folder.is_dir() else []:
        found = _SEAT_LOG.match(path.name)
        if found is None:
            continue
        try:
            logs[int(found.group(1))] = path.read_bytes()
        except OSError as exc:
            problems.append(f"cannot read {path}: {exc.strerror or exc} (that log skipped)")
    return [logs.get(seat) for seat in range(max(logs, default=-1) + 1)]


def import_records(store: Store, say: Callable[[str], None] = lambda line: None) -> ImportReport:
    """Store the local record and logs of every game that has none stored; ``say`` hears
    each problem as it is met (one line). A failure of the database itself raises
    :class:`StoreError` (what was imported stays)."""
    report = ImportReport()

    def problem(line: str) -> None:
        report.problems.append(line)
        say(line)

    for game_id, match_id, path_text in games_to_import(store):
        path = Path(path_text)
        try:
            text = read_local_record(path)
        except ValueError as exc:
            problem(f"game {game_id}: {exc}; skipped")
            continue
        log_problems: list[str] = []
        logs = read_local_logs(path, log_problems)
        for line in log_problems:
            problem(f"game {game_id}: {line}")
        try:
            with store.session(write=True) as s:
                add_game_files(s, match_id, text, logs)
        except StoreError as exc:
            if isinstance(exc.__cause__, IntegrityError):
                continue  # stored meanwhile, by another import
            raise  # the database failed: a later import carries on from here
        report.records += 1
        report.logs += sum(data is not None for data in logs)
    return report
