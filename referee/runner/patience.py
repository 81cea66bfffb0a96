"""How long the referee waits for one answer of a bot timed on the CPU clock.

The bot is late once it has used its deadline's CPU time, or once it has been *idle* for the
backstop (:meth:`~hegemon.referee.timecontrol.TimeControl.backstop`): wall time in which it
neither computed nor waited for a CPU (it slept, or blocked). Time spent waiting for a CPU is
the busy machine's, never the bot's (:mod:`.sandbox.waits` reads it), so how busy the machine
was decides nothing. Pure logic: the CPU time, the waits and the clock are given to it.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import trio

from .sandbox.waits import waited_since

CPU_LOOK = 0.005
"""The shortest wait between two looks at a deciding bot (seconds)."""
IDLE = "it was idle (neither computing nor waiting for a CPU) for {:.3f} s: it slept or blocked"
"""Why an answer was late that never came while the bot was idle (in the record: no measured
figure in it, so the same cause has the same words)."""
_CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class CpuPatience:
    """The patience of one decision (see :func:`.bridge.call`): called, it says how many
    seconds more to wait before it is called again, or None once the bot is late; :attr:`why`
    then says why, unless it is the CPU time (the arbiter's meter says that itself).

    ``cpu_used()`` is the bot's CPU seconds since it was asked, ``waits()`` its threads' waits
    for a CPU (nanoseconds by thread id: see :func:`.sandbox.waits.excused_waits`)."""

    def __init__(
        self,
        allowed: float,
        idle_limit: float,
        cpu_used: Callable[[], float],
        waits: Callable[[], dict[int, int]],
        clock: Callable[[], float] = trio.current_time,
        cores: int = _CORES,
    ) -> None:
        self.allowed, self.idle_limit, self.cores = allowed, idle_limit, cores
        self.cpu_used, self.waits, self.clock = cpu_used, waits, clock
        self.started = clock()
        self.why = ""
        self._looks = 0
        self._first_waits: dict[int, int] | None = None
        self._seen: dict[int, int] = {}  # the most each thread was seen to have waited

    def __call__(self) -> float | None:
        self._looks += 1
        if self._looks == 1:  # nothing can have been used yet: no look
            return self._next(0.0, 0.0)
        used = self.cpu_used()
        if used >= self.allowed:
            return None
        # the waits are read from the second look on (most answers come before it, and cost
        # no read); a wait before it counts as idle, a bounded generosity to the sleepers
        waits = self.waits()
        if self._first_waits is None:
            self._first_waits = dict(waits)
        # a thread or child that ended since (a helper that computed and exited) keeps the
        # waits it was last seen with
        for tid, ns in waits.items():
            self._seen[tid] = max(ns, self._seen.get(tid, 0))
        waited = waited_since(self._first_waits, self._seen)
        idle = self.clock() - self.started - used - waited
        if idle >= self.idle_limit:
            self.why = IDLE.format(self.idle_limit)
            return None
        return self._next(used, idle)

    def _next(self, used: float, idle: float) -> float:
        """The soonest either limit can be reached: the bot cannot use more CPU time than the
        machine has cores in a wall second, nor be idle for more than a second in one."""
        return max(CPU_LOOK, min((self.allowed - used) / self.cores, self.idle_limit - idle))
