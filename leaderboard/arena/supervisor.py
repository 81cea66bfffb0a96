"""``hegemon arena``'s processes: ``--workers`` runner processes (:mod:`.runner`: check games
and matches), the ladders' matchmaker and the notifier (webhook deliveries,
:mod:`hegemon.leaderboard.notify.loop`) in threads, and the web server with accounts in the
foreground. Ctrl-C or SIGTERM stops them all: runners give back what they were playing."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence

from ..notify.loop import notifier
from ..store import Store, StoreError
from .matchmaking import fill_ladders
from .relay import Relay

MATCHMAKER_POLL = 1.0
"""Seconds between two top-ups of the ladders' queues."""

STOP_GRACE = 30.0
"""Seconds a runner has to give back its claims once told to stop."""


def runner_argv(db: str, worker: str | None = None, wake_fd: int | None = None) -> list[str]:
    """The command of one runner process over the database ``db`` (it stops when this process
    is gone, however it went; ``wake_fd``: the pipe it is woken through, :mod:`.relay`)."""
    # -P: not the working folder first on the path (a checkout there would shadow the install)
    argv = [sys.executable, "-P", "-m", "hegemon.leaderboard.arena.runner", "--db", db]
    argv += ["--parent", str(os.getpid())]
    argv += ["--wake-fd", str(wake_fd)] if wake_fd is not None else []
    return argv + (["--worker", worker] if worker else [])


def start_runners(db: str, count: int, relay: Relay | None = None) -> list[subprocess.Popen[bytes]]:
    """``count`` runner processes; with a ``relay``, each woken through a pipe of its own."""
    procs = []
    for _ in range(count):
        if relay is None:
            procs.append(subprocess.Popen(runner_argv(db)))
            continue
        fd = relay.pipe()
        try:
            procs.append(subprocess.Popen(runner_argv(db, wake_fd=fd), pass_fds=(fd,)))
        finally:
            os.close(fd)  # the runner's end: it has its own copy
    return procs


def stop_runners(procs: Sequence[subprocess.Popen[bytes]]) -> None:
    """SIGTERM each runner, then wait (a runner that will not stop is killed)."""
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in procs:
        try:
            proc.wait(STOP_GRACE)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def matchmaker(store: Store, stop: threading.Event, say: Callable[[str], None]) -> None:
    """Top up the ladders' queues until ``stop`` is set; a database outage is said and waited
    out, not fatal."""
    failing = False
    while not stop.wait(MATCHMAKER_POLL):
        try:
            fill_ladders(store)
            failing = False
        except StoreError as exc:
            if not failing:
                say(f"matchmaker: {exc} (retrying)")
            failing = True


def run_arena(
    db: str,
    workers: int,
    serve_web: Callable[[threading.Event], None] | None,
    say: Callable[[str], None],
    stop: threading.Event,
) -> None:
    """Run the arena over ``db`` until ``stop`` is set (:func:`.stopping.stop_on_signals`:
    SIGINT/SIGTERM): ``workers`` runners, the matchmaker, the notifier, and
    ``serve_web(stop)`` in the foreground (None: runners only). Set before or during
    start-up, ``stop`` still stops it: nothing more is started once it is set."""
    if stop.is_set():
        return
    relay = Relay.for_db(db, say)  # one listening connection for them all
    procs = start_runners(db, workers, relay)
    if relay is not None:
        relay.start()
    try:
        with Store(db, create=False) as store:
            jobs = {"hegemon-matchmaker": matchmaker, "hegemon-notifier": notifier}
            threads = [
                threading.Thread(target=job, args=(store, stop, say), name=name, daemon=True)
                for name, job in jobs.items()
            ]
            for thread in threads:
                thread.start()
            if serve_web is not None:
                serve_web(stop)
            else:
                _wait_for_stop(stop, procs)
            stop.set()
            # bounded: daemon threads; the runners must be stopped below whatever they are doing
            for thread in threads:
                thread.join(5 * MATCHMAKER_POLL)
    finally:
        stop.set()
        stop_runners(procs)
        if relay is not None:
            relay.close()


def _wait_for_stop(stop: threading.Event, procs: Sequence[subprocess.Popen[bytes]]) -> None:
    """Wait until ``stop`` is set (or every runner has exited)."""
    while not stop.wait(1.0):
        if all(proc.poll() is not None for proc in procs):
            return
