"""The web server under a bounded load, with a ladder running: latency percentiles and errors.

    python benchmarks/web_load.py [--games 300] [--bots 12] [--requests 2000] [--concurrency 50]

Builds a throw-away arena (one ladder of ``--games`` stored 4-player games among ``--bots``
bots, as ``benchmarks/web.py`` builds its season), starts the real server (``hegemon web``,
uvicorn on 127.0.0.1, its own process), keeps the ladder running beside it (another process
stores a finished game and queues the next table every ``--every`` seconds, so the boards are
brought up to date under the load, as when runners play), then sends ``--requests`` GET
requests over ``--concurrency`` keep-alive connections, the season board and the game list in
turn (and the game list's later pages), and reports each page's p50 / p99 and any error.
The server's CPU time per request is reported too: on a machine shared with other work the
latencies measure the machine's load as much as the server, its CPU time much less so. The last
line: ``web load: season board p99 X ms · game list p50 Y ms p99 Z ms · N errors`` (target:
both p99 <= 300 ms, no errors).

Measured (2026-12-02, the defaults, on 2 cores with a load average of about 20 from other
work): before (every board request waited for a refit, the game list read every game): 200
requests took 235 s, season board p50 56 s, game list p50 1.9 s; 2,000 did not finish in 15
minutes. After: 2,000 requests in 135 s, no errors, season board p99 8.8 s, game list p50 2.9 s
p99 7.1 s, the server's CPU 25.7 ms a request with the background refits (a 1,000-resample
bootstrap at every game stored) included. With the refits at most every 5 s (load average
7): 2,000 requests in 32 s, no errors, season board p99 2.2 s, game list p50 0.6 s p99 1.8 s,
13.7 ms of CPU a request. The 300 ms target is not shown on that machine.

Measured again (2026-12-02, the defaults, three runs of each alternated, load average 3.5-5):
before (every request rendered its page, its data read through several queries): 2,000
requests in 55-72 s, 28-33 ms of server CPU a request, season board p99 3.1-5.4 s, game list
p50 1.1-1.3 s p99 2.3-3.2 s. After (a page kept rendered per viewer until a commit to the
database, ``PRAGMA data_version``, or a board refitted in memory: ``leaderboard/web/
page_cache.py``): 2,000 requests in 3.4-4.4 s, no errors, 2.2-2.8 ms of CPU a request (refits
included), season board p99 261-392 ms, game list p50 54-85 ms p99 281-391 ms: the target
in two runs of three. What is left of the p99 is the board's refit (about 1.3 s of CPU, at
most every 5 s) holding the interpreter lock in turns with the requests; with no game stored
during the run (``--every 1000``), 0.9 ms a request and p99 149 ms at a load average of 7.6.

Measured again (2026-12-02, alternated with the commit before, load average 0.5-1.3): the
refits moved to a child process (``leaderboard/web/fitter.py``; measured at ``nice`` 19, and
the same at 0, which it now keeps: 238/247 and 249/270 ms at 0, 244/251 and 248/253 ms at 19
with ``--requests 10000``: the gain is the interpreter lock, not the CPU priority). With the
defaults (a 3 s run: at most one refit falls in it) the difference is within the noise:
season board / game list p99 before 296/297, 325/332, 205/219 ms; after 272/282, 278/292,
267/292, 292/319, 288/308, 283/296, 284/289 ms; the server's CPU 2.0-2.2 -> 1.6-1.9 ms a
request (the refits are no longer the server's). With ``--requests 10000`` (about 15 s, three
refits): before 297/310 and 260/264 ms, after 249/254 and 237/251 ms, no errors. What is left
of the p99 is the pages made again after every commit of a game (the season page 15-60 ms) while
50 connections wait.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlmodel import select

from benchmarks.web import add_games, build_arena
from hegemon.leaderboard.store import SeasonRow, Store

ROOT = Path(__file__).resolve().parents[1]
CLI = "import sys; from hegemon.leaderboard.cli import main; sys.argv[0] = 'hegemon'; main()"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ladder_running(db: str, every: float, stop: multiprocessing.synchronize.Event) -> None:
    """Store a finished game every ``every`` seconds until ``stop`` (the ladder's runners)."""
    with Store(db) as store:
        seed = 1
        while not stop.wait(every):
            add_games(store, 1, seed=seed)
            seed += 1


async def fetch(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, path: str
) -> tuple[int, bytes]:
    """One GET on a kept-alive HTTP/1.1 connection (the server answers with a length)."""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    return status, await reader.readexactly(length)


async def load(
    port: int, paths: list[str], requests: int, concurrency: int
) -> tuple[dict[str, list[float]], list[str]]:
    times: dict[str, list[float]] = {p: [] for p in paths}
    errors: list[str] = []
    queue: asyncio.Queue[str] = asyncio.Queue()
    for i in range(requests):
        queue.put_nowait(paths[i % len(paths)])

    async def client() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while not queue.empty():
                path = queue.get_nowait()
                start = time.perf_counter()
                try:
                    status, _ = await fetch(reader, writer, path)
                except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                    errors.append(f"{path}: {exc}")
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                    continue
                times[path].append(time.perf_counter() - start)
                if status != 200:
                    errors.append(f"{path}: HTTP {status}")
        finally:
            writer.close()

    await asyncio.gather(*(client() for _ in range(concurrency)))
    return times, errors


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_up(url: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            if proc.poll() is not None:
                raise SystemExit("hegemon web exited") from None
            time.sleep(0.1)
    raise SystemExit("hegemon web never answered")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--bots", type=int, default=12)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--every", type=float, default=1.0, help="seconds between ladder games")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "arena.db")
        with Store(db) as store:
            build_arena(store, args.bots, args.games)
            with store.session(write=True) as s:
                row = s.exec(select(SeasonRow)).one()
                row.status = "running"
                if hasattr(row, "kind"):  # (run on an older checkout, for the figures before)
                    row.kind = "ladder"
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, "-c", CLI, "web", "--db", db, "--port", str(port)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
        )
        stop = multiprocessing.Event()
        ladder = multiprocessing.Process(target=ladder_running, args=(db, args.every, stop))
        try:
            wait_up(url + "/season/big", server)
            ladder.start()
            paths = ["/season/big", "/games", "/season/big", "/games?page=2"]
            start, cpu = time.perf_counter(), cpu_seconds(server.pid)
            times, errors = asyncio.run(load(port, paths, args.requests, args.concurrency))
            elapsed, cpu = time.perf_counter() - start, cpu_seconds(server.pid) - cpu
        finally:
            stop.set()
            if ladder.pid is not None:
                ladder.join(30)
            server.terminate()
            server.wait(30)
    print(
        f"{args.requests} requests, concurrency {args.concurrency}, {args.games}-game ladder "
        f"(a game stored every {args.every:g} s) in {elapsed:.1f} s; the server used "
        f"{cpu:.1f} s of CPU ({cpu / args.requests * 1000:.1f} ms a request, refits included; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    for path, values in times.items():
        print(
            f"{path:16} {len(values):5d} requests · p50 {percentile(values, 0.5) * 1000:6.0f} ms"
            f" · p99 {percentile(values, 0.99) * 1000:6.0f} ms"
            f" · max {max(values, default=0) * 1000:6.0f} ms"
        )
    for line in sorted(set(errors))[:10]:
        print("error:", line)
    board = times["/season/big"]
    games = times["/games"] + times["/games?page=2"]
    print(
        f"web load: season board p99 {percentile(board, 0.99) * 1000:.0f} ms · game list p50 "
        f"{percentile(games, 0.5) * 1000:.0f} ms p99 {percentile(games, 0.99) * 1000:.0f} ms · "
        f"{len(errors)} errors · {statistics.fmean(board + games) * 1000:.0f} ms mean"
    )


if __name__ == "__main__":
    main()
