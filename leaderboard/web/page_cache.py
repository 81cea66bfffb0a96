"""Rendered pages kept in memory while the data they show is unchanged: a page is made once
per version of the data (and viewer) and served as it is to every request until then.

Whoever uses it keys a page by everything that decides its text, the viewer included (who is
signed in, what they may see): one viewer's page is never served to another who may see less.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")

PAGES_KEPT = 512
"""Pages kept at most (least recently served dropped first): the game list's pages and
filters, and every signed-in viewer's pages, are many keys."""
_MISSING = object()  # no page to give now (a page itself may be any object but this one)


class PageCache:
    """``get(key, version, make)``: ``make()``'s value, made again only when ``version``
    changes (a ``version`` of None: made every time, never kept).

    One request makes a new version of a page; the requests for it meanwhile are served the
    version before (as if they had come a moment sooner) rather than all wait for it: under
    load a page takes a while to make, and a ladder changes the data every few seconds. A
    page never made before is waited for."""

    def __init__(self, size: int = PAGES_KEPT):
        self.size = size
        self._pages: OrderedDict[Hashable, tuple[Hashable, object]] = OrderedDict()
        self._making: dict[Hashable, threading.Lock] = {}  # only the keys being made
        self._lock = threading.Lock()

    def ready(self, key: Hashable, version: Hashable) -> object | None:
        """The page :meth:`get` would give at once, without making it or waiting: the kept
        version if current, or the one before while another request makes the new one; None
        when the caller must :meth:`get` it (a version of None: never kept). Never blocks for
        longer than a dict look-up: the server asks it on its event loop."""
        if version is None:
            return None
        with self._lock:
            found = self._kept(key, version)
        return None if found is _MISSING else found

    def _kept(self, key: Hashable, version: Hashable) -> object:
        """The page to give now (with the lock held): the current one, or the one before
        while another request makes it; else :data:`_MISSING`."""
        hit = self._pages.get(key)
        if hit is None or (hit[0] != version and key not in self._making):
            return _MISSING
        self._pages.move_to_end(key)
        return hit[1]

    def get(self, key: Hashable, version: Hashable, make: Callable[[], T]) -> T:
        if version is None:
            return make()
        with self._lock:
            found = self._kept(key, version)
            if found is not _MISSING:
                return found  # type: ignore[return-value]
            making = self._making.setdefault(key, threading.Lock())
        try:
            with making:
                with self._lock:
                    hit = self._pages.get(key)
                if hit is not None and hit[0] == version:  # made while this one waited
                    return hit[1]  # type: ignore[return-value]
                made = make()
                with self._lock:
                    self._pages[key] = (version, made)
                    self._pages.move_to_end(key)
                    while len(self._pages) > self.size:
                        self._pages.popitem(last=False)
                return made
        finally:
            with self._lock:
                if self._making.get(key) is making:
                    del self._making[key]
