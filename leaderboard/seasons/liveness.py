"""Worker ids, and whether the worker behind an id is a process of this machine that is gone
(its claims are then free at once rather than after ``stale_after``)."""

from __future__ import annotations

import os
import secrets
import socket
from datetime import datetime


def default_worker_id() -> str:
    """``host:pid:xxxx`` — unique among live runners (the random part covers containers that
    share a host name and pid numbers)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(2)}"


def _boot_time() -> float | None:
    try:
        with open("/proc/stat", encoding="ascii") as f:
            for line in f:
                if line.startswith("btime "):
                    return float(line.split()[1])
    except OSError:
        pass
    return None


def _proc_stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after "pid (comm)" (state first), if readable."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _process_start(fields: list[str]) -> float | None:
    """When the process of these stat fields started (epoch seconds), if this system says."""
    boot = _boot_time()
    try:
        ticks = int(fields[19])  # field 22 of /proc/PID/stat
    except (IndexError, ValueError):
        return None
    if boot is None:
        return None
    return boot + ticks / os.sysconf("SC_CLK_TCK")


def worker_is_dead(worker: str, claimed_at: datetime | None) -> bool:
    """Whether ``worker`` (an id made by :func:`default_worker_id`) is a runner of this machine
    whose process is gone — or was replaced by a process started after the claim. Only ever
    True for this machine's default ids; any doubt says "alive" (the claim then waits for
    ``stale_after``)."""
    parts = worker.split(":")
    if len(parts) != 3 or parts[0] != socket.gethostname():
        return False
    try:
        pid = int(parts[1])
    except ValueError:
        return False
    if pid == os.getpid() or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass
    except OSError:
        return False
    fields = _proc_stat(pid)
    if fields is None:
        return False
    if fields and fields[0] in ("Z", "X"):
        return True  # killed, not yet reaped by its parent
    started = _process_start(fields)
    if started is None or claimed_at is None:
        return False
    return started > claimed_at.timestamp() + 2.0  # that pid is a newer process now
