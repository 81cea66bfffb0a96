"""Game records a person names on the command line (``verify``, ``replay``, ``--html``): read
and checked before use, every problem one line."""

from __future__ import annotations

from pathlib import Path

from .common import fail


def read_record(record: Path) -> str:
    """The text of the game record at ``record``, or fail with one line if it cannot be read
    or does not even start like a record."""
    try:
        text = record.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {record}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        fail(f"{record}: not a hegemon game record (not UTF-8 text)")
    why = _not_a_record(text)
    if why:
        fail(f"{record}: not a hegemon game record ({why})")
    return text


def checked_record_text(record: Path) -> str:
    """The text of the game record at ``record`` once checked (its shape, and the engine's
    replay of it), or fail with one line naming the first bad line and field."""
    from hegemon.referee.record import RecordError
    from hegemon.referee.record_check import checked_record

    text = read_record(record)
    try:
        checked_record(text)
    except RecordError as exc:
        fail(f"{record}: not a valid game record: {exc}", code=1)
    return text


def _not_a_record(text: str) -> str:
    """Why ``text`` is not a game record at all ("" if it starts like one): a record's first
    line is a JSON header with ``"format": "hegemon-record/N"``."""
    import json

    first = text.lstrip().split("\n", 1)[0]
    if not first:
        return "the file is empty"
    try:
        head = json.loads(first)
    except (ValueError, RecursionError):
        return "its first line is not JSON; a record is JSON lines, from hegemon play --record"
    if not isinstance(head, dict) or not str(head.get("format", "")).startswith("hegemon-record/"):
        return 'its first line is not a record header with "format": "hegemon-record/N"'
    return ""
