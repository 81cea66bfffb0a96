"""Does one PostgreSQL keep up with 1, 8, 32 and 80 runners, directly and through PgBouncer?

    nice -n 10 python benchmarks/runner_scale.py [--runners 1,8,32,80] [--seconds 15]
        [--server-pool 20]

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


@contextlib.contextmanager
def cluster() -> Iterator[str]:
    """A fresh database on a private cluster (removed afterwards); its URL."""
    from tests.helpers.league import private_cluster

    with private_cluster() as server:
        yield server.create_database()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runners", default="1,8,32,80")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--server-pool", type=int, default=20)
    parser.add_argument("--only", choices=["direct", "pgbouncer"])
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from hegemon.leaderboard.store import Store
    from tests.helpers.pgbouncer import pgbouncer, through
    from tests.helpers.web import play_record

    counts = [int(n) for n in args.runners.split(",")]
    with tempfile.TemporaryDirectory() as folder, cluster() as url:
        os.environ["HEGEMON_HOME"] = folder
        record = Path(folder) / "record.jsonl"
        record.write_text(play_record(7, ["a", "b", "c", "d"], 12))
        with Store(url) as store:
            for i in range(4):
                store.add_bot(f"bot{i}", ["python", "bot.py"], f"{i:064x}", "python")
        admin = url.replace("postgresql+psycopg://", "postgresql://")
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
