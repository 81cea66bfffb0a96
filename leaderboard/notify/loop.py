"""The arena's notifier: a thread of ``hegemon arena`` beside the matchmaker (never in a
runner) that sends the deliveries due (:mod:`.sender`) every :data:`POLL` seconds, and groups
bots' faults and makes the daily digests every :data:`SCAN_EVERY` seconds. A database outage
is said once and waited out."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from ..challenges.finished import tell_finished
from ..store import Store, StoreError, utcnow
from .digest import send_digests
from .events import group_faults
from .sender import deliver_due

POLL = 0.5
"""Seconds between two looks at the queue of deliveries."""
SCAN_EVERY = 30.0
"""Seconds between two scans for faults and digests."""


def notify_once(store: Store, scan: bool) -> int:
    """One round: the due deliveries (and, with ``scan``, faults and digests); returns the
    deliveries tried."""
    tell_finished(store)  # a few rows at most: each round, so the member hears at once
    if scan:
        now = utcnow()
        group_faults(store, now)
        send_digests(store, now)
    return len(deliver_due(store))


def notifier(store: Store, stop: threading.Event, say: Callable[[str], None]) -> None:
    """Notify until ``stop`` is set."""
    failing, scanned = False, float("-inf")
    while not stop.wait(POLL):
        scan = time.monotonic() - scanned >= SCAN_EVERY
        try:
            notify_once(store, scan)
            failing = False
        except StoreError as exc:
            if not failing:
                say(f"notifier: {exc} (retrying)")
            failing = True
        if scan:
            scanned = time.monotonic()
