"""The pool of unprivileged uids bots run as when the referee is root: one uid per running bot,
leased with an flock so several referee processes on one machine never share one."""

from __future__ import annotations

import fcntl
import os
import pwd
import signal
import stat
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .mode import SandboxError

UID_BASE = 61000
UID_COUNT = 184  # 61000–61183: below systemd's DynamicUser range (61184–65519)


def is_root() -> bool:
    """Is the referee root (and so must switch every bot to a pool uid)?"""
    return os.geteuid() == 0


def _lock_dir() -> Path:
    base = Path("/run") if os.access("/run", os.W_OK) else Path(tempfile.gettempdir())
    path = base / "hegemon-sandbox-uids"
    try:
        path.mkdir(mode=0o700)
    except FileExistsError:
        pass
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
        raise SandboxError(f"{path}: not a folder of this user; remove it")
    return path


def processes_of(uids: Iterable[int]) -> list[tuple[int, int]]:
    """(pid, uid) of every process whose real, effective or saved uid is in ``uids``."""
    wanted = set(uids)
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", "rb") as f:
                for line in f:
                    if line.startswith(b"Uid:"):
                        hit = {int(x) for x in line.split()[1:4]} & wanted
                        if hit:
                            found.append((int(entry), min(hit)))
                        break
        except (OSError, ValueError):
            continue
    return found


def kill_uid(uid: int) -> int:
    """SIGKILL every process running as ``uid`` (a pool uid: only sandboxed bots use it)."""
    killed = 0
    for pid, _ in processes_of([uid]):
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except (ProcessLookupError, PermissionError):
            pass
    return killed


@dataclass
class UidLease:
    """One pool uid held (by an flock on its lock file) until :meth:`release`."""

    uid: int
    fd: int | None

    def release(self) -> None:
        """Give the uid back to the pool."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def lease_uid(base: int = UID_BASE, count: int = UID_COUNT) -> UidLease:
    """A pool uid no other bot (of this or another referee process) holds and no process runs
    as. Only root can switch uids; the caller checks :func:`is_root` first."""
    folder = _lock_dir()
    busy = {uid for _, uid in processes_of(range(base, base + count))}
    for uid in range(base, base + count):
        if uid in busy:
            continue
        try:
            pwd.getpwuid(uid)
            continue  # a real account: not ours to use
        except KeyError:
            pass
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(folder / str(uid), flags, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return UidLease(uid, fd)
    raise SandboxError(f"all {count} sandbox uids ({base}–{base + count - 1}) are in use")


def unreadable_by_others(path: Path | str, ancestors: bool = True) -> Path | None:
    """The first folder on the way to ``path`` that a uid that is neither owner nor group
    cannot enter (or ``path`` itself, if it cannot read it, or enter it if a folder); None
    when all is open to it. ``ancestors`` False: ``path`` alone (bound into a tree whose own
    folders lead to it)."""
    given = Path(os.path.abspath(os.fspath(path)))
    real = Path(os.path.realpath(given))
    try:
        # the folders on the way as named (a link is followed by the bot from there) and real
        for folder in [*reversed(given.parents), *reversed(real.parents)] if ancestors else []:
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                return folder
        mode = os.stat(real).st_mode
        needed = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
        return None if mode & needed == needed else real
    except OSError:
        return real


def readable_by_others(path: Path | str) -> bool:
    """Can a uid that is neither owner nor group of anything here run/read ``path``?"""
    return unreadable_by_others(path) is None
