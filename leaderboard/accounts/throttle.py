"""Slowing down password guessing: after a few failed sign-ins an account (or an address) must
wait before the next try, twice as long after every further failure, up to a cap.

The counts are kept in the web process's memory: a restart forgets them, which costs a guesser
little (the waits are minutes, a restart is rare). Keys are whatever the caller counts by:
``user:NAME`` and ``addr:IP``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Failures:
    count: int = 0
    until: float = 0.0  # monotonic time before which no attempt is taken


class Throttle:
    """Failed attempts per key: ``free`` failures cost nothing, the next one makes the key wait
    ``first_wait`` seconds, each further one twice as long, at most ``max_wait``."""

    def __init__(
        self,
        free: int,
        first_wait: float = 1.0,
        max_wait: float = 900.0,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.free, self.first_wait, self.max_wait = free, first_wait, max_wait
        self._clock = clock
        self._keys: dict[str, _Failures] = {}
        self._lock = threading.Lock()

    def wait(self, key: str) -> float:
        """Seconds ``key`` must still wait before its next attempt (0: it may try now)."""
        with self._lock:
            found = self._keys.get(key)
            return 0.0 if found is None else max(0.0, found.until - self._clock())

    def failed(self, key: str) -> None:
        """Count a failed attempt of ``key``."""
        with self._lock:
            self._forget_old()
            found = self._keys.setdefault(key, _Failures())
            found.count += 1
            if found.count > self.free:
                extra = min(found.count - self.free - 1, 30)
                found.until = self._clock() + min(self.max_wait, self.first_wait * 2**extra)

    def succeeded(self, key: str) -> None:
        """A successful attempt of ``key``: its count starts again."""
        with self._lock:
            self._keys.pop(key, None)

    def _forget_old(self) -> None:
        """Keep memory bounded: drop keys idle for longer than the longest wait."""
        if len(self._keys) < 10_000:
            return
        now = self._clock()
        for key in [k for k, f in self._keys.items() if f.until + self.max_wait < now]:
            del self._keys[key]


@dataclass
class LoginThrottle:
    """Sign-in attempts counted per account and per address (an address tries many names)."""

    accounts: Throttle
    addresses: Throttle

    @classmethod
    def default(cls) -> LoginThrottle:
        return cls(Throttle(free=5), Throttle(free=20))

    def wait(self, name: str, address: str) -> float:
        """Seconds before ``address`` may try to sign in as ``name`` again (0: now)."""
        return max(
            self.accounts.wait(f"user:{name.lower()}"), self.addresses.wait(f"addr:{address}")
        )

    def failed(self, name: str, address: str) -> None:
        self.accounts.failed(f"user:{name.lower()}")
        self.addresses.failed(f"addr:{address}")

    def succeeded(self, name: str) -> None:
        self.accounts.succeeded(f"user:{name.lower()}")
