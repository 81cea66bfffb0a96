"""``hegemon season run``: real bot processes, a real SQLite database, a real runner process.

The reference season (4 sample bots, 4 players, 24 games of at most 25 rounds, long enough to
rank them) is played once at concurrency 1 in its own home, and so is a shorter one (12 games of
at most 10 rounds); other tests replay the *same* shorter season (same name, seed and bot files,
hence the same game ids and dice) in other homes — at concurrency 4, or killed with SIGKILL and
resumed — and must give a byte-identical ``leaderboard --csv``.
"""

from __future__ import annotations

import signal
import time
from dataclasses import dataclass
from datetime import UTC
from pathlib import Path

import pytest
import trio

from hegemon.leaderboard.seasons.liveness import default_worker_id, worker_is_dead
from hegemon.leaderboard.seasons.records import record_path
from hegemon.leaderboard.seasons.runner import SeasonRunner
from hegemon.leaderboard.store import (
    CLAIMED,
    DONE,
    FINISHED,
    PENDING,
    VOID,
    MatchRow,
    Store,
    StoreError,
)
from hegemon.referee.record import replay
from hegemon.referee.runner.session import play_game
from tests.helpers.league import (
    SeasonSpec,
    board_csv,
    check_played_once,
    descendants,
    games_per_match,
    hegemon,
    kill_all,
    prepare,
    saved_id,
    start_hegemon,
    wait_for,
    wait_gone,
)

pytestmark = pytest.mark.slow

REFERENCE = SeasonSpec(name="ref", games=24, players=4, turn_limit=25, seed=20240601)
# replayed by the concurrency and SIGKILL tests: what they compare is the board of the same games,
# however many and long (a replay of the reference season took half a minute each)
REPLAYED = SeasonSpec(name="replayed", games=12, players=4, turn_limit=10, seed=20240601)


