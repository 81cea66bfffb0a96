"""The arena's stop flag: SIGINT and SIGTERM set it, from the first line of ``hegemon arena``
on, so a signal that arrives while the arena is still starting (runners being spawned, the web
server being imported or bound) is never lost: whatever starts next looks at the flag first,
and the web server's own exit flag reads it (:class:`hegemon.leaderboard.web.stoppable
.StoppableServer`). Kept free of heavy imports so it can be installed before they run."""

from __future__ import annotations

import signal
import threading
from types import FrameType

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def stop_on_signals() -> threading.Event:
    """A flag that SIGINT and SIGTERM set from now on (instead of raising KeyboardInterrupt
    or ending the process at whatever line it was on)."""
    stop = threading.Event()

    def handler(signum: int, frame: FrameType | None) -> None:
        stop.set()

    for signum in STOP_SIGNALS:
        signal.signal(signum, handler)
    return stop
