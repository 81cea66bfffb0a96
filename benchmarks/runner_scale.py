"""Does one PostgreSQL keep up with 1, 8, 32 and 80 runners, directly and through PgBouncer?

    nice -n 10 python benchmarks/runner_scale.py [--runners 1,8,32,80] [--seconds 15]
        [--server-pool 20]
    nice -n 10 python benchmarks/runner_scale.py --idle [--runners 1,8,80] [--seconds 60]

Starts a private PostgreSQL cluster (Debian's ``postgresql``, as the tests do) and, for the
second half, a PgBouncer in transaction mode in front of it (Debian's ``pgbouncer``, at most
``--server-pool`` server connections). For each number of runners, a fresh season of plenty of
matches, and that many runner *processes*, each with its own store (a pool of
:data:`~hegemon.leaderboard.store.database.RUNNER_POOL`), doing what a runner does to the
database for each game, back to back for ``--seconds``: claim a match, renew the claim once,
store the game with a real record and four 20 KiB logs (a game recorded once, replayed: the
games cost nothing, so the database is all that is measured), and read the season's progress
every 2 s. Printed per run: games stored per second, the 99th percentile of claim latency, the
most connections the server had open (``pg_stat_activity``, sampled every 0.2 s), the server's
CPU per game (every postgres process's user + system time from ``/proc``, the exited ones'
through the postmaster's children's times), errors, and the longest any runner went without
storing a game (a stall).

On a shared machine the runners' own Python competes with the database for the CPU: read the
database's CPU per game, not the games per second, as its cost.

``--idle``: runners with nothing to do. Each process runs the arena runner's own two loops
(:func:`~hegemon.leaderboard.arena.runner.match_loop` and
:func:`~hegemon.leaderboard.arena.checks.check_loop`) over an arena with no work, waiting as
main did (``poll``: a look every second) or on the database's notification (``notify``: one
listening connection each, :mod:`hegemon.leaderboard.arena.wakeup`; ``relay``: one for them
all, passed on through a pipe each, as ``hegemon arena`` does: :mod:`hegemon.leaderboard.arena
.relay`). Printed per run: the
statements the runners sent per second (counted exactly, in each process, by SQLAlchemy's
``before_cursor_execute``), the server's committed transactions per second
(``pg_stat_database``, every database, the benchmark's own three reads included; its
statistics lag by up to a few seconds), CPU per second over the window and the client
connections at its end (on a server allowing :data:`IDLE_MAX_CONNECTIONS`); then a
season is made and the wake latency is how long each runner took to see it
from the season's commit (its season runner is replaced by a stub that notes the time: the
games are not the point): median and slowest.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
LOG = (b"thinking about Kamchatka: 7 armies, 3 dice\n" * 500)[: 20 * 1024]
PROGRESS_EVERY = 2.0
WARM_UP = 2.0
"""Seconds the runners play before the measured window (every one of them under way)."""


# ---------------------------------------------------------------------------------- a runner
def child(url: str, season_id: int, worker: str, record: str, sync: Sync) -> None:
    """One runner process's claim → store cycles from ``sync.go`` to ``sync.stop``; it says
    it is ready once connected, and reports its games, claim latencies, errors and the
    longest gap between two games on ``sync.results``."""
    from hegemon.leaderboard.store import GameOutcome, Store, StoreError
    from hegemon.leaderboard.store.database import RUNNER_POOL

    outcome = GameOutcome("", [1, 2, 3, 4], [], "turn limit", record=record, logs=(LOG,) * 4)
    latencies: list[float] = []
    errors: list[str] = []
    games, gap = 0, 0.0
    with Store(url, create=False, pool_size=RUNNER_POOL) as store:
        store.progress(season_id)  # connected before the start
        sync.results.put("ready")
        sync.go.wait()
        last = next_progress = time.monotonic()
        while not sync.stop.is_set():
            try:
                t0 = time.monotonic()
                match = store.claim_match(season_id, worker)
                latencies.append(time.monotonic() - t0)
                if match is None or match.id is None:
                    errors.append("ran out of matches")
                    break
                store.renew_claim(match.id, worker)
                if not store.finish_match(match.id, worker, outcome):
                    errors.append(f"match {match.id}: not stored")
                games += 1
                now = time.monotonic()
                gap, last = max(gap, now - last), now
                if now >= next_progress:
                    store.progress(season_id)
                    next_progress = now + PROGRESS_EVERY
            except StoreError as exc:
                errors.append(str(exc))
                time.sleep(0.1)
    sync.results.put(Result(games, latencies, errors, gap))


@dataclass
class Result:
    """What one runner process did."""

    games: int
    latencies: list[float]
    errors: list[str]
    gap: float


@dataclass
class Sync:
    """The runners' start and stop, and their reports."""

    go: Any
    stop: Any
    results: Any


