"""One ``season run`` over several referee processes: :class:`SeasonWorkers`.

A referee process is one Python interpreter: it saturates its core at about two concurrent
games whatever the machine. ``hegemon season run --workers N`` therefore starts N worker
processes (``python -m hegemon.leaderboard.seasons.child``), each an ordinary
:class:`~.runner.SeasonRunner` with its share of ``--concurrency``,
claiming matches from the one database exactly as runners on several machines do — the
database stays the only coordinator, so nothing new can double or lose a game.

This process plays nothing: it starts the workers, follows the whole season's progress in the
database for the live display, relays the workers' log lines, and on Ctrl-C/SIGTERM asks
every worker to stop (each gives its claims back) and waits for them.

Worker ids are ``WORKER/i`` with ``--worker WORKER``, else each worker's own default id (its
pid, so a dead worker of this machine is noticed at once).
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

import trio

from ..store import SeasonRow, Store, StoreError
from .state import Listener, Logger, RunnerError, RunState, count_faults

__all__ = ["GAMES_PER_PROCESS", "SeasonWorkers", "default_workers", "shares"]


GAMES_PER_PROCESS = 2
"""Concurrent games one referee process keeps up with before its core is the limit (measured:
a runner spends about 0.75 CPU-s per game against about 1 CPU-s of the four sample bots)."""


def default_workers(concurrency: int) -> int:
    """Worker processes for ``concurrency`` games at once: one per :data:`GAMES_PER_PROCESS`
    games, up to the cores (1: the games are played in the ``season run`` process itself)."""
    return max(1, min(os.cpu_count() or 1, -(-concurrency // GAMES_PER_PROCESS)))


def shares(concurrency: int, workers: int) -> list[int]:
    """``concurrency`` split over ``workers`` as evenly as it goes (each at least 1)."""
    workers = max(1, min(workers, concurrency))
    base, extra = divmod(concurrency, workers)
    return [base + (1 if i < extra else 0) for i in range(workers)]


class SeasonWorkers:
    """Plays a season with worker processes; the same ``run()``/``state`` as a runner."""

    def __init__(
        self,
        store: Store,
        season: SeasonRow,
        *,
        workers: int,
        concurrency: int,
        worker: str | None = None,
        stale_after: float,
        max_attempts: int,
        on_change: Listener | None = None,
        log: Logger | None = None,
    ):
        assert season.id is not None
        self.store = store
        self.season = season
        self.season_id: int = season.id
        self.shares = shares(concurrency, workers)
        self.base = worker
        self.stale_after = stale_after
        self.max_attempts = max_attempts
        self.on_change = on_change
        self.log = log or (lambda line: None)
        self.ids: set[str] = set()
        self.errors: list[str] = []
        self.finals: list[dict[str, Any]] = []
        self.state = RunState(season.name, worker or "workers", concurrency)

    def _argv(self, index: int, share: int) -> list[str]:
        spec = {
            "season": self.season_id,
            "concurrency": share,
            "worker": f"{self.base}/{index}" if self.base else None,
            "stale_after": self.stale_after,
            "max_attempts": self.max_attempts,
            "parent": os.getpid(),
        }
        return [sys.executable, "-m", "hegemon.leaderboard.seasons.child", json.dumps(spec)]

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        # the URL by environment, not argv: a password never shows in ps
        env["HEGEMON_DB"] = self.store.secret_url()
        env["PYTHONUNBUFFERED"] = "1"
        return env

    async def run(self) -> RunState:
        """Start the workers, follow the season until they end; cancelling stops them."""
        progress = await trio.to_thread.run_sync(self.store.progress, self.season_id)
        self.state.done_at_start = progress.done
        self.state.started = time.monotonic()
        await self._refresh()
        procs: list[trio.Process] = []
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._watch)
                async with trio.open_nursery() as followers:
                    for i, share in enumerate(self.shares, 1):
                        proc = await trio.lowlevel.open_process(
                            self._argv(i, share),
                            env=self._env(),
                            stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE,
                        )
                        procs.append(proc)
                        followers.start_soon(self._follow, proc)
                nursery.cancel_scope.cancel()  # every worker has ended and said its last
        finally:
            with trio.CancelScope(shield=True):
                await _stop(procs)
        await self._refresh()
        season = await trio.to_thread.run_sync(self.store.get_season, self.season_id)
        self.state.status = season.status if season is not None else ""
        self.state.played = sum(int(f.get("played", 0)) for f in self.finals)
        self.state.lost = sum(int(f.get("lost", 0)) for f in self.finals)
        self.state.released = sum(int(f.get("released", 0)) for f in self.finals)
        if self.errors:
            raise RunnerError(self.errors[0])
        if not self.state.interrupted:
            bad = [p.returncode for p in procs if p.returncode not in (0, None)]
            if bad:
                raise RunnerError(f"a worker process ended with exit code {bad[0]}")
            if any(f.get("interrupted") for f in self.finals):
                raise RunnerError("a worker process was stopped by a signal")
        return self.state

    async def _follow(self, proc: trio.Process) -> None:
        """Relay one worker's lines (JSON: its id, log lines, its final counts, its error)
        until it closes its output, then wait for it to end."""
        assert proc.stdout is not None
        buffer = b""
        async for chunk in proc.stdout:
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for raw in lines:
                self._line(raw.decode("utf-8", "replace"))
        if buffer:
            self._line(buffer.decode("utf-8", "replace"))
        await proc.wait()

    def _line(self, text: str) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            if text.strip():
                self.log(text)
            return
        if "worker" in message:
            self.ids.add(str(message["worker"]))
        if "log" in message:
            self.log(str(message["log"]))
        if "final" in message:
            self.finals.append(dict(message["final"]))
            self.state.arena_faults += int(message["final"].get("arena_faults", 0))
        if "error" in message:
            self.errors.append(str(message["error"]))

    async def _watch(self) -> None:
        for tick in itertools.count(1):
            try:
                await self._refresh(faults=tick % 10 == 0)  # faults read every game row
            except StoreError:
                pass  # the workers ride out an outage on their own; the display waits
            await trio.sleep(0.5)

    async def _refresh(self, faults: bool = True) -> None:
        progress = await trio.to_thread.run_sync(self.store.progress, self.season_id)
        s = self.state
        if faults:
            s.faults = await trio.to_thread.run_sync(count_faults, self.store, self.season_id)
        s.total, s.done, s.void = progress.total, progress.done, progress.void
        s.pending, s.claimed = progress.pending, progress.claimed
        mine = {w: n for w, n in progress.workers.items() if w in self.ids}
        s.in_flight = sum(mine.values())
        s.others = progress.claimed - s.in_flight
        if self.on_change is not None:
            self.on_change(s)


async def _stop(procs: list[trio.Process], grace: float = 30.0) -> None:
    """Ask every worker still running to stop (SIGTERM: it gives its claims back), then wait;
    one that has not ended after ``grace`` seconds is killed (a later run takes its claims)."""
    for proc in procs:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
    with trio.move_on_after(grace):
        for proc in procs:
            await proc.wait()
    for proc in procs:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
