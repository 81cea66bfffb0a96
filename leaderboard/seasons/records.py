"""Where a season's game keeps its record, and writing it whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .. import paths
from ..paths import safe_name


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
