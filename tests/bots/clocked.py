"""A bot for the clock's tests (tests/runner/test_bot_clock.py): how it spends each decision's time
is its first argument. Each computation logs ``computed S`` once done.

    share F   computes for F of its deadline, in CPU time, then answers
    child F   has a grandchild (forked twice, its parent gone) compute for F of the deadline,
              waits for it, then answers
    thread F  has a thread compute for F of the deadline while it waits, then answers
    sleep F   sleeps for F of its deadline, then answers
    starved F computes for F of its deadline on its first three decisions, answers the
              others at once; logs ``took W`` (the wall seconds) after each computation (the
              test runs the whole game on one busy CPU)
    niced F   the same, at the lowest priority, which it gave itself (nice 19)
    pinned F CPU    the same, pinning itself to CPU (which the test keeps busy)
"""

from __future__ import annotations

import os
import sys
import threading
import time

from hegemon.sdk import Bot, run

MODE, FRACTION = sys.argv[1], float(sys.argv[2])
STARVED = 3  # decisions computed in the starved modes


def compute(seconds: float) -> None:
    """Use ``seconds`` of this thread's CPU time, and say so."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass
    print(f"computed {seconds:.3f}", flush=True)  # the test sums these


def in_grandchild(seconds: float) -> None:
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        if os.fork() == 0:  # the grandchild, orphaned at once
            compute(seconds)
            os.write(write, b"x")
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    os.read(read, 1)
    os.close(read)


STARVED_MODES = ("starved", "niced", "pinned")


def starve_this_thread() -> None:
    """``niced``: give this thread the lowest priority; ``pinned``: run it on the busy CPU
    only. On Linux both apply to the calling thread alone (the bot's others are left as
    they are, so its start-up stays quick)."""
    if MODE == "niced":
        os.setpriority(os.PRIO_PROCESS, 0, 19)
    elif MODE == "pinned":
        os.sched_setaffinity(0, {int(sys.argv[3])})


class Clocked(Bot):
    name = f"clocked-{MODE}"
    computed = 0

    def decide(self, view, decision):
        seconds = FRACTION * view.deadline_ms / 1000
        if MODE in STARVED_MODES:
            if self.computed < STARVED:
                self.computed += 1
                starve_this_thread()
                began = time.monotonic()
                compute(seconds)
                print(f"took {time.monotonic() - began:.3f}", flush=True)
        elif MODE == "share":
            compute(seconds)
        elif MODE == "child":
            in_grandchild(seconds)
        elif MODE == "thread":
            worker = threading.Thread(target=compute, args=(seconds,))
            worker.start()
            worker.join()
        elif MODE == "sleep":
            time.sleep(seconds)
        return super().decide(view, decision)


if __name__ == "__main__":
    run(Clocked())