# ---------------------------------------------------------------------------------- measuring
def _times(pid: int) -> tuple[int, int]:
    """(own user+system, reaped children's user+system) clock ticks of process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def server_cpu(postmaster: int) -> float:
    """Seconds of CPU the server has used so far: the postmaster's, its children's living and
    exited (reaped: counted in the postmaster's children's times)."""
    own, reaped = _times(postmaster)
    ticks = own + reaped
    for pid in _children(postmaster):
        with contextlib.suppress(OSError):
            ticks += _times(pid)[0]
    return ticks / os.sysconf("SC_CLK_TCK")


class Connections:
    """The most client connections the server has open, sampled every 0.2 s in a thread."""

    def __init__(self, admin_url: str) -> None:
        import psycopg

        self.conn = psycopg.connect(admin_url, autocommit=True)
        self.most = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self.stop.wait(0.2):
            row = self.conn.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
            ).fetchone()
            self.most = max(self.most, int(row[0]) if row else 0)

    def __enter__(self) -> Connections:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join()
        self.conn.close()


@dataclass
class Run:
    runners: int
    games: int
    seconds: float
    p99_claim: float
    connections: int
    cpu: float
    errors: list[str]
    stall: float

    def line(self, mode: str) -> str:
        per_game = 1000 * self.cpu / self.games if self.games else float("nan")
        return (
            f"| {mode:9} | {self.runners:7} | {self.games / self.seconds:9.1f} | "
            f"{1000 * self.p99_claim:9.1f} | {self.connections:11} | {per_game:12.2f} | "
            f"{len(self.errors):6} | {self.stall:7.1f} |"
        )


HEADER = (
    "| path      | runners | games/s   | p99 claim | connections | DB CPU/game  | errors |"
    " stall s |\n"
    "|-----------|---------|-----------|-----------|-------------|--------------|--------|"
    "---------|\n"
    "|           |         |           | ms        | (max)       | ms           |        |"
    " (max)   |"
)


# ---------------------------------------------------------------------------------- one run
def one_run(
    store_url: str, runner_url: str, admin_url: str, runners: int, seconds: float, record: Path
) -> Run:
    from hegemon.leaderboard.store import Store
    from tests.helpers.league import SeasonSpec, create_season

    with Store(store_url) as store:
        bots = store.bots()
        games = int((seconds + WARM_UP + 20) * 300)  # more than they can play
        spec = SeasonSpec(name=f"scale-{runners}-{time.time_ns()}", games=games)
        season = create_season(store, spec, bots)
        assert season.id is not None
        with store.session() as s:
            postmaster = int(
                s.connection().exec_driver_sql("SELECT pg_backend_pid()").scalar() or 0
            )
        postmaster = int(Path(f"/proc/{postmaster}/stat").read_text().rsplit(")", 1)[1].split()[1])
    # forked after the imports: 80 interpreters need not each import hegemon on a busy machine;
    # each opens its own store, as a runner process does
    ctx = multiprocessing.get_context("fork")
    sync = Sync(ctx.Event(), ctx.Event(), ctx.Queue())
    text = record.read_text()
    procs = [
        ctx.Process(target=child, args=(runner_url, season.id, f"bench-{i}", text, sync))
        for i in range(runners)
    ]
    for proc in procs:
        proc.start()
    for _ in procs:  # every process connected before the start
        assert sync.results.get() == "ready"
    sync.go.set()
    time.sleep(WARM_UP)
    with Store(store_url) as store:
        done0, cpu0 = store.progress(season.id).done, server_cpu(postmaster)
        with Connections(admin_url) as connections:
            time.sleep(seconds)
            done1, cpu1 = store.progress(season.id).done, server_cpu(postmaster)
    sync.stop.set()
    results: list[Result] = [sync.results.get() for _ in procs]
    for proc in procs:
        proc.join()
        if proc.exitcode:
            results.append(Result(0, [], [f"exit {proc.exitcode}"], 0.0))
    latencies = sorted(x for r in results for x in r.latencies)
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] if latencies else 0.0
    return Run(
        runners,
        done1 - done0,
        seconds,
        p99,
        connections.most,
        cpu1 - cpu0,
        [e for r in results for e in r.errors],
        max((r.gap for r in results), default=0.0),
    )


# ---------------------------------------------------------------------------------- idle runners
def idle_child(
    url: str, worker: str, mode: str, counter: Any, sync: Sync, wake_fd: int | None
) -> None:
    """An arena runner's two loops with nothing to do (``mode``: ``poll`` as main, ``notify``
    on a listening connection of its own, ``relay`` through the pipe ``wake_fd`` from one
    listener in the benchmark's process, as ``hegemon arena`` does), counting its statements in
    ``counter``; once a season appears its season runner (a stub) reports the moment it was
    reached on ``sync.results``."""
    import trio
    from sqlalchemy import event

    from hegemon.leaderboard.arena import runner
    from hegemon.leaderboard.arena.checks import check_loop
    from hegemon.leaderboard.arena.idle import Idle
    from hegemon.leaderboard.arena.relay import Relayed
    from hegemon.leaderboard.arena.wakeup import LISTENING, Hearing, Listener
    from hegemon.leaderboard.store import Store
    from hegemon.leaderboard.store.database import RUNNER_POOL

    async def reached(*_: Any, **__: Any) -> Any:
        sync.results.put(("woken", time.time()))
        await trio.sleep_forever()

    runner.run_season = reached  # type: ignore[attr-defined]  # the games are not measured

    def count(*_: Any) -> None:
        with counter.get_lock():
            counter.value += 1

    with Store(url, create=False, pool_size=RUNNER_POOL) as store:
        event.listen(store.engine, "before_cursor_execute", count)
        listener = Listener.for_store(store, lambda line: None) if mode == "notify" else None
        if listener is not None:
            listener.start()
            while listener.state != LISTENING:
                time.sleep(0.05)
        relayed = Relayed(wake_fd) if wake_fd is not None else None
        hearing: Hearing | None = listener or relayed
        idle = Idle(hearing, runner.POLL)

        async def main() -> None:
            sync.results.put("ready")
            async with trio.open_nursery() as nursery:
                if relayed is not None:
                    nursery.start_soon(relayed.run)
                nursery.start_soon(check_loop, store, worker, idle)
                nursery.start_soon(runner.match_loop, store, worker, idle, lambda line: None)

        trio.run(main)


def scalar(admin_url: str, sql: str) -> int:
    """The whole number ``sql`` answers (0 for none), on a connection of its own."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        row = conn.execute(sql).fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def connections_now(admin_url: str) -> int:
    """The client connections the server has open now (the asker's own left out)."""
    return scalar(
        admin_url,
        "SELECT count(*) FROM pg_stat_activity "
        "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
    )


