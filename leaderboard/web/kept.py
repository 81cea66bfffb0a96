"""The web server's one cache: values kept in memory while their version holds — the fitted
boards, charts and lists the pages are drawn from (:class:`~.data.Arena`), and the hot pages
themselves, rendered (:func:`.endpoints.common.cached`). A value is made once per version of
what it shows; how a request that finds it out of date is served is the caller's choice:

* :data:`CURRENT`: it waits for the value of its version (made once, by whichever request
  comes first) — figures a page must show as they are;
* :data:`PREVIOUS`: while another request makes the new version, it gets the one before (as
  if it had come a moment sooner) rather than wait — a rendered page under load, which a
  ladder changes every few seconds;
* :data:`REFRESHED`: it never waits once there is a value: it gets the one there is, and the
  new one is made in the background, at most every :data:`REFRESH_GAP` seconds — a board's
  refit takes a second or more, and a running ladder adds games faster than that.

A version of None is never kept (the value is made for every request). Whoever keys a value
keys it by everything that decides it, the viewer included for a page: one viewer's page is
never served to another who may see less.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Literal, TypeVar, cast

T = TypeVar("T")

log = logging.getLogger(__name__)

Freshness = Literal["current", "previous", "refreshed"]
CURRENT: Freshness = "current"
PREVIOUS: Freshness = "previous"
REFRESHED: Freshness = "refreshed"

REFRESH_GAP = 5.0
"""Seconds at least between two background refreshes of one value (a board's refit costs a
second or more of CPU: a ladder storing a game a second would keep a core busy refitting)."""

_MISSING = object()  # no value to give now (a value itself may be any object but this one)


class Kept:
    """Values by key, each kept with the version it was made for; at most ``size`` of them
    (the least recently served dropped first; None: no bound). A background refresh that
    raises one of ``quiet`` is dropped without a word (the server is stopping)."""

    def __init__(self, size: int | None = None, quiet: tuple[type[Exception], ...] = ()):
        self.size = size
        self.quiet = quiet
        self._values: OrderedDict[Hashable, tuple[Hashable, Any]] = OrderedDict()
        self._making: dict[Hashable, threading.Lock] = {}  # only the keys being made
        self._lock = threading.Lock()
        self._refreshing: set[Hashable] = set()
        self._refreshed: dict[Hashable, float] = {}  # key → when its last refresh ended
        self.generation = 0
        """Counts the values made again in the background (:data:`REFRESHED`): a page drawn
        from the values is current while this and the database are unchanged. A value made
        for a request is not counted: it is made again only when the database changed (its
        version is read from it), which a page's key sees already; counting it made every
        page twice after each new game (once for the commit, once for the values the first
        page made for it)."""

    def ready(self, key: Hashable, version: Hashable) -> Any | None:
        """The value :meth:`get` with :data:`PREVIOUS` would give at once, without making it
        or waiting; None when the caller must :meth:`get` it. Never blocks for longer than a
        dict look-up: the server asks it on its event loop."""
        if version is None:
            return None
        with self._lock:
            found = self._previous(key, version)
        return None if found is _MISSING else found

    def get(
        self,
        key: Hashable,
        version: Hashable,
        make: Callable[[], T],
        freshness: Freshness = CURRENT,
        refresh: Callable[[], T] | None = None,
    ) -> T:
        """``make()``'s value for ``version``, served as ``freshness`` says; with
        :data:`REFRESHED`, a background refresh calls ``refresh`` (default: ``make``)."""
        if version is None:
            return make()
        with self._lock:
            if freshness == PREVIOUS:
                found = self._previous(key, version)
                if found is not _MISSING:
                    return cast(T, found)
            hit = self._values.get(key)
            if freshness == REFRESHED and hit is not None:
                if hit[0] != version and key not in self._refreshing:
                    self._start_refresh(key, version, refresh or make)
                return cast(T, hit[1])
        return self._make(key, version, make)

    def _previous(self, key: Hashable, version: Hashable) -> Any:
        """The value to give now (with the lock held): the current one, or the one before
        while another request makes it; else :data:`_MISSING`."""
        hit = self._values.get(key)
        if hit is None or (hit[0] != version and key not in self._making):
            return _MISSING
        self._values.move_to_end(key)
        return hit[1]

    def _make(
        self, key: Hashable, version: Hashable, make: Callable[[], T], count: bool = False
    ) -> T:
        """``make()``'s value for ``version``, made once by whichever thread comes first
        (``count``: a background refresh, which moves :attr:`generation`)."""
        with self._lock:
            making = self._making.setdefault(key, threading.Lock())
        try:
            with making:
                with self._lock:
                    hit = self._values.get(key)
                if hit is not None and hit[0] == version:  # made while this one waited
                    return cast(T, hit[1])
                made = make()
                with self._lock:
                    self._values[key] = (version, made)
                    self._values.move_to_end(key)
                    while self.size is not None and len(self._values) > self.size:
                        self._values.popitem(last=False)
                    if count:
                        self.generation += 1
                return made
        finally:
            with self._lock:
                if self._making.get(key) is making:
                    del self._making[key]

    def _start_refresh(self, key: Hashable, version: Hashable, make: Callable[[], Any]) -> None:
        """Make ``key``'s value for ``version`` in a thread of its own once the gap since
        its last refresh has passed (with the lock held)."""
        self._refreshing.add(key)
        since = time.monotonic() - self._refreshed.get(key, -REFRESH_GAP)
        timer = threading.Timer(max(0.0, REFRESH_GAP - since), self._refresh, (key, version, make))
        timer.daemon = True
        timer.start()

    def _refresh(self, key: Hashable, version: Hashable, make: Callable[[], Any]) -> None:
        try:
            self._make(key, version, make, count=True)
        except self.quiet:
            pass
        except Exception:  # the next request tries again (and shows the error, if any)
            log.exception("hegemon web: refreshing %s failed", key)
        finally:
            with self._lock:
                self._refreshing.discard(key)
                self._refreshed[key] = time.monotonic()
