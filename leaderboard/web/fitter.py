"""Refitting boards in a process of its own.

A board's refit — a Plackett–Luce fit and its bootstrap, about a second of CPU for a 300-game
ladder — run in a thread of the web server holds the interpreter's lock in turns with the
requests and competes with them for the CPU: while a ladder stores games, the requests served
during a refit set the p99 of ``benchmarks/web_load.py``. :class:`Fitter` hands the background
refits to one child process (:mod:`.fit_worker`): the server's thread only waits on a pipe.
The child keeps the server's CPU priority: at ``nice`` 19 it starved behind the runners of a
busy arena machine and a board stayed minutes out of date, for no lower p99 than at 0 (measured
with ``benchmarks/web_load.py``). The child ends with the server however it ends (its stdin
closes), and a fit the child cannot make is made in the server as before.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import Any, cast

from .frames import read_frame, write_frame


class FitterError(Exception):
    """The fitting process could not give the board (it failed, ended, or was closed)."""


class Fitter:
    """The web server's fitting process over the database at ``url``, started at the first
    fit and again after it ended; one fit at a time."""

    def __init__(self, url: str):
        self._url = url
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self.closed = False

    def season_board(self, season_id: int) -> dict[str, Any]:
        """:func:`.fits.season_board_data` of the season ``season_id``."""
        return cast(dict[str, Any], self._call(("season", season_id)))

    def season_history(self, season_id: int, full: bool = True) -> dict[str, Any]:
        """:func:`.fits.season_history_data` of the season ``season_id``."""
        return cast(dict[str, Any], self._call(("history", season_id, full)))

    def pooled_board(
        self, season_ids: Sequence[int], title: str, preset: str, seed: int
    ) -> dict[str, Any] | None:
        """:func:`.fits.pooled_board_data` of the seasons ``season_ids``."""
        return cast(
            dict[str, Any] | None, self._call(("pooled", list(season_ids), title, preset, seed))
        )

    @property
    def pid(self) -> int | None:
        """The fitting process's pid while it runs."""
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    def _call(self, request: tuple[Any, ...]) -> Any:
        with self._lock:
            if self.closed:
                raise FitterError("the server is stopping")
            process = self._running()
            assert process.stdin is not None and process.stdout is not None  # piped
            try:
                write_frame(process.stdin, pickle.dumps(request))
                frame = read_frame(process.stdout)
            except (OSError, ValueError):  # a closed pipe: the process ended
                frame = None
            if frame is None:
                self._end(process)
                raise FitterError("the fitting process ended")
        status, value = pickle.loads(frame)  # our own child's answer: trusted
        if status != "ok":
            raise FitterError(value)
        return value

    def _running(self) -> subprocess.Popen[bytes]:
        process = self._process
        if process is None or process.poll() is not None:
            # -P: not the working folder first on the path (a checkout there would shadow it)
            process = subprocess.Popen(
                [sys.executable, "-P", "-m", "hegemon.leaderboard.web.fit_worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
            assert process.stdin is not None  # piped
            write_frame(process.stdin, self._url.encode())
            self._process = process
        return process

    @staticmethod
    def _end(process: subprocess.Popen[bytes]) -> None:
        process.kill()
        process.wait()
        for pipe in (process.stdin, process.stdout):
            if pipe is not None:
                pipe.close()

    def close(self) -> None:
        """Stop the fitting process (a fit under way ends with a :class:`FitterError`)."""
        self.closed = True
        process = self._process
        if process is None:
            return
        process.kill()  # never waits for the lock: a fit may hold it for a second
        process.wait()
        if self._lock.acquire(blocking=False):  # else the fit under way closes the pipes
            try:
                self._end(process)
            finally:
                self._lock.release()
