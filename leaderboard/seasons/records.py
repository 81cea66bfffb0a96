"""Where a season's game keeps its record (the local cache; the database keeps the stored one),
writing it whole or not at all, and the outcome that stores it with the game's result."""

from __future__ import annotations

import os
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from hegemon.referee.runner.botlog import cap

from .. import paths
from ..paths import safe_name
from ..store import GameOutcome


def record_path(season_name: str, number: int) -> Path:
    """Where match ``number`` of the season keeps its record."""
    return paths.records_dir() / safe_name(season_name) / f"{number}.jsonl"


def write_record(path: Path, text: str) -> None:
    """Write a record whole or not at all (temporary file, fsync, rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def outcome_of(result: Any, path: Path) -> GameOutcome:
    """What :meth:`Store.finish_match` stores of a played game: its result, its record and
    each seat's log (capped as on disk), the local copy being at ``path``."""
    logs = tuple(None if data is None else cap(data) for data in result.logs)
    return replace(GameOutcome.from_result(result, path), record=result.record, logs=logs)
