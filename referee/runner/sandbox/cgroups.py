"""Control groups for one bot, always beneath the referee's own cgroup and never elsewhere.

Used where the host lets the referee write there: cgroup v1 controllers mounted writable
(``memory``, ``pids``, ``cpuacct``, ``freezer``), or a delegated cgroup v2 subtree. Each
controller found is used; what is missing, :mod:`.ceiling` makes up for by watching.
``HEGEMON_CGROUPS=off`` turns cgroups off (the watcher then does all).
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

CGROUPS_ENV = "HEGEMON_CGROUPS"
CONTROLLERS = ("memory", "pids", "cpuacct", "freezer")
_V1_PROBE = {
    "memory": "memory.limit_in_bytes",
    "pids": "cgroup.procs",  # the root has no pids.max; children do
    "cpuacct": "cpuacct.usage",
    "freezer": "cgroup.procs",  # the root has no freezer.state; children do
}
_V2_NEEDS = {"memory": "memory", "pids": "pids", "cpuacct": "cpu", "freezer": ""}
_PREFIX = "hegemon-bot-"
_names = itertools.count()
_lock = threading.Lock()
_swept: set[Path] = set()
# Frozen tasks of a cgroup v1 freezer do not die of SIGKILL until thawed, so a bot frozen when
# its referee dies would never see --die-with-parent act. And a referee killed while bwrap
# sets up a sandbox may die before bwrap's inner process has armed its own parent-death
# signal: that process (the sandbox's PID 1) and the bot would live on. This guard (one per
# referee, outside every bot cgroup) waits for the referee's death, then kills every process
# in its bots' cgroups and thaws them so the kill lands. It forks away from the referee's
# process tree, so killing that whole tree (kill -9 of every descendant) leaves it standing to
# do its work; it waits on a pidfd, not on being its child.
_GUARD = """\
import glob, os, select, signal, sys, time
referee, pattern = int(sys.argv[1]), sys.argv[2]
try:
    watch = os.pidfd_open(referee)
except ProcessLookupError:
    watch = None
child = os.fork()
if child:
    print(child, flush=True)
    os._exit(0)
quiet = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(quiet, fd)
if watch is not None:
    select.select([watch], [], [])
for _ in range(20):  # a process forked while we kill the others is caught next round
    left = 0
    for path in glob.glob(pattern):
        try:
            with open(os.path.join(os.path.dirname(path), "cgroup.procs")) as f:
                pids = [int(line) for line in f if line.strip()]
        except (OSError, ValueError):
            pids = []
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        left += len(pids)
        try:
            with open(path, "w") as f:
                f.write("THAWED")
        except OSError:
            pass
    if not left:
        break
    time.sleep(0.05)
"""
_guard_pids: list[int] = []  # this referee's guard, once started


def _guard(freezer_parent: Path) -> None:
    """Start the thawing guard (see :data:`_GUARD`) unless one of this process runs."""
    with _lock:
        if any(_alive(pid) for pid in _guard_pids):
            return
        pattern = str(freezer_parent / f"{_PREFIX}{os.getpid()}-*" / "freezer.state")
        starter = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _GUARD, str(os.getpid()), pattern],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            start_new_session=True,
        )
        out, _ = starter.communicate()
        _guard_pids[:] = [int(out)] if out.strip() else []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _sweep(available: dict[str, Place]) -> None:
    """Remove (once per process and place) the empty bot cgroups of referees that died without
    removing theirs (killed ones: nothing else would)."""
    for place in available.values():
        with _lock:
            if place.parent in _swept:
                continue
            _swept.add(place.parent)
        for folder in place.parent.glob(f"{_PREFIX}*"):
            owner = folder.name[len(_PREFIX) :].split("-")[0]
            if owner.isdigit() and not Path(f"/proc/{owner}").exists():
                stale = cls_for(place, folder)
                stale.kill()
                try:
                    folder.rmdir()  # refused while any process is still in it
                except OSError:
                    pass


@dataclass(frozen=True)
class Place:
    """Where one controller's bot cgroups go: beneath ``parent`` (the referee's own)."""

    controller: str
    version: int
    parent: Path


def _mounts() -> list[tuple[str, str, str, set[str]]]:
    """(root within the hierarchy, mount point, fs type, super options) of cgroup mounts."""
    found = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            parts, rest = left.split(), right.split()
            if len(parts) >= 5 and len(rest) >= 3 and rest[0] in ("cgroup", "cgroup2"):
                found.append((parts[3], parts[4], rest[0], set(rest[2].split(","))))
    return found


def _below(mount_root: str, mount_point: str, own: str) -> Path | None:
    """The directory of cgroup ``own`` under a mount of the hierarchy rooted at
    ``mount_root``, or None if ``own`` lies outside what is mounted."""
    rel = os.path.relpath(own, mount_root)
    if rel.startswith(".."):
        return None
    return Path(os.path.normpath(os.path.join(mount_point, rel)))


def places() -> dict[str, Place]:
    """The usable controllers (of :data:`CONTROLLERS`): v1 where mounted writable, else v2
    where the referee's own cgroup delegates it. Empty when cgroups are off."""
    if os.environ.get(CGROUPS_ENV, "").strip().lower() in ("off", "0", "no", "false"):
        return {}
    try:
        with open("/proc/self/cgroup") as f:
            lines = [line.rstrip("\n").split(":", 2) for line in f]
        mounts = _mounts()
    except OSError:
        return {}
    found: dict[str, Place] = {}
    for hid, names, own in lines:
        if hid == "0" or not names:
            continue
        for name in set(names.split(",")) & set(CONTROLLERS):
            for root, point, kind, opts in mounts:
                folder = _below(root, point, own) if kind == "cgroup" and name in opts else None
                if folder is not None and _writable(folder / _V1_PROBE[name]):
                    found[name] = Place(name, 1, folder)
                    break
    for hid, _, own in lines:
        if hid != "0":
            continue
        for root, point, kind, _ in mounts:
            folder = _below(root, point, own) if kind == "cgroup2" else None
            if folder is not None:
                _add_v2(found, folder)
    return found


