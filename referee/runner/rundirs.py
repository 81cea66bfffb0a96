"""Each local bot's private run folder (its log, its socket), and the removal of those a killed
referee left behind.

A folder is named ``hegemon-run-<referee pid>-<random>`` in the temporary directory. A referee
that exits cleanly removes its own; one killed with SIGKILL (a stopped runner, a crash) cannot,
so the first bot a later referee starts sweeps the folders whose referee is gone: its own uid's
only, never following links.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import threading
from pathlib import Path

PREFIX = "hegemon-run-"

_swept: set[str] = set()  # the temporary directories this process has swept
_lock = threading.Lock()


def make() -> Path:
    """A new private (0700) run folder for one bot, after a sweep (once per process)."""
    base = tempfile.gettempdir()
    with _lock:
        first = base not in _swept
        _swept.add(base)
    if first:
        sweep(Path(base))
    return Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=base))


def sweep(base: Path) -> list[Path]:
    """Remove the run folders under ``base`` of referees no longer running; the removed."""
    removed = []
    for folder in base.glob(f"{PREFIX}*"):
        owner = folder.name[len(PREFIX) :].partition("-")[0]
        if not owner.isdigit() or Path(f"/proc/{owner}").exists():
            continue  # a live referee's (or a pid reused since: kept until a later sweep)
        try:
            info = folder.lstat()
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed
