"""Benchmark of ``hegemon season run``: throughput, the runner's memory, and rating recomputation.

Run:  .venv/bin/python benchmarks/season.py [--games 24] [--turn-limit 20]

1. **Throughput.** The same 4-player season of the four sample bots (same matches, seeds and
   game ids: a copy per run, each in its own ``$HEGEMON_HOME``) at concurrency 1, at 2 in one
   referee process, and at 2 spread over 2 worker processes (``--workers 2``). Each run is its
   own runner process; games per minute are counted from the first claim to the last result
   stored (process and bot start-up excluded). CPU seconds of the referee processes and of the
   bot processes are reported apart, to show what limits the speed-up.
2. **Memory.** The runner process's peak resident memory (``VmHWM``; bot processes excluded) at
   concurrency 1 and 8, and the difference per extra concurrent game.
3. **Ratings.** 10,000 synthetic game rows in a temporary SQLite store; the time to load them and
   fit the board (Plackett–Luce with its bootstrap intervals, and the point fit alone).

The last line is ``season: N games/min at concurrency 2, speed-up S``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

SEASON = "bench"
SEED = 20240601


def _hwm_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def _descendant_ticks(root: int) -> dict[int, int]:
    """utime + stime (clock ticks) of every process below ``root``."""
    parent_of: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        pid = int(entry)
        parent_of[pid] = int(fields[1])
        ticks[pid] = int(fields[11]) + int(fields[12])
    found = {}
    for pid, spent in ticks.items():
        p = parent_of.get(pid)
        while p is not None and p > 1:
            if p == root:
                found[pid] = spent
                break
            p = parent_of.get(p)
    return found


# ---------------------------------------------------------------------------------- child
def _is_worker(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"seasons.child" in f.read()
    except OSError:
        return False


def child(home: str, concurrency: int, workers: int = 1) -> None:
    """Run the season in this process (a runner, as ``hegemon season run`` is), or with
    ``workers`` > 1 from this process over that many worker processes; print JSON."""
    os.environ["HEGEMON_HOME"] = home
    os.environ.pop("HEGEMON_DB", None)
    import trio
    from sqlmodel import col, func, select

    from hegemon.leaderboard.seasons.limits import DEFAULT_MAX_ATTEMPTS, DEFAULT_STALE_AFTER
    from hegemon.leaderboard.seasons.pool import SeasonWorkers
    from hegemon.leaderboard.seasons.runner import SeasonRunner
    from hegemon.leaderboard.seasons.state import RunState
    from hegemon.leaderboard.store import GameRow, MatchRow, Store

    store = Store()
    season = store.season_by_name(SEASON)
    assert season is not None
    peak_rss = [0]

    bot_ticks: dict[int, int] = {}
    worker_pids: set[int] = set()

    async def sample_rss() -> None:
        # Also the CPU time of every bot process below us (sandboxed bots are not reaped by
        # us, so getrusage(RUSAGE_CHILDREN) does not see them).
        while True:
            # /proc never blocks, and a thread per sample would add to what is measured
            with open("/proc/self/status", encoding="ascii") as f:  # noqa: ASYNC230
                for line in f:
                    if line.startswith("VmRSS:"):
                        peak_rss[0] = max(peak_rss[0], int(line.split()[1]))
            for pid, ticks in _descendant_ticks(os.getpid()).items():
                if pid not in bot_ticks and _is_worker(pid):
                    worker_pids.add(pid)
                bot_ticks[pid] = max(bot_ticks.get(pid, 0), ticks)
            await trio.sleep(0.1)

    async def main() -> RunState:
        runner: SeasonRunner | SeasonWorkers = (
            SeasonWorkers(
                store,
                season,
                workers=workers,
                concurrency=concurrency,
                stale_after=DEFAULT_STALE_AFTER,
                max_attempts=DEFAULT_MAX_ATTEMPTS,
            )
            if workers > 1
            else SeasonRunner(store, season, concurrency=concurrency)
        )
        async with trio.open_nursery() as nursery:
            nursery.start_soon(sample_rss)
            state = await runner.run()
            nursery.cancel_scope.cancel()
        return state

    wall = time.perf_counter()
    state = trio.run(main)
    wall = time.perf_counter() - wall
    me = resource.getrusage(resource.RUSAGE_SELF)
    bots = resource.getrusage(resource.RUSAGE_CHILDREN)
    with store.session() as s:
        first = s.exec(
            select(func.min(MatchRow.claimed_at)).where(col(MatchRow.season_id) == season.id)
        ).one()
        last = s.exec(select(func.max(GameRow.finished_at))).one()
        decisions = s.exec(select(func.sum(GameRow.decisions))).one()
    store.close()
    assert first is not None and last is not None, "no game was played"
    span = (last - first).total_seconds()
    tick = os.sysconf("SC_CLK_TCK")
    referee_cpu = me.ru_utime + me.ru_stime + sum(bot_ticks[p] for p in worker_pids) / tick
    all_bots = sum(t for p, t in bot_ticks.items() if p not in worker_pids) / tick
    print(
        json.dumps(
            {
                "games": state.played,
                "faults": state.faults,
                "arena_faults": state.arena_faults,
                "wall": wall,
                "span": span,
                "decisions": int(decisions or 0),
                "runner_cpu": referee_cpu,
                "bots_cpu": all_bots
                if workers > 1
                else max(bots.ru_utime + bots.ru_stime, all_bots),
                "hwm_mb": _hwm_kb() / 1024,
                "peak_rss_mb": peak_rss[0] / 1024,
            }
        )
    )


# ---------------------------------------------------------------------------------- parent
def prepare(home: Path, games: int, turn_limit: int) -> None:
    os.environ["HEGEMON_HOME"] = str(home)
    os.environ.pop("HEGEMON_DB", None)
    from hegemon.leaderboard.store import Store
    from tests.helpers.league import (  # the checkout, on sys.path above
        SeasonSpec,
        create_season,
        register_samples,
    )

    home.mkdir(parents=True, exist_ok=True)
    with Store(home / "arena.db") as store:
        create_season(
            store,
            SeasonSpec(
                name=SEASON,
                games=games,
                players=4,
                seed=SEED,
                turn_limit=turn_limit,
                decision_time=5.0,
            ),
            register_samples(store),
        )


def run(
    workdir: Path, label: str, games: int, turn_limit: int, concurrency: int, workers: int = 1
) -> dict:
    home = workdir / label
    prepare(home, games, turn_limit)
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(home), str(concurrency), str(workers)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if out.returncode != 0:
        raise SystemExit(f"runner failed ({label}): {out.stderr.strip()[-2000:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["per_min"] = result["games"] / result["span"] * 60
    return result


def ratings_benchmark(workdir: Path, n_games: int = 10_000) -> tuple[float, float, float]:
    """Seconds to (insert, load + full board, load + point fit) for ``n_games`` stored games."""
    os.environ["HEGEMON_HOME"] = str(workdir / "ratings")
    import sqlalchemy as sa
    from sqlmodel import col, select

    from hegemon.leaderboard import boards
    from hegemon.leaderboard.seasons.schedule import make_schedule
    from hegemon.leaderboard.store import DONE, GameRow, MatchRow, SeasonRow, Store

    store = Store(workdir / "ratings.db")
    rng = random.Random(SEED)
    bots = [
        store.add_bot(f"bot{i:02d}", ["python", "bot.py"], f"{i:064x}", "python") for i in range(10)
    ]
    ids = [b.id for b in bots if b.id is not None]  # every stored bot has its id
    strength = {bot_id: 1200 + 60 * i for i, bot_id in enumerate(ids)}
    schedule = make_schedule(ids, 4, n_games, SEED)
    season = store.create_season(
        SeasonRow(
            name="big",
            preset="classic",
            options={},
            players=4,
            games=n_games,
            startup_time=10,
            decision_time=2,
            time_bank=60,
            max_strikes=5,
            seed=SEED,
        ),
        ids,
        schedule,
    )
    started = time.perf_counter()
    with store.session(write=True) as s:
        match_ids = dict(
            s.exec(
                select(col(MatchRow.number), col(MatchRow.id)).where(
                    col(MatchRow.season_id) == season.id
                )
            ).all()
        )
        rows = []
        for m in schedule:
            # Gumbel-max: a Plackett–Luce finishing order of the four seats.
            keyed = sorted(
                range(4),
                key=lambda i: -(strength[m.seats[i]] / 173.7 - math.log(-math.log(rng.random()))),
            )
            places = [0] * 4
            for place, seat in enumerate(keyed, 1):
                places[seat] = place
            rows.append(
                {
                    "match_id": match_ids[m.number],
                    "record_path": f"r/{m.number}.jsonl",
                    "places": places,
                    "faults": [],
                    "finish_reason": "turn limit",
                    "duration": 1.0,
                    "decisions": 100,
                    "worker": "bench",
                }
            )
        s.execute(sa.insert(GameRow), rows)
        s.execute(
            sa.update(MatchRow)
            .where(col(MatchRow.season_id) == season.id)
            .values(status=DONE, worker="bench")
        )
    insert = time.perf_counter() - started
    stored = store.season_by_name("big")
    assert stored is not None
    season = stored
    started = time.perf_counter()
    board = boards.board(store, season, cached=False)
    full = time.perf_counter() - started
    assert board.games == n_games and len(board.rows) == 10
    started = time.perf_counter()
    games = boards.load_games(store, season.id)
    boards.build_board(
        games, dict(zip(ids, bots, strict=True)), title="", preset="classic", seed=1, samples=0
    )
    point = time.perf_counter() - started
    store.close()
    return insert, full, point


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24, help="games per throughput run")
    parser.add_argument("--turn-limit", type=int, default=20)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--skip-memory", action="store_true", help="no concurrency-8 run")
    parser.add_argument("--skip-ratings", action="store_true", help="no ratings run")
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), int(args.child[2]))
        return
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}", flush=True)
    with tempfile.TemporaryDirectory(prefix="hegemon-bench-") as tmp:
        workdir = Path(tmp)
        results: dict[str, dict] = {}
        # c2: one referee process (as before --workers); c2w: two worker processes
        for label, concurrency, workers in (("c1", 1, 1), ("c2", 2, 1), ("c2w", 2, 2)):
            load = os.getloadavg()[0]
            r = run(workdir, label, args.games, args.turn_limit, concurrency, workers)
            results[label] = r
            print(
                f"concurrency {concurrency}, {workers} referee process(es): {r['games']} games "
                f"in {r['span']:.1f} s = {r['per_min']:.1f} games/min "
                f"({r['decisions'] / r['span']:.0f} decisions/s); CPU: referee "
                f"{r['runner_cpu']:.1f} s, bots {r['bots_cpu']:.1f} s; runner peak RSS "
                f"{r['hwm_mb']:.1f} MB; faults {r['faults']}; load average before {load:.2f}",
                flush=True,
            )
        if not args.skip_memory:
            mem_games = max(16, args.games)
            c8 = run(workdir, "c8", mem_games, args.turn_limit, 8)
            print(
                f"concurrency 8: {c8['games']} games, {c8['per_min']:.1f} games/min, runner "
                f"peak RSS {c8['hwm_mb']:.1f} MB",
                flush=True,
            )
            per_game = (c8["hwm_mb"] - results["c1"]["hwm_mb"]) / 7
            print(
                f"memory: runner peak RSS {results['c1']['hwm_mb']:.1f} MB at concurrency 1, "
                f"{c8['hwm_mb']:.1f} MB at 8: {per_game:+.1f} MB per extra concurrent game "
                "(target < 20)",
                flush=True,
            )
        if not args.skip_ratings:
            insert, full, point = ratings_benchmark(workdir)
            print(
                f"ratings: 10000 stored games inserted in {insert:.2f} s; load + fit + "
                f"bootstrap intervals {full:.2f} s; load + point fit {point:.2f} s "
                "(target < 1 s)",
                flush=True,
            )
    c1, c2, c2w = results["c1"], results["c2"], results["c2w"]
    same = c1["decisions"] == c2["decisions"] == c2w["decisions"]
    if not same:
        print("note: the two runs played different games (decision counts differ)")
    speedup = c2w["per_min"] / c1["per_min"]
    print(f"one referee process at concurrency 2: speed-up {c2['per_min'] / c1['per_min']:.2f}")
    cpu_per_game = (c1["runner_cpu"] + c1["bots_cpu"]) / c1["games"]
    print(
        f"CPU per game at concurrency 1: {cpu_per_game:.2f} s "
        f"({c1['runner_cpu'] / c1['games']:.2f} s referee + "
        f"{c1['bots_cpu'] / c1['games']:.2f} s bots); wall per game "
        f"{c1['span'] / c1['games']:.2f} s"
    )
    used = (c1["runner_cpu"] + c1["bots_cpu"]) / c1["span"]
    ceiling = min(2.0, (os.cpu_count() or 1) / used) if used > 0 else 2.0
    referee_at_ceiling = c1["runner_cpu"] / c1["span"] * ceiling
    print(
        f"at concurrency 1 the season keeps {used:.2f} cores busy: with {os.cpu_count()} "
        f"idle cores concurrency 2 can reach at most {ceiling:.2f}x (the referee process "
        f"would then need {referee_at_ceiling:.2f} of its one core); other load on the "
        f"machine during this run (load average now {os.getloadavg()[0]:.2f}) lowers it"
    )
    print(
        f"season: {c2w['per_min']:.1f} games/min at concurrency 2 (2 referee processes), "
        f"speed-up {speedup:.2f}"
    )


if __name__ == "__main__":
    main()