def _writable(path: Path) -> bool:
    return path.exists() and os.access(path.parent, os.W_OK) and os.access(path, os.W_OK)


def _add_v2(found: dict[str, Place], folder: Path) -> None:
    try:
        enabled = set((folder / "cgroup.subtree_control").read_text().split())
    except OSError:
        return
    if not os.access(folder, os.W_OK) or not os.access(folder / "cgroup.procs", os.W_OK):
        return
    for name, needs in _V2_NEEDS.items():
        if name not in found and (not needs or needs in enabled):
            found[name] = Place(name, 2, folder)


def _pairs(text: bytes) -> dict[bytes, int]:
    """The ``name value`` lines of a cgroup's counter file (``memory.events``, …)."""
    pairs = (line.split() for line in text.splitlines())
    return {pair[0]: int(pair[1]) for pair in pairs if len(pair) == 2}


def _no_oom_v1(text: bytes) -> bool:
    stats = _pairs(text)
    return stats.get(b"oom_kill", 0) == 0 and stats.get(b"under_oom", 0) != 1


def _no_oom_v2(text: bytes) -> bool:
    return _pairs(text).get(b"oom_kill", 0) == 0


def _no_forks_refused(text: bytes) -> bool:
    return _pairs(text).get(b"max", 0) == 0


def cls_for(place: Place, folder: Path) -> BotCgroups:
    """The bot cgroup ``folder`` of one controller (e.g. one left by a dead referee)."""
    return BotCgroups({place.controller: Place(place.controller, place.version, folder)})


