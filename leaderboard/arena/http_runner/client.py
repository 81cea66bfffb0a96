"""A runner's HTTP calls to its arena (the standard library's ``urllib``; the runner calls them
in worker threads): JSON in and out, the runner token as ``Authorization: Bearer``, and network
errors (a refused or reset connection, a timeout, the server busy or restarting: 502/503/504)
retried with backoff, up to ``retry_for`` seconds, before they are the caller's."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

TIMEOUT = 60.0
"""Seconds one request may take (a large record's post included)."""

RETRY_FOR = 600.0
"""Seconds a request is retried through network errors before it fails."""

BUSY = frozenset({502, 503, 504})
"""Statuses of a server that is restarting or busy: retried like a network error."""


class ArenaError(Exception):
    """The arena refused a request (one line: its own ``error``); ``status`` is the HTTP one."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Unreachable(Exception):
    """The arena could not be reached for ``retry_for`` seconds."""


def _message(error: urllib.error.HTTPError) -> str:
    try:
        body = json.loads(error.read() or b"{}")
        text = body.get("error") if isinstance(body, dict) else None
    except (ValueError, OSError):
        text = None
    return str(text or f"HTTP {error.code}")


class ArenaClient:
    """The arena at ``url`` as a runner with ``token`` sees it. ``say(line)`` hears when the
    arena becomes unreachable and when it is back."""

    def __init__(
        self,
        url: str,
        token: str,
        say: Callable[[str], None],
        retry_for: float = RETRY_FOR,
    ):
        self.url = url.rstrip("/")
        self.token = token
        self.say = say
        self.retry_for = retry_for

    def post(self, path: str, body: dict[str, Any]) -> Any:
        """POST ``body`` as JSON to ``path``; the answer's JSON."""
        data = json.dumps(body).encode()
        return json.loads(self._call(path, data, "application/json"))

    def get(self, path: str) -> bytes:
        """GET ``path``; the answer's bytes."""
        return self._call(path, None, None)

    def _call(self, path: str, data: bytes | None, kind: str | None) -> bytes:
        delay, began, down = 0.5, time.monotonic(), False
        while True:
            request = urllib.request.Request(self.url + path, data=data)
            request.add_header("Authorization", f"Bearer {self.token}")
            if kind:
                request.add_header("Content-Type", kind)
            try:
                with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                    answer: bytes = response.read()
                if down:
                    self.say("the arena answers again")
                return answer
            except urllib.error.HTTPError as exc:
                if exc.code not in BUSY:
                    raise ArenaError(exc.code, _message(exc)) from None
                why = f"HTTP {exc.code}"
            except (OSError, ValueError) as exc:  # refused, reset, timed out, a torn answer
                why = str(getattr(exc, "reason", None) or exc)
            if time.monotonic() - began >= self.retry_for:
                raise Unreachable(f"the arena at {self.url} is unreachable ({why})")
            if not down:
                self.say(f"the arena is unreachable ({why}); retrying")
                down = True
            time.sleep(delay)
            delay = min(delay * 2, 10.0)
