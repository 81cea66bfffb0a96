"""How long a bot's threads have waited for a CPU: the time a busy machine, not the bot,
spent of a decision's wall time.

On the CPU clock a decision that is neither computing nor answering is stopped by a wall-clock
backstop on the bot's *idle* time (see :mod:`hegemon.referee.timecontrol`). Time a thread was
ready to run but waited on a run queue is the machine's: the kernel counts it per thread in
``/proc/PID/task/TID/schedstat`` (the second field, nanoseconds), and the backstop excuses it.

A thread that lowered its own priority (a higher nice value, ``SCHED_BATCH``/``SCHED_IDLE``,
or a higher nice value of its process's autogroup) chose to wait: its waits are not excused,
so a bot cannot stall a game by making itself the last to run.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

_NICE_FIELD = 16  # field 19 of /proc/…/stat, counted after the ``(comm)`` field
_POLICY_FIELD = 38  # field 41


def referee_priority() -> tuple[int, int]:
    """(nice, scheduling policy) of the referee: its bots start with the same."""
    return os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0)


def excused_waits(pids: Iterable[int], priority: tuple[int, int]) -> dict[int, int]:
    """Nanoseconds each thread of ``pids`` has waited for a CPU so far, by thread id, for the
    threads still at ``priority`` (or a better one). A thread or process gone meanwhile, or
    unreadable, is left out."""
    nice, policy = priority
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
                if int(fields[_NICE_FIELD]) > nice or int(fields[_POLICY_FIELD]) != policy:
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
    """Seconds the threads of ``now`` waited for a CPU since ``first`` was read (a thread
    born since counts from its birth).

    >>> waited_since({1: 5_000_000_000}, {1: 5_500_000_000, 2: 250_000_000})
    0.75
    """
    return sum(max(0, ns - first.get(tid, 0)) for tid, ns in now.items()) / 1e9