class BotCgroups:
    """The cgroups of one bot (one per controller in use), made by :meth:`create`."""

    def __init__(self, dirs: dict[str, Place]):
        self.dirs = {name: place.parent for name, place in dirs.items()}
        self.version = {name: place.version for name, place in dirs.items()}
        self._fds: dict[tuple[str, str], int] = {}  # files used on every decision, kept open
        # each counter file as last read showing no breach: read the same, it is not parsed
        self._calm: dict[tuple[str, str], bytes] = {}

    @classmethod
    def create(
        cls, memory: int, processes: int, available: dict[str, Place] | None = None
    ) -> BotCgroups:
        """A fresh cgroup per usable controller, with the bot's limits written."""
        available = places() if available is None else available
        _sweep(available)
        made: dict[str, Place] = {}
        try:
            while True:  # a name left by a dead referee of the same pid is skipped
                with _lock:
                    name = f"{_PREFIX}{os.getpid()}-{next(_names)}"
                if not any((p.parent / name).exists() for p in available.values()):
                    break
            for controller, place in available.items():
                folder = place.parent / name
                if not any(p.parent == folder for p in made.values()):
                    folder.mkdir()
                made[controller] = Place(controller, place.version, folder)
            groups = cls(made)
            groups._set_limits(memory, processes)
            freezer = available.get("freezer")
            if freezer is not None and freezer.version == 1:
                _guard(freezer.parent)
        except OSError:
            cls(made).remove()
            raise
        return groups

    def _set_limits(self, memory: int, processes: int) -> None:
        if "memory" in self.dirs:
            if self.version["memory"] == 1:
                self._write("memory", "memory.limit_in_bytes", str(memory))
                if (self.dirs["memory"] / "memory.memsw.limit_in_bytes").exists():
                    self._write("memory", "memory.memsw.limit_in_bytes", str(memory))
            else:
                self._write("memory", "memory.max", str(memory))
                if (self.dirs["memory"] / "memory.swap.max").exists():
                    self._write("memory", "memory.swap.max", "0")
        if "pids" in self.dirs:
            self._write("pids", "pids.max", str(processes))

    def _write(self, controller: str, file: str, value: str) -> None:
        with open(self.dirs[controller] / file, "w") as f:
            f.write(value)

    def _fd(self, controller: str, file: str, flags: int) -> int:
        key = (controller, file)
        fd = self._fds.get(key)
        if fd is None:
            with _lock:  # the watcher thread and the runner may both be first
                fd = self._fds.get(key)
                if fd is None:
                    fd = os.open(self.dirs[controller] / file, flags | os.O_CLOEXEC)
                    self._fds[key] = fd
        return fd

    def join_files(self) -> list[str]:
        """The ``cgroup.procs`` files a new bot process writes its pid to (each folder once)."""
        return sorted({str(folder / "cgroup.procs") for folder in self.dirs.values()})

    def has(self, controller: str) -> bool:
        """Is ``controller`` in force for this bot?"""
        return controller in self.dirs

    def pids(self) -> list[int]:
        """Every process in the bot's cgroups (host pids)."""
        found: set[int] = set()
        for folder in set(self.dirs.values()):
            try:
                found.update(int(x) for x in (folder / "cgroup.procs").read_text().split())
            except (OSError, ValueError):
                continue
        return sorted(found)

    def breach(self) -> str | None:
        """Which ceiling the kernel enforced in the bot's cgroups, if any: ``"memory"`` (it
        had to kill or refuse memory), ``"processes"`` (it refused a fork at ``pids.max``), or
        None. Cheap (a read of each counter file, kept open, parsed only when it changed):
        asked after every answer."""
        if "memory" in self.dirs and self._out_of_memory():
            return "memory"
        if "pids" in self.dirs and self._changed("pids", "pids.events", _no_forks_refused):
            return "processes"
        return None

    def _out_of_memory(self) -> bool:
        if self.version["memory"] == 1:
            return self._changed("memory", "memory.oom_control", _no_oom_v1)
        return self._changed("memory", "memory.events", _no_oom_v2)

    def _changed(self, controller: str, file: str, calm: Callable[[bytes], bool]) -> bool:
        """Does the counter file now show a breach (``calm`` says it does not)? A file that
        reads as it did when last found calm is not parsed again (counters only grow)."""
        key = (controller, file)
        try:
            text = os.pread(self._fd(controller, file, os.O_RDONLY), 1024, 0)
        except OSError:
            return False
        if text == self._calm.get(key):
            return False
        try:
            if not calm(text):
                return True
        except ValueError:
            return False
        self._calm[key] = text
        return False

    def _counters(self, controller: str, file: str) -> dict[bytes, int]:
        """The ``name value`` lines of one of the bot's counter files (empty if unreadable)."""
        try:
            return _pairs(os.pread(self._fd(controller, file, os.O_RDONLY), 1024, 0))
        except (OSError, ValueError):
            return {}

    def cpu_seconds(self) -> float | None:
        """CPU time the bot's processes used, alive and dead (None without the controller)."""
        if "cpuacct" not in self.dirs:
            return None
        try:
            if self.version["cpuacct"] == 1:
                fd = self._fd("cpuacct", "cpuacct.usage", os.O_RDONLY)
                return int(os.pread(fd, 64, 0)) / 1e9
            usage = self._counters("cpuacct", "cpu.stat").get(b"usage_usec")
            return usage / 1e6 if usage is not None else None
        except (OSError, ValueError):
            return None

    def freeze(self, frozen: bool) -> bool:
        """Freeze (or thaw) every process of the bot; False without the freezer."""
        if "freezer" not in self.dirs:
            return False
        if self.version["freezer"] == 1:
            fd = self._fd("freezer", "freezer.state", os.O_WRONLY)
            os.pwrite(fd, b"FROZEN" if frozen else b"THAWED", 0)
        else:
            fd = self._fd("freezer", "cgroup.freeze", os.O_WRONLY)
            os.pwrite(fd, b"1" if frozen else b"0", 0)
        return True

    def kill(self) -> None:
        """SIGKILL every process in the bot's cgroups, then thaw them so the kill lands."""
        for pid in self.pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            self.freeze(False)
        except OSError:
            pass

    def remove(self) -> bool:
        """Remove the bot's cgroups (once empty); True when all are gone."""
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()
        gone = True
        for folder in set(self.dirs.values()):
            try:
                folder.rmdir()
            except FileNotFoundError:
                pass
            except OSError:
                gone = False
        return gone