def xacts(admin_url: str) -> int:
    """The server's committed and rolled-back transactions so far, every database."""
    return scalar(admin_url, "SELECT sum(xact_commit + xact_rollback) FROM pg_stat_database")


IDLE_HEADER = (
    "| waiting | runners | statements/s | server xacts/s | DB CPU ms/s | connections |"
    " wake p50 ms | wake max ms |\n"
    "|---------|---------|--------------|----------------|-------------|-------------|"
    "-------------|-------------|"
)

IDLE_MAX_CONNECTIONS = 300
"""The idle runs' server limit: 80 runner processes hold 80 listening connections beside their
pools (PostgreSQL's default of 100 would refuse some)."""


def idle_run(url: str, admin_url: str, mode: str, runners: int, seconds: float) -> str:
    """One idle run (see the module's doc): its table row."""
    from hegemon.leaderboard.arena.relay import Relay
    from hegemon.leaderboard.store import Store
    from tests.helpers.league import SeasonSpec, create_season

    with Store(url) as store, store.session() as s:
        backend = int(s.connection().exec_driver_sql("SELECT pg_backend_pid()").scalar() or 0)
        postmaster = int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])
    ctx = multiprocessing.get_context("fork")
    sync = Sync(ctx.Event(), ctx.Event(), ctx.Queue())
    counter = ctx.Value("q", 0)
    relay = Relay.for_db(url, lambda line: None) if mode == "relay" else None
    procs = []
    for i in range(runners):
        fd = relay.pipe() if relay is not None else None
        args = (url, f"idle-{i}", mode, counter, sync, fd)
        procs.append(ctx.Process(target=idle_child, args=args))
        procs[-1].start()
        if fd is not None:
            os.close(fd)  # the child's end: it has its copy
    if relay is not None:
        relay.start()
    try:
        for _ in procs:
            assert sync.results.get(timeout=120) == "ready"
        time.sleep(WARM_UP + 12)  # every loop waiting, the server's statistics of the start in
        sent0, xacts0, cpu0 = counter.value, xacts(admin_url), server_cpu(postmaster)
        time.sleep(seconds)
        sent1, xacts1, cpu1 = counter.value, xacts(admin_url), server_cpu(postmaster)
        held = connections_now(admin_url)  # idle: steady (sampling would add queries)
        with Store(url) as store:
            spec = SeasonSpec(name=f"wake-{mode}-{runners}-{time.time_ns()}", games=4)
            create_season(store, spec, store.bots())
            made = time.time()  # committed: from here a runner may see it
        woken = sorted(sync.results.get(timeout=120)[1] - made for _ in procs)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.join()
        if relay is not None:
            relay.close()
    with Store(url) as store, store.session() as s:  # the next run starts with no work
        s.connection().exec_driver_sql("UPDATE matches SET status = 'void'")
    return (
        f"| {mode:7} | {runners:7} | {(sent1 - sent0) / seconds:12.2f} | "
        f"{(xacts1 - xacts0) / seconds:14.1f} | {1000 * (cpu1 - cpu0) / seconds:11.1f} | "
        f"{held:11} | {1000 * woken[len(woken) // 2]:11.1f} | "
        f"{1000 * woken[-1]:11.1f} |"
    )


