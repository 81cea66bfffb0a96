"""Calling a function the next time trio's tasks all wait, at no system call's cost.

``run_sync_soon`` from trio's own thread wakes trio through its wakeup socket (a write, an
``epoll`` wake and a read): the runner did that once a decision, to freeze at the referee's
next wait the bots it paused ``soon``. Here one system task per trio run, parked until it is
rescheduled, does the calling instead: rescheduling is a list append, and the task runs when
the task that asked it next waits (trio runs every runnable task before it polls again).
"""

from __future__ import annotations

from collections.abc import Callable

import trio

_LULL: trio.lowlevel.RunVar[_Lull] = trio.lowlevel.RunVar("hegemon_lull")


class _Lull:
    """One trio run's system task and what it is to call next (each function once)."""

    def __init__(self) -> None:
        self.calls: list[Callable[[], object]] = []
        self.task: trio.lowlevel.Task | None = None
        self.parked = False

    async def run(self) -> None:
        self.task = trio.lowlevel.current_task()
        while True:
            calls, self.calls = self.calls, []
            for call in calls:
                call()
            self.parked = True
            await trio.lowlevel.wait_task_rescheduled(_abort)


def _abort(_: object) -> trio.lowlevel.Abort:
    return trio.lowlevel.Abort.SUCCEEDED  # cancelled when trio's run ends: nothing to undo


def at_next_wait(call: Callable[[], object]) -> None:
    """Call ``call()`` in trio's thread once the calling task next waits (``call`` is asked
    once however often it is asked for before that). Call from trio's thread only."""
    try:
        lull = _LULL.get()
    except LookupError:
        lull = _Lull()
        _LULL.set(lull)
        trio.lowlevel.spawn_system_task(lull.run, name="hegemon-lull")
    if call not in lull.calls:
        lull.calls.append(call)
    if lull.parked and lull.task is not None:
        lull.parked = False
        trio.lowlevel.reschedule(lull.task)
