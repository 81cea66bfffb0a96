"""Slowing down password guessing without handing a stranger a way to lock a member out.

Sign-ins are counted per *account and address* together and per *address* across accounts (the
OWASP authentication guidance): whoever guesses at alice's name from their address makes only
that address wait, for that name and, past a larger budget, for every name; alice signing in
from her own address is not slowed by them. After a few failures a key must wait before its
next try, twice as long after every further failure, up to a cap.

Attempts whose password is being checked count against the budget too: while as many are under
way as failures are left, a further attempt waits for them to end (briefly: a check takes
milliseconds) and then goes ahead or is refused as they leave it. So many simultaneous guesses
get no more password checks than the budget allows, and simultaneous right ones all succeed.

The counts are kept in the web process's memory: a restart forgets them, which costs a guesser
little (the waits are minutes, a restart is rare).
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
    pending: int = 0  # attempts under way (their password being checked)


class Throttle:
    """Failed attempts per key: after ``free`` failures the key waits ``first_wait`` seconds
    before its next attempt, after each further one twice as long, at most ``max_wait``."""

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
        self.lock = threading.RLock()  # LoginThrottle shares one between its throttles

    def wait(self, key: str) -> float:
        """Seconds ``key`` must still wait before its next attempt (0: it may try now)."""
        with self.lock:
            found = self._keys.get(key)
            return 0.0 if found is None else max(0.0, found.until - self._clock())

    def has_room(self, key: str) -> bool:
        """Whether an attempt of ``key`` not waiting (:meth:`wait` is 0) may begin now: none is
        under way, or fewer than the failures left before a wait."""
        with self.lock:
            found = self._keys.get(key)
            return found is None or found.pending == 0 or found.count + found.pending < self.free

    def begin(self, key: str) -> None:
        """An attempt of ``key`` begins (ended by :meth:`failed` or :meth:`succeeded`)."""
        with self.lock:
            self._forget_old()
            self._keys.setdefault(key, _Failures()).pending += 1

    def failed(self, key: str) -> None:
        """Count a failed attempt of ``key`` (ending one begun, if any)."""
        with self.lock:
            self._forget_old()
            found = self._keys.setdefault(key, _Failures())
            found.pending = max(0, found.pending - 1)
            found.count += 1
            if found.count >= self.free:
                extra = min(found.count - self.free, 30)
                found.until = self._clock() + min(self.max_wait, self.first_wait * 2**extra)

    def succeeded(self, key: str, forget: bool = True) -> None:
        """A successful attempt of ``key`` (ending one begun, if any): its count starts again,
        unless not ``forget`` (an address's failures at other names stay)."""
        with self.lock:
            found = self._keys.get(key)
            if found is None:
                return
            found.pending = max(0, found.pending - 1)
            if forget:
                found.count, found.until = 0, 0.0
            if found.count == 0 and found.pending == 0:
                del self._keys[key]

    def _forget_old(self) -> None:
        """Keep memory bounded: drop keys idle for longer than the longest wait."""
        if len(self._keys) < 10_000:
            return
        now = self._clock()
        for key in [
            k for k, f in self._keys.items() if f.pending == 0 and f.until + self.max_wait < now
        ]:
            del self._keys[key]


@dataclass
class LoginThrottle:
    """Sign-in attempts counted per account *and* address (``accounts``), and per address
    across accounts (``addresses``, a larger budget: an address that tries many names).
    ``patience``: the most seconds an attempt waits for those under way to end."""

    accounts: Throttle
    addresses: Throttle
    patience: float = 30.0

    def __post_init__(self) -> None:
        self.addresses.lock = self.accounts.lock  # one lock: waits checked and counted at once
        self._ended = threading.Condition(self.accounts.lock)

    @classmethod
    def default(cls) -> LoginThrottle:
        return cls(Throttle(free=5), Throttle(free=20))

    def attempt(self, name: str, address: str) -> float:
        """Begin an attempt of ``address`` to sign in as ``name``: 0 if it may check the
        password now (end it with :meth:`failed` or :meth:`succeeded`), else the seconds it
        must wait (nothing begun)."""
        pair, own = _pair(name, address), _address(address)
        deadline = time.monotonic() + self.patience
        with self._ended:
            while True:
                wait = max(self.accounts.wait(pair), self.addresses.wait(own))
                if wait > 0:
                    return wait
                if self.accounts.has_room(pair) and self.addresses.has_room(own):
                    self.accounts.begin(pair)
                    self.addresses.begin(own)
                    return 0.0
                left = deadline - time.monotonic()
                if left <= 0:
                    return self.accounts.first_wait
                self._ended.wait(left)

    def failed(self, name: str, address: str) -> None:
        """The attempt begun had a wrong password."""
        with self._ended:
            self.accounts.failed(_pair(name, address))
            self.addresses.failed(_address(address))
            self._ended.notify_all()

    def succeeded(self, name: str, address: str) -> None:
        """The attempt begun had the right password: the pair's count starts again (the
        address's failures at other names stay)."""
        with self._ended:
            self.accounts.succeeded(_pair(name, address))
            self.addresses.succeeded(_address(address), forget=False)
            self._ended.notify_all()


def _pair(name: str, address: str) -> str:
    return f"user:{name.strip().casefold()}\0addr:{address}"


def _address(address: str) -> str:
    return f"addr:{address}"