@contextlib.contextmanager
def cluster(max_connections: int = 100) -> Iterator[str]:
    """A fresh database on a private cluster (removed afterwards); its URL."""
    from tests.helpers.league import private_cluster

    with private_cluster(max_connections) as server:
        yield server.create_database()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runners", default="1,8,32,80")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--server-pool", type=int, default=20)
    parser.add_argument("--only", choices=["direct", "pgbouncer"])
    parser.add_argument("--idle", action="store_true", help="idle runners: poll or notify")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from hegemon.leaderboard.store import Store
    from tests.helpers.pgbouncer import pgbouncer, through
    from tests.helpers.web import play_record

    counts = [int(n) for n in args.runners.split(",")]
    limit = IDLE_MAX_CONNECTIONS if args.idle else 100
    with tempfile.TemporaryDirectory() as folder, cluster(limit) as url:
        os.environ["HEGEMON_HOME"] = folder
        record = Path(folder) / "record.jsonl"
        record.write_text(play_record(7, ["a", "b", "c", "d"], 12))
        with Store(url) as store:
            for i in range(4):
                store.add_bot(f"bot{i}", ["python", "bot.py"], f"{i:064x}", "python")
        admin = url.replace("postgresql+psycopg://", "postgresql://")
        if args.idle:
            print(IDLE_HEADER, flush=True)
            for n in counts:
                for mode in ("poll", "notify", "relay"):
                    print(idle_run(url, admin, mode, n, args.seconds), flush=True)
            print(f"(each window {args.seconds:g} s)")
            return
        print(HEADER, flush=True)
        if args.only != "pgbouncer":
            for n in counts:
                print(one_run(url, url, admin, n, args.seconds, record).line("direct"), flush=True)
        if args.only != "direct":
            with pgbouncer(url, server_pool=args.server_pool) as port:
                bounced = through(url, port)
                for n in counts:
                    run = one_run(url, bounced, admin, n, args.seconds, record)
                    print(run.line("pgbouncer"), flush=True)
        print(f"(each run {args.seconds:g} s; server pool through PgBouncer {args.server_pool})")


if __name__ == "__main__":
    main()
