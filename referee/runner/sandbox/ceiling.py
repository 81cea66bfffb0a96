"""The ceiling of one bot: all its processes together bounded in memory, tasks and CPU time,
and frozen while it is not deciding.

Where the host offers cgroups (see :mod:`.cgroups`), the kernel enforces the bot's memory and
task ceilings and freezes it; a watcher thread notices an out-of-memory kill or too much CPU
time and stops the whole bot with the named fault (``memory``, ``cpu``). Where it does not,
the watcher keeps the same guarantees by itself: every few milliseconds it sums the resident
memory and the CPU time of every process of the bot's sandbox (its process tree: the bot runs
in a PID namespace of its own, so an orphan stays in it) and kills them all at the limit;
pausing then stops every process with SIGSTOP and resuming continues them with SIGCONT.

**For bot authors: no pondering.** A bot's processes run only while it is deciding (and while
it starts, and in ``StartGame``/``EndGame``). Between its decisions every process and thread
of the bot is frozen, so thinking ahead in the background on the opponents' time is
impossible, for everybody alike; background threads and children simply stand still until the
next request arrives, and a bot's timers do not fire while it is frozen. (A bot asked several
times in a row is frozen only when another bot is asked or the referee waits: the CPU time it
uses meanwhile counts toward its next decision.)
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from .cgroups import BotCgroups, Place, places
from .limits import SandboxLimits
from .waits import excused_waits, referee_priority

MEMORY = "memory"
CPU = "cpu"
PROCESSES = "processes"
NPROC_SLACK = 16  # tasks of the uid outside the bot: bwrap, a stray process of another host
WATCH_INTERVAL = 0.02  # seconds between two looks at a bot's memory without cgroups
_PAGE = os.sysconf("SC_PAGE_SIZE")
_TICKS = os.sysconf("SC_CLK_TCK")
# sh that joins the bot's cgroups and then becomes the bot's launcher (cheap: no interpreter)
_JOIN = 'for f in "$@"; do [ "$f" = -- ] && break; echo $$ > "$f" || exit 126; shift; done; '
_JOIN += 'shift; exec "$@"'


def tree(root: int) -> list[int]:
    """``root`` and all its descendants (through ``/proc/<pid>/task/*/children``)."""
    todo, seen = [root], []
    while todo:
        pid = todo.pop()
        seen.append(pid)
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children", "rb") as f:
                    todo.extend(int(x) for x in f.read().split())
        except (OSError, ValueError):
            continue
    return seen


def _statm_rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


def _pss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return _statm_rss(pid)


def memory_of(pids: Iterable[int], limit: int) -> int:
    """The resident memory of ``pids`` together: the sum of their RSS, or (when that passes
    ``limit``, as memory shared after a fork counts once per process) of their PSS."""
    pids = list(pids)
    total = sum(_statm_rss(pid) for pid in pids)
    return total if total <= limit else sum(_pss(pid) for pid in pids)


def cpu_of(pids: Iterable[int]) -> float:
    """CPU seconds of ``pids`` and of their children already reaped."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15])
        except (OSError, ValueError, IndexError):
            continue
    return total / _TICKS


def _signal_all(pids: Iterable[int], signum: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


class Ceiling:
    """One bot's ceiling (see the module docstring). Made before the bot starts (its first
    process joins the cgroups: :meth:`join_prefix`, :meth:`join_files`), :meth:`attach`-ed to
    the started process, then watched until :meth:`close`."""

    def __init__(
        self,
        limits: SandboxLimits,
        uid: int | None = None,
        available: dict[str, Place] | None = None,
    ):
        self.limits = limits
        self.uid = uid
        available = places() if available is None else available
        self.cgroups: BotCgroups | None = (
            BotCgroups.create(limits.total_memory_bytes, limits.processes, available)
            if available
            else None
        )
        self.root: int | None = None
        self.log_path: Path | None = None
        self.paused = False
        self.look_pending = False  # the watcher has yet to look at the bot since it was frozen
        self.cpu_while_paused = 0.0  # seconds the bot computed although frozen (should be ~0)
        self.deferred = False  # paused "soon", not frozen yet (see pause)
        self.idle = False  # it used no CPU time (under IDLE_CPU) between its last two decisions
        self._cpu_at_pause = 0.0
        self._cpu_at_resume = 0.0
        self._looked = 0.0  # time.monotonic() of the last look at its CPU time while deferred
        self._unpaid = 0.0  # CPU seconds used after an answer, before the freeze: charged next
        self._stopped: list[int] = []
        self._fault: tuple[str, str] | None = None
        self._closed = False
        self._lock = threading.Lock()
        self._priority = referee_priority()  # the bot's processes start with the referee's

    # ------------------------------------------------------------------ before the start
    def join_files(self) -> list[str]:
        """The cgroup files the bot's first process writes its pid to (none without cgroups)."""
        return self.cgroups.join_files() if self.cgroups is not None else []

    def join_prefix(self) -> list[str]:
        """A command-line prefix that joins the bot's cgroups and then execs the rest."""
        files = self.join_files()
        if not files:
            return []
        return ["/bin/sh", "-c", _JOIN, "hegemon-join", *files, "--"]

    def attach(self, pid: int, log_path: Path | None = None) -> None:
        """Watch the started bot (``pid`` is its first process)."""
        self.root = pid
        self.log_path = log_path
        _watcher.add(self)

    def launch_limits(self) -> SandboxLimits:
        """The per-process limits to start the bot with. Where the pids cgroup counts the
        bot's tasks, RLIMIT_NPROC is only a backstop, set above it: that rlimit counts every
        task of the uid on the whole kernel, which other containers on the machine may also
        run as, so it could refuse the bot's fork first and leave no trace the ceiling can
        read (a ``startup`` or ``late`` fault instead of ``processes``)."""
        if self.cgroups is None or not self.cgroups.has("pids"):
            return self.limits
        return replace(self.limits, processes=2 * self.limits.processes + NPROC_SLACK)

    # ------------------------------------------------------------------ its processes
    def pids(self) -> list[int]:
        """Every process of the bot now."""
        if self.cgroups is not None:
            return self.cgroups.pids()
        # both launches put the bot in a PID namespace of its own, whose init is in this tree:
        # an orphan is adopted by that init, so no process of the bot leaves the tree
        return tree(self.root) if self.root is not None else []

    def waits(self) -> dict[int, int]:
        """Nanoseconds each thread of the bot has waited for a CPU so far, by thread id
        (those that kept the priority they started with: see :mod:`.waits`)."""
        return excused_waits(self.pids(), self._priority)

    def memory_mechanism(self) -> str:
        """What bounds the bot's memory: ``cgroup v1``/``cgroup v2`` or ``watcher``."""
        return self._mechanism(MEMORY)

    def freezer_mechanism(self) -> str:
        """What freezes the bot: ``cgroup v1``/``cgroup v2`` or ``signals`` (SIGSTOP)."""
        return self._mechanism("freezer", "signals")

    def _mechanism(self, controller: str, otherwise: str = "watcher") -> str:
        if self.cgroups is not None and self.cgroups.has(controller):
            return f"cgroup v{self.cgroups.version[controller]}"
        return otherwise

    # ------------------------------------------------------------------ fairness
    def pause(self, soon: bool = False) -> bool:
        """Freeze every process of the bot (cheap; the cgroup freezer completes on its own).

        ``soon``: freeze it when another bot is resumed or :func:`freeze_deferred` is called,
        whichever comes first; resumed before that, it was never frozen (a bot asked several
        times in a row saves a freeze and a thaw per decision). The CPU time it uses until it
        is frozen counts toward its next decision (:meth:`cpu_since_resume`).

        Returns whether a freeze is due at the caller's next look (:func:`freeze_deferred`):
        True for a bot paused ``soon`` that was not idle between its last two decisions (one
        that was is only frozen once it computes, see :meth:`_freeze_deferred`, so a look
        made at once would find nothing to freeze: the next bot's resume looks anyway)."""
        if self.paused or self._fault is not None:
            return False
        if soon:
            if not self.deferred:
                self._cpu_at_pause = self.cpu_seconds()
                self._looked = time.monotonic()
                self.deferred = True
                with _deferred_lock:
                    _deferred.add(self)
            return not self.idle
        self._freeze()
        self._cpu_at_pause = self.cpu_seconds()
        return False

    def _freeze(self) -> None:
        self.paused = True
        self.look_pending = True
        if self.cgroups is None or not self.cgroups.freeze(True):
            self._stopped = self._stop_all()

    def _freeze_deferred(self, now: float | None = None) -> None:
        """Freeze a bot paused ``soon``; the CPU time it used since is charged later. A bot
        that was idle between its last two decisions and is idle still (it waits for its next
        request, as almost every bot does) stays deferred, unfrozen: it is looked at again at
        the next call, and frozen once it computes (a freeze and a thaw cost the referee more
        than the look). A bot never seen idle is frozen at once, as it always was.

        ``now`` (``time.monotonic()``, from another bot's resume): an idle bot looked at less
        than :data:`LOOK_INTERVAL` ago is not looked at again yet (in a quick game the bots
        take turns faster than that: no read of their CPU time at every turn)."""
        if not self.deferred:
            return
        running = self._fault is None and not self._closed
        if self.idle and running:
            if now is not None and now - self._looked < LOOK_INTERVAL:
                return
            self._looked = time.monotonic() if now is None else now
            if self.cpu_seconds() - self._cpu_at_pause < IDLE_CPU:
                return
        self._forget_deferred()
        if self._fault is not None or self._closed:
            return
        self._freeze()
        now = self.cpu_seconds()
        self._unpaid += max(0.0, now - self._cpu_at_pause)
        self._cpu_at_pause = now

    def _forget_deferred(self) -> None:
        self.deferred = False
        with _deferred_lock:
            _deferred.discard(self)

    def _stop_all(self) -> list[int]:
        stopped: list[int] = []
        for _ in range(3):  # a process forked while we stop the others is caught next round
            fresh = [pid for pid in self.pids() if pid not in stopped]
            if not fresh:
                break
            _signal_all(fresh, signal.SIGSTOP)
            stopped += fresh
        return stopped

    def resume(self) -> None:
        """Let every process of the bot run again (its CPU time so far is noted first, for
        :meth:`cpu_since_resume`); bots paused ``soon`` are frozen first."""
        _freeze_others(self)
        if self.deferred:  # asked again before it was frozen: it still runs
            self._forget_deferred()
            self.idle = self.cpu_seconds() - self._cpu_at_pause < IDLE_CPU
            self._cpu_at_resume = self._cpu_at_pause - self._unpaid
            self._unpaid = 0.0
            return
        now = self.cpu_seconds()
        self.idle = self.paused and self._unpaid + now - self._cpu_at_pause < IDLE_CPU
        self._cpu_at_resume = now - self._unpaid
        self._unpaid = 0.0
        if not self.paused:
            return
        self.paused = False
        self.cpu_while_paused += max(0.0, now - self._cpu_at_pause)
        if self.cgroups is not None and self.cgroups.has("freezer"):
            self.cgroups.freeze(False)
            return
        # a stopped process cannot fork: the processes stopped are all there are
        stopped, self._stopped = self._stopped, []
        _signal_all(stopped, signal.SIGCONT)

    def cpu_since_resume(self) -> float:
        """CPU seconds all the bot's processes used since :meth:`resume` (until :meth:`pause`
        if it is frozen now): the time of one decision on the CPU clock. Processes outside
        the bot's — the referee's encoding, transport, thawing — never count."""
        now = self._cpu_at_pause if self.paused or self.deferred else self.cpu_seconds()
        return max(0.0, now - self._cpu_at_resume)

    def cpu_seconds(self) -> float:
        """CPU time of all the bot's processes together so far."""
        found = self.cgroups.cpu_seconds() if self.cgroups is not None else None
        return found if found is not None else cpu_of(self.pids())

    # ------------------------------------------------------------------ limits
    def fault(self) -> tuple[str, str] | None:
        """(kind, detail) once the bot broke its ceiling: ``memory``, ``processes`` or ``cpu``.

        It first reads the kernel's own counts in the bot's cgroups (out-of-memory kills, forks
        refused at the process limit: files kept open, cheap enough after every answer). The
        kernel may stop one process of the bot (a child over the ceiling) or refuse it a fork
        while the rest plays on, and the watcher looks only every few milliseconds and never
        at a frozen bot: without this look such a breach would go unrecorded or be recorded
        late, depending on timing."""
        if self._fault is None and not self._closed:
            self._kernel_breach()
        return self._fault

    def _kernel_breach(self) -> bool:
        """Stop the bot with its fault if the kernel enforced one of its cgroup limits."""
        kind = self.cgroups.breach() if self.cgroups is not None else None
        if kind is None:
            return False
        self._break(kind, self._detail(kind))
        return True

    def _detail(self, kind: str) -> str:
        if kind == PROCESSES:
            return (
                f"the bot's processes and threads together reached its limit of "
                f"{self.limits.processes}: a fork was refused"
            )
        mib = self.limits.total_memory_bytes >> 20
        return f"the bot's processes together passed its memory ceiling of {mib} MiB"

    def check(self) -> None:
        """One look (by the watcher thread): stop the whole bot if it broke its ceiling."""
        if self._fault is not None or self.root is None:
            return
        limits = self.limits
        if self._kernel_breach():
            return
        cpu = self.cgroups.cpu_seconds() if self.cgroups is not None else None
        pids: list[int] | None = None
        if self.cgroups is None or not self.cgroups.has(MEMORY):
            pids = self.pids()
            if memory_of(pids, limits.total_memory_bytes) > limits.total_memory_bytes:
                self._break(MEMORY, self._detail(MEMORY))
                return
        if cpu is None:
            cpu = cpu_of(pids if pids is not None else self.pids())
        if cpu > limits.cpu_seconds:
            self._break(
                CPU,
                f"the bot's processes together used {cpu:.1f} s of CPU time, "
                f"past its ceiling of {limits.cpu_seconds} s",
            )

    def _break(self, kind: str, detail: str) -> None:
        with self._lock:
            if self._fault is not None:
                return
            self._fault = (kind, detail)
        # the note goes first: whoever waits for the bot's end may read its log at once
        if self.log_path is not None:
            try:
                with open(self.log_path, "a") as log:
                    log.write(f"\nhegemon: {kind} fault: {detail}: stopped\n")
            except OSError:
                pass
        self.kill()

    def kill(self) -> None:
        """SIGKILL every process of the bot, frozen or stopped ones included."""
        if self.cgroups is not None:
            self.cgroups.kill()
        pids = self.pids() if self.cgroups is None else []
        _signal_all(pids, signal.SIGKILL)
        _signal_all(pids, signal.SIGCONT)
        self._forget_deferred()
        self.paused = False
        self._stopped = []

    def close(self) -> bool:
        """Stop watching; kill what is left and remove the cgroups (True once removed)."""
        _watcher.discard(self)
        self._closed = True
        self.kill()
        return self.cgroups.remove() if self.cgroups is not None else True


IDLE_CPU = 0.001
"""CPU seconds a bot paused ``soon`` may use and still be left unfrozen (its gRPC server's
own bookkeeping after it answered: the time counts toward its next decision all the same)."""
_deferred: set[Ceiling] = set()
"""Bots paused ``soon`` (see :meth:`Ceiling.pause`), not frozen yet."""
_deferred_lock = threading.Lock()


LOOK_INTERVAL = 0.02
"""Seconds between two looks at an idle bot paused ``soon`` when other bots are resumed (as
often as the watcher looks at a running bot's memory and CPU time)."""


def freeze_deferred() -> None:
    """Freeze every bot paused ``soon`` now (an idle one only if it computes)."""
    with _deferred_lock:
        waiting = list(_deferred)
    for ceiling in waiting:
        ceiling._freeze_deferred()


def _freeze_others(resumed: Ceiling) -> None:
    """Freeze the bots paused ``soon`` before ``resumed`` runs: each that was not idle, and
    each idle one computing now (looked at every :data:`LOOK_INTERVAL` at most)."""
    if len(_deferred) <= (resumed in _deferred):  # nobody else deferred: no lock, no list
        return
    now = time.monotonic()
    with _deferred_lock:
        waiting = [ceiling for ceiling in _deferred if ceiling is not resumed]
    for ceiling in waiting:
        ceiling._freeze_deferred(now)


class _Watcher:
    """One daemon thread looking at every attached ceiling in turn."""

    def __init__(self) -> None:
        self._ceilings: set[Ceiling] = set()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def add(self, ceiling: Ceiling) -> None:
        with self._lock:
            self._ceilings.add(ceiling)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="hegemon-ceiling", daemon=True
                )
                self._thread.start()
        self._wake.set()

    def wake(self) -> None:
        """Look at every bot now (not only after the interval)."""
        self._wake.set()

    def discard(self, ceiling: Ceiling) -> None:
        with self._lock:
            self._ceilings.discard(ceiling)

    def _run(self) -> None:
        while True:
            with self._lock:
                ceilings = list(self._ceilings)
            if not ceilings:
                self._wake.wait()
                self._wake.clear()
                continue
            for ceiling in ceilings:
                # a frozen bot neither allocates nor computes: one look after it was frozen
                # (what it did since the last look) is enough until it runs again
                if not ceiling.paused or ceiling.look_pending:
                    ceiling.look_pending = False
                    try:
                        ceiling.check()
                    except Exception:  # the watcher must outlive any surprise
                        pass
            self._wake.wait(WATCH_INTERVAL)  # a bot just attached is looked at at once
            self._wake.clear()


_watcher = _Watcher()
