"""How long the referee waits for an answer on the CPU clock (referee/runner/patience.py), and
the waits for a CPU it excuses (referee/runner/sandbox/waits.py): a scripted bot on a scripted
clock for the rule, real processes on a really busy CPU for the kernel's counters."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from hegemon.referee.runner.patience import IDLE, CpuPatience
from hegemon.referee.runner.sandbox.waits import excused_waits, referee_priority
from tests.helpers.league import wait_for
from tests.helpers.processes import spinners

ALLOWED, IDLE_LIMIT = 0.5, 2.5


class Scripted:
    """A deciding bot on a scripted clock: each second of wall time its thread computes
    ``cpu`` seconds and waits ``waiting`` seconds for a CPU, until the thread ends at
    ``ends`` (then the bot is idle: its CPU time and the ended thread's waits stay)."""

    def __init__(self, cpu: float, waiting: float, ends: float = float("inf")) -> None:
        self.now, self.cpu, self.waiting, self.ends = 0.0, cpu, waiting, ends

    def patience(self) -> CpuPatience:
        def waits() -> dict[int, int]:
            return {7: int(self.now * self.waiting * 1e9)} if self.now < self.ends else {}

        return CpuPatience(
            ALLOWED,
            IDLE_LIMIT,
            cpu_used=lambda: min(self.now, self.ends) * self.cpu,
            waits=waits,
            clock=lambda: self.now,
            cores=2,
        )

    def wait_out(self, patience: CpuPatience, until: float = 60.0) -> float | None:
        """Follow the patience's waits; the wall time at which it gave up, or None."""
        wait = patience()
        while wait is not None:
            assert wait > 0
            self.now += wait
            if self.now > until:
                return None
            wait = patience()
        return self.now


@pytest.mark.parametrize(
    ("cpu", "waiting", "late_at", "why"),
    [
        (1.0, 0.0, ALLOWED, ""),  # computes on an idle machine: late on its CPU time
        (0.0, 0.0, IDLE_LIMIT, IDLE.format(IDLE_LIMIT)),  # sleeps: late when idle too long
        (0.1, 0.9, ALLOWED / 0.1, ""),  # gets a tenth of a CPU: late only on its CPU time
        (0.0, 1.0, None, ""),  # never gets a CPU: never idle (the wall cap is the arbiter's)
        (0.05, 0.45, 2 * IDLE_LIMIT, IDLE.format(IDLE_LIMIT)),  # waits half the time, sleeps half
    ],
)
def test_a_decision_is_late_on_its_cpu_time_or_its_idle_time(cpu, waiting, late_at, why):
    bot = Scripted(cpu, waiting)
    patience = bot.patience()
    gave_up = bot.wait_out(patience)
    if late_at is None:
        assert gave_up is None
    else:
        # it looks again no later than the soonest either limit can be reached, and the first
        # look's idle time (before the waits are first read) is the only slack
        assert gave_up == pytest.approx(late_at, abs=ALLOWED / 2 + 0.01)
    assert patience.why == why


def test_a_helper_that_waited_and_ended_keeps_its_waits():
    """A helper thread (or child) that got a tenth of a CPU for 3 s, then ended: the bot was
    idle from then on only, and is late a backstop later (not at once)."""
    bot = Scripted(0.1, 0.9, ends=3.0)
    assert bot.wait_out(bot.patience()) == pytest.approx(3.0 + IDLE_LIMIT, abs=ALLOWED)


def test_the_first_look_reads_nothing():
    """Most answers come before the second look: they cost the referee no read at all."""
    reads: list[str] = []

    def cpu_used() -> float:
        reads.append("cpu")
        return 0.0

    def waits() -> dict[int, int]:
        reads.append("waits")
        return {}

    patience = CpuPatience(ALLOWED, IDLE_LIMIT, cpu_used, waits, clock=lambda: 0.0, cores=2)
    assert patience() == ALLOWED / 2 and reads == []
    assert patience() is not None and reads == ["cpu", "waits"]


# ---------------------------------------------------------------------- the kernel's counters
def test_waits_for_a_cpu_are_read_and_a_lowered_priority_is_not_excused():
    """Three spinners share one CPU, so each waits for it. Against a referee on that CPU
    alone, the two that kept its priority have their waits read, and growing; the one that
    lowered its own priority (nice 10) has none excused. Against a referee free to use more
    CPUs, none has: each narrowed the CPUs it runs on."""
    cpu = max(os.sched_getaffinity(0))
    priority = replace(referee_priority(), cpus=frozenset({cpu}))
    # os.nice adds to what the spinner inherited: under `nice pytest` it ends at 19, not 10
    lowered = min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
    with spinners(2, cpu) as normal_ones, spinners(1, cpu, nice=10) as niced_ones:
        pids = [p.pid for p in normal_ones + niced_ones]
        first = excused_waits(pids, priority)
        normal = {int(t) for pid in pids[:2] for t in os.listdir(f"/proc/{pid}/task")}

        def settled() -> bool:
            """Each spinner has pinned itself (and the third niced itself), and the two
            normal ones have waited since ``first``."""
            now = excused_waits(pids, priority)
            pinned = all(os.sched_getaffinity(pid) == {cpu} for pid in pids)
            niced = os.getpriority(os.PRIO_PROCESS, pids[2]) == lowered
            return pinned and niced and all(now.get(t, 0) > first.get(t, 0) for t in normal)

        wait_for("the spinners to pin themselves and wait for the CPU", settled, 60, 0.01)
        now = excused_waits(pids, priority)
        assert set(now) == normal, (now, normal)  # the niced spinner's thread is left out
        if len(os.sched_getaffinity(0)) > 1:
            assert excused_waits(pids, referee_priority()) == {}
    assert excused_waits(pids, priority) == {}  # gone: nothing read, nothing raised
