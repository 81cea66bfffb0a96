"""How long a bot's threads have waited for a CPU: the time a busy machine, not the bot,
spent of a decision's wall time.

On the CPU clock a decision that is neither computing nor answering is stopped by a wall-clock
backstop on the bot's *idle* time (see :mod:`hegemon.referee.timecontrol`). Time a thread was
ready to run but waited on a run queue is the machine's: the kernel counts it per thread in
``/proc/PID/task/TID/schedstat`` (the second field, nanoseconds), and the backstop excuses it.

A thread that lowered its own priority (a higher nice value, ``SCHED_BATCH``/``SCHED_IDLE``,
or a higher nice value of its process's autogroup) or narrowed the CPUs it may run on (it
could pin itself to a CPU it knows to be busy) chose to wait: its waits are not excused, so a
bot cannot stall a game by making itself the last to run.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

_NICE_FIELD = 16  # field 19 of /proc/…/stat, counted after the ``(comm)`` field
_POLICY_FIELD = 38  # field 41


@dataclass(frozen=True)
class Priority:
    """How a thread is scheduled: its nice value, its policy and the CPUs it may run on."""

    nice: int
    policy: int
    cpus: frozenset[int]

    def kept_by(self, nice: int, policy: int, cpus: set[int]) -> bool:
        """Is a thread scheduled so no worse than this?"""
        return nice <= self.nice and policy == self.policy and self.cpus <= cpus


def referee_priority() -> Priority:
    """The referee's (its calling thread's) priority: the bots it starts inherit it."""
    return Priority(
        os.getpriority(os.PRIO_PROCESS, 0),
        os.sched_getscheduler(0),
        frozenset(os.sched_getaffinity(0)),
    )


def excused_waits(pids: Iterable[int], priority: Priority) -> dict[int, int]:
    """Nanoseconds each thread of ``pids`` has waited for a CPU so far, by thread id, for the
    threads that kept ``priority`` (or a better one). A thread or process gone meanwhile, or
    unreadable, is left out."""
    waits: dict[int, int] = {}
    for pid in pids:
        if _autogroup_nice(pid) > 0:
            continue
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in threads:
            folder = f"/proc/{pid}/task/{tid}"
            try:
                with open(f"{folder}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                nice, policy = int(fields[_NICE_FIELD]), int(fields[_POLICY_FIELD])
                if not priority.kept_by(nice, policy, os.sched_getaffinity(int(tid))):
                    continue
                with open(f"{folder}/schedstat", "rb") as f:
                    waits[int(tid)] = int(f.read().split()[1])
            except (OSError, ValueError, IndexError):
                continue
    return waits


def _autogroup_nice(pid: int) -> int:
    """The nice value of ``pid``'s autogroup (``/autogroup-N nice K``), 0 without one."""
    try:
        with open(f"/proc/{pid}/autogroup", "rb") as f:
            return int(f.read().split()[-1])
    except (OSError, ValueError, IndexError):
        return 0


def waited_since(first: dict[int, int], now: dict[int, int]) -> float:
    """Seconds the bot waited for a CPU since ``first`` was read: the most any one of the
    threads of ``now`` waited (a thread born since counts from its birth).

    Not their sum: threads wait at the same time, and a Python bot's idle threads wake
    often (each for its interpreter lock), so on a busy machine their waits add up to about
    the wall time. A bot computing on one thread waited as long as that thread; one
    computing on several, at least as long as the one that waited most.

    >>> waited_since({1: 5_000_000_000}, {1: 5_500_000_000, 2: 250_000_000})
    0.5
    """
    return max([0, *(ns - first.get(tid, 0) for tid, ns in now.items())]) / 1e9