def record_differences(home_a: Path, home_b: Path, season: str) -> str:
    """Which games of two plays of one season differ, and where (for assertion messages)."""
    lines = []
    for path in sorted((home_a / "records" / season).glob("*.jsonl"), key=lambda p: int(p.stem)):
        other = home_b / "records" / season / path.name
        a = path.read_text().splitlines()
        b = other.read_text().splitlines() if other.exists() else []
        if a != b:
            first = next(
                (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                min(len(a), len(b)),
            )
            lines.append(
                f"game {path.stem} differs from record line {first + 1}: "
                f"{a[first][:200] if first < len(a) else '(end)'} | "
                f"{b[first][:200] if first < len(b) else '(end)'}"
            )
    return "\n".join(lines) or "every record is identical"


@dataclass
class Reference:
    home: Path  # where the reference season was played at concurrency 1
    csv: str  # its leaderboard --csv
    replayed: Path  # where the season REPLAYED was played at concurrency 1
    replayed_csv: str  # its leaderboard --csv
    copies: dict[str, Path]  # homes holding the season REPLAYED, not played yet


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Reference:
    """The reference season and the season REPLAYED played start to end at concurrency 1, and
    unplayed copies of the second.

    Every home registers the sample bots at the same moment, so they all play with the same
    bot files even while someone edits the sample bots in the working tree."""
    root = tmp_path_factory.mktemp("reference")
    homes = {name: root / name for name in ("reference", "replayed", "c4", "killed")}
    hashes = {}
    with pytest.MonkeyPatch.context() as mp:
        for name, home_dir in homes.items():
            prepare(home_dir, REFERENCE if name == "reference" else REPLAYED, mp)
            with Store(home_dir / "arena.db") as store:
                hashes[name] = sorted((b.name, b.content_hash) for b in store.bots())
    assert len({tuple(h) for h in hashes.values()}) == 1, "the sample bots changed meanwhile"
    played = {}
    for name, spec in (("reference", REFERENCE), ("replayed", REPLAYED)):
        home_dir = homes.pop(name)
        out = hegemon("season", "run", spec.name, "--concurrency", "1", "--quiet", home=home_dir)
        assert out.returncode == 0, out.stdout + out.stderr
        assert "finished" in out.stdout
        played[name] = (home_dir, board_csv(home_dir, spec.name))
    return Reference(*played["reference"], *played["replayed"], homes)


def test_the_sample_bots_rank_in_their_order_of_strength(reference):
    home_dir, csv = reference.home, reference.csv
    check_played_once(home_dir, REFERENCE)
    rows = [line.split(",") for line in csv.splitlines()[1:]]
    order = [row[1] for row in rows]
    assert sorted(order) == sorted(["random", "aggressive", "continental", "planner"])
    # The sample bots' own test measures planner > continental > aggressive > random (mean
    # place, turn limit 60). Measured here in-process over 24-game seasons of this shape (4
    # players, turn limit 25) on 6 seeds: planner and continental always above random, one of
    # them on top, random never winning a game; aggressive's place varies at this length.
    ratings = {row[1]: float(row[3]) for row in rows}
    assert ratings["planner"] > ratings["random"], csv
    assert ratings["continental"] > ratings["random"], csv
    assert order[0] in ("planner", "continental"), csv
    wins = {row[1]: int(row[7]) for row in rows}
    assert wins["random"] == 0 and wins["planner"] + wins["continental"] > wins["aggressive"], csv
    games = {row[1]: int(row[6]) for row in rows}
    assert sum(games.values()) == REFERENCE.games * REFERENCE.players
    assert all(int(row[9]) == 0 for row in rows), "the sample bots made faults"
    # A record verifies against the engine; each seat's log is kept beside it.
    record = home_dir / "records" / REFERENCE.name / "1.jsonl"
    logs = sorted(p.name for p in (home_dir / "records" / REFERENCE.name / "1.logs").iterdir())
    assert logs == [f"seat-{i}.log" for i in range(REFERENCE.players)]
    verdict = replay(record.read_text(encoding="utf-8"))
    assert verdict.ok, verdict.message


def test_concurrency_four_in_two_processes_gives_the_identical_leaderboard(reference):
    expected, home_dir = reference.replayed_csv, reference.copies["c4"]
    out = hegemon(
        "season", "run", REPLAYED.name, "-j", "4", "--workers", "2", "--worker", "two",
        home=home_dir,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    assert "4 at once in 2 processes" in out.stdout and "finished" in out.stdout
    check_played_once(home_dir, REPLAYED)
    with Store(home_dir / "arena.db") as store:
        season = store.season_by_name(REPLAYED.name)
        workers = {g.worker for _, g in store.games(saved_id(season))}
    assert workers == {"two/1", "two/2"}, "both worker processes played"
    assert board_csv(home_dir, REPLAYED.name) == expected, record_differences(
        reference.replayed, home_dir, REPLAYED.name
    )
    # The crosstable and the Elo board are reproducible too.
    for extra in (["--crosstable"], ["--method", "elo"]):
        a = hegemon("leaderboard", REPLAYED.name, "--csv", *extra, home=home_dir)
        b = hegemon("leaderboard", REPLAYED.name, "--csv", *extra, home=reference.replayed)
        assert a.returncode == 0 and a.stdout == b.stdout


def test_sigkill_mid_season_then_resume_plays_every_game_once(reference, tmp_path):
    expected, home_dir = reference.replayed_csv, reference.copies["killed"]
    with Store(home_dir / "arena.db") as store:
        season = store.season_by_name(REPLAYED.name)
    runner = start_hegemon(
        "season",
        "run",
        REPLAYED.name,
        "-j",
        "2",
        "--quiet",
        home=home_dir,
        log=tmp_path / "first.log",
    )
    bots: set[int] = set()
    try:
        with Store(home_dir / "arena.db") as store:

            def six_done_and_more_claimed() -> bool:
                assert runner.poll() is None, (tmp_path / "first.log").read_text()
                bots.update(descendants(runner.pid))
                progress = store.progress(saved_id(season))
                return progress.done >= 6 and progress.claimed > 0

            wait_for("six games done, more in play", six_done_and_more_claimed, 120, 0.05)
            bots.update(descendants(runner.pid))
            runner.send_signal(signal.SIGKILL)
            runner.wait(timeout=10)
            kill_all(sorted(bots))  # a runner killed outright cannot stop its bots
            assert not wait_gone(sorted(bots))
            progress = store.progress(saved_id(season))
            assert 6 <= progress.done < REPLAYED.games
            assert progress.claimed > 0  # the dead runner's claims are still there
            committed = {m.number: (g.id, g.worker) for m, g in store.games(saved_id(season))}
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
    # A new runner notices the dead runner of this machine at once: with a day's --stale-after,
    # waiting for the claims to go stale would outlast the test's timeout.
    out = hegemon(
        "season",
        "run",
        REPLAYED.name,
        "-j",
        "2",
        "--quiet",
        "--stale-after",
        "86400",
        home=home_dir,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no longer running" in out.stdout
    check_played_once(home_dir, REPLAYED)
    with Store(home_dir / "arena.db") as store:
        after = {m.number: (g.id, g.worker) for m, g in store.games(saved_id(season))}
    # Nothing the killed runner committed was touched or played again.
    assert {n: after[n] for n in committed} == committed
    assert len({worker for _, worker in after.values()}) >= 2  # two runs (or their workers)
    assert board_csv(home_dir, REPLAYED.name) == expected, record_differences(
        reference.replayed, home_dir, REPLAYED.name
    )


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_abandons_games_in_flight_and_a_later_run_resumes(tmp_path, monkeypatch, workers):
    # games of 25 rounds: with 10, a game could end as the signal came and its record outlive
    # the abandoned count (9244aa4)
    spec = SeasonSpec(name="interrupted", games=6, players=4, turn_limit=25, seed=3)
    home_dir = tmp_path / "home"
    season = prepare(home_dir, spec, monkeypatch)
    runner = start_hegemon(
        "season", "run", spec.name, "-j", "2", "--workers", workers,
        home=home_dir, log=tmp_path / "run.log",
    )  # fmt: skip
    bots: set[int] = set()
    try:
        with Store(home_dir / "arena.db") as store:

            def one_done_two_in_play() -> bool:
                assert runner.poll() is None, (tmp_path / "run.log").read_text()
                bots.update(descendants(runner.pid))
                progress = store.progress(season.id)
                return progress.done >= 1 and progress.claimed == 2

            wait_for("a game done and two in play", one_done_two_in_play, 120, 0.05)
            bots.update(descendants(runner.pid))
            runner.send_signal(signal.SIGINT)
            assert runner.wait(timeout=30) == 130, (tmp_path / "run.log").read_text()
            assert not wait_gone(sorted(bots), 5), "bot processes outlived the runner"
            progress = store.progress(season.id)
            assert progress.claimed == 0 and progress.pending > 0
            done = progress.done
            # Nothing of the abandoned games was recorded.
            assert len(list((home_dir / "records" / spec.name).glob("*.jsonl"))) == done
            assert len(store.games(season.id)) == done
            stored = store.get_season(season.id)
            assert stored is not None and stored.status == "running"
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
    log = (tmp_path / "run.log").read_text()
    assert "SIGINT: stopping" in log and "again to resume" in log
    # Two runners on this machine share the rest of the season (one SQLite file).
    resumed = [
        start_hegemon(
            "season", "run", spec.name, "--quiet", home=home_dir, log=tmp_path / f"resume{i}.log"
        )
        for i in (1, 2)
    ]
    for i, runner in enumerate(resumed, 1):
        assert runner.wait(timeout=180) == 0, (tmp_path / f"resume{i}.log").read_text()
    check_played_once(home_dir, spec)
    again = hegemon("season", "run", spec.name, home=home_dir)
    assert again.returncode == 0 and "already finished" in again.stdout


# ---------------------------------------------------------------------------------- arena faults
def run_in_process(store: Store, season, **options):
    runner = SeasonRunner(store, season, **options)
    return trio.run(runner.run), runner


def test_arena_faults_void_the_game_and_it_is_played_again(tmp_path, monkeypatch):
    spec = SeasonSpec(name="faulty", games=6, players=4, turn_limit=3, seed=11)
    season = prepare(tmp_path / "home", spec, monkeypatch)
    calls: dict[int, int] = {}
    lines: list[str] = []

    async def flaky_play(pool, commands, rules, seed, game_id, on_progress, names):
        number = int(game_id.rsplit("-", 1)[1])
        calls[number] = calls.get(number, 0) + 1
        if number == 2 and calls[number] == 1:
            raise RuntimeError("the referee tripped")
        if number == 3:
            raise RuntimeError("this game always breaks the referee")
        if number == 4 and calls[number] == 1:
            # The record cannot be written: its path is taken by a folder.
            record_path(spec.name, 4).mkdir(parents=True)
        elif number == 4:
            record_path(spec.name, 4).rmdir()
        return await play_game(pool, commands, rules, seed, game_id, on_progress, names)

    with Store() as store:
        original = store.finish_match
        failed: list[int] = []

        def finish_failing_once(match_id, worker, outcome):
            match = next(m for m in store.matches(saved_id(season)) if m.id == match_id)
            if match.number == 5 and not failed:
                failed.append(match_id)
                raise StoreError("database: the connection was lost (simulated)")
            return original(match_id, worker, outcome)

        monkeypatch.setattr(store, "finish_match", finish_failing_once)
        # No retries inside the runner's database calls, so the simulated failure surfaces.
        monkeypatch.setattr(SeasonRunner, "_db", _db_without_retries)
        state, _ = run_in_process(
            store, season, concurrency=2, max_attempts=2, play=flaky_play, log=lines.append
        )
        assert state.complete and state.arena_faults == 5  # 2 once, 3 twice, 4 once, 5 once
        matches = {m.number: m for m in store.matches(season.id)}
        assert matches[3].status == VOID and matches[3].attempts == 2
        assert "always breaks" in (matches[3].last_error or "")
        for number in (2, 4, 5):
            assert matches[number].status == DONE and matches[number].attempts == 1
        assert "cannot write the record" in (matches[4].last_error or "")
        assert "connection was lost" in (matches[5].last_error or "")
        counts = games_per_match(store, season.id)
        assert counts == {1: 1, 2: 1, 3: 0, 4: 1, 5: 1, 6: 1}
        stored = store.get_season(season.id)
        assert stored is not None and stored.status == FINISHED
    assert calls[3] == 2 and calls[2] == 2
    assert any("void" in line for line in lines)
    # The void game is never scored: 5 games on the board.
    out = hegemon("leaderboard", spec.name, "--json", home=tmp_path / "home")
    assert out.returncode == 0 and '"games": 5' in out.stdout


async def _db_without_retries(self, fn, *args, retries=0, reconnect=True):
    return await trio.to_thread.run_sync(fn, *args)


def test_a_stale_claim_of_another_machine_is_taken_over(tmp_path, monkeypatch):
    spec = SeasonSpec(name="stale", games=3, players=4, turn_limit=2, seed=5)
    season = prepare(tmp_path / "home", spec, monkeypatch)
    with Store() as store:
        taken = store.claim_match(season.id, "elsewhere:4242:beef")
        assert taken is not None and taken.number == 1
        time.sleep(1.1)
        state, _ = run_in_process(store, season, stale_after=1.0)
        assert state.complete and state.played == 3
        games = {m.number: g for m, g in store.games(season.id)}
        assert games[1].worker != "elsewhere:4242:beef"
        # A claim of a live runner elsewhere is left alone until it is stale.
        assert store.progress(season.id).claimed == 0


def test_the_runner_waits_for_other_runners_claims(tmp_path, monkeypatch):
    spec = SeasonSpec(name="shared", games=2, players=4, turn_limit=2, seed=6)
    season = prepare(tmp_path / "home", spec, monkeypatch)
    with Store() as store:
        other = store.claim_match(season.id, "elsewhere:1:aaaa")

        async def scenario():
            first_played = trio.Event()

            def on_change(state):
                if state.played >= 1:
                    first_played.set()

            runner = SeasonRunner(
                store, season, stale_after=60, poll_interval=0.1, on_change=on_change
            )
            async with trio.open_nursery() as nursery:
                nursery.start_soon(runner.run)
                await first_played.wait()
                await trio.sleep(0.5)
                assert store.progress(season.id).claimed == 1  # still waiting for elsewhere
                # The other runner gives its game back (e.g. an arena fault): we play it.
                await trio.to_thread.run_sync(
                    store.void_match, saved_id(other), "elsewhere:1:aaaa", "simulated"
                )
            return runner.state

        state = trio.run(scenario)
        assert state.played == 2 and state.complete
        assert store.matches(season.id, PENDING) == [] and store.matches(season.id, CLAIMED) == []


def test_worker_is_dead_only_for_gone_local_processes():
    import os
    import socket
    import subprocess
    import sys
    from datetime import datetime

    host = socket.gethostname()
    now = datetime.now(UTC)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert not worker_is_dead(f"{host}:{child.pid}:abcd", now)
    finally:
        child.kill()
        child.wait()
    assert worker_is_dead(f"{host}:{child.pid}:abcd", now)
    zombie = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    zombie.kill()
    time.sleep(0.3)  # killed, not reaped yet
    assert worker_is_dead(f"{host}:{zombie.pid}:abcd", now)
    zombie.wait()
    assert not worker_is_dead(f"another-host:{child.pid}:abcd", now)
    assert not worker_is_dead(f"{host}:{os.getpid()}:abcd", now)
    assert not worker_is_dead("my-own-name", now)
    assert not worker_is_dead(f"{host}:1:abcd", now)  # init: alive, and older than the claim
    # A pid that now belongs to a process started after the claim is not the claimant.
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        long_ago = datetime(2000, 1, 1, tzinfo=UTC)
        assert worker_is_dead(f"{host}:{child.pid}:abcd", long_ago)
    finally:
        child.kill()
        child.wait()
    assert default_worker_id().startswith(f"{host}:{os.getpid()}:")


def test_a_database_that_fails_for_good_stops_the_run_with_its_error(tmp_path, monkeypatch):
    spec = SeasonSpec(name="dbdown", games=6, players=4, turn_limit=2, seed=8)
    season = prepare(tmp_path / "home", spec, monkeypatch)
    with Store() as store:
        original = store.claim_match
        claims: list[MatchRow | None] = []

        def claim(*args, **kwargs):
            if len(claims) >= 2:
                raise StoreError("database sqlite:///arena.db: disk I/O error (simulated)")
            match = original(*args, **kwargs)
            claims.append(match)
            return match

        monkeypatch.setattr(store, "claim_match", claim)
        monkeypatch.setattr(SeasonRunner, "_db", _db_without_retries)
        runner = SeasonRunner(store, season, concurrency=1)
        with pytest.raises(StoreError, match="disk I/O error"):
            trio.run(runner.run)
        progress = store.progress(season.id)
        assert progress.done == 2 and progress.claimed == 0  # what finished is kept
        assert set(games_per_match(store, season.id).values()) == {0, 1}
