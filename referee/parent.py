"""A child process that must not outlive the process that started it."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

LOOK_EVERY = 0.5
"""Seconds between two looks at whether the parent is still there."""


def on_parent_gone(parent: int, gone: Callable[[], object]) -> None:
    """Call ``gone`` (in a daemon thread of this process) once ``parent`` is no longer this
    process's parent, however it ended — SIGKILL included. (Not PR_SET_PDEATHSIG: that fires
    when the parent *thread* that started us ends, and trio and process pools start processes
    from short-lived threads.)"""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(LOOK_EVERY)
        gone()

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
