"""Several runners sharing one season on a real PostgreSQL server (see helpers.league.pg_server:
a private cluster from Debian's postgresql package, or ``HEGEMON_TEST_PG_URL``)."""

from __future__ import annotations

import secrets
import subprocess
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from hegemon.leaderboard.store import FINISHED, Store
from tests.helpers.league import (  # noqa: F401
    PgServer,
    SeasonSpec,
    create_season,
    descendants,
    games_per_match,
    hegemon,
    home,
    kill_all,
    own_pg_server,
    pg_server,
    pg_url,
    register_samples,
    saved_id,
    start_hegemon,
    wait_for,
)
from tests.helpers.pg_outage import Restartable

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def test_two_runners_share_one_season_and_play_every_game_once(home, pg_url, tmp_path):
    spec = SeasonSpec(name=f"pg-{secrets.token_hex(3)}", games=16, players=4, turn_limit=8, seed=99)
    with Store(pg_url) as store:
        assert store.is_postgres
        season = create_season(store, spec, register_samples(store))
    # Two runners (as on two machines) at the same moment, against the one database.
    runners = [
        start_hegemon(
            "season",
            "run",
            spec.name,
            "-j",
            "2",
            "--quiet",
            "--db",
            pg_url,
            "--worker",
            f"machine-{i}",
            home=home,
            log=tmp_path / f"runner{i}.log",
        )
        for i in (1, 2)
    ]
    try:
        for i, runner in enumerate(runners, 1):
            code = runner.wait(timeout=240)
            assert code == 0, (tmp_path / f"runner{i}.log").read_text()
    finally:
        for runner in runners:
            if runner.poll() is None:
                runner.kill()
                runner.wait()
    with Store(pg_url) as store:
        counts = games_per_match(store, saved_id(season))
        assert len(counts) == spec.games and set(counts.values()) == {1}, counts
        games = store.games(saved_id(season))
        # each runner may spread its games over worker processes "machine-i/1", ...
        workers = {str(g.worker).split("/")[0] for _, g in games}
        assert workers == {"machine-1", "machine-2"}, "both runners must have played"
        progress = store.progress(saved_id(season))
        assert progress.done == spec.games and progress.claimed == 0 and progress.pending == 0
        stored = store.get_season(saved_id(season))
        assert stored is not None and stored.status == FINISHED
    records = list((home / "records" / spec.name).glob("*.jsonl"))
    assert len(records) == spec.games
    out = hegemon("leaderboard", spec.name, "--csv", "--db", pg_url, home=home)
    assert out.returncode == 0, out.stderr
    rows = out.stdout.splitlines()[1:]
    assert len(rows) == 4 and sum(int(r.split(",")[6]) for r in rows) == spec.games * spec.players
    status = hegemon("season", "status", spec.name, "--db", pg_url, home=home)
    assert status.returncode == 0 and f"{spec.games} of {spec.games} done" in status.stdout


def test_concurrent_claims_never_hand_out_a_match_twice(home, pg_url):
    spec = SeasonSpec(name=f"claims-{secrets.token_hex(3)}", games=40, players=4, seed=5)
    with Store(pg_url) as store:
        season = create_season(store, spec, register_samples(store))
    claimed: dict[str, list[int]] = {}
    errors: list[BaseException] = []

    def worker(name: str) -> None:
        try:
            with Store(pg_url) as store:
                mine = claimed.setdefault(name, [])
                while (match := store.claim_match(saved_id(season), name)) is not None:
                    mine.append(match.number)
                    time.sleep(0.001)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(f"w{i}",)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    numbers = [n for got in claimed.values() for n in got]
    assert sorted(numbers) == list(range(1, spec.games + 1))
    assert sum(1 for got in claimed.values() if got) >= 2


@pytest.mark.parametrize("command", [("leaderboard", "nope"), ("season", "run", "nope")])
def test_unknown_season_on_postgres(home, pg_url, command):
    out = hegemon(*command, "--db", pg_url, home=home)
    assert out.returncode != 0
    assert "no season named 'nope'" in out.stderr


# ---------------------------------------------------------------------------------- many machines
def test_runners_with_only_the_url_share_bots_survive_an_outage_and_take_over_stale_claims(
    own_pg_server, tmp_path, monkeypatch
):
    """Three "machines" (homes with their own bot caches) and one database: the bots are
    registered on the first only; a runner on the third dies holding a claim, which status
    shows as stale and the others take over; the server restarts mid-season; every game is
    stored exactly once."""
    server = Restartable(own_pg_server)
    url = own_pg_server.create_database()
    homes = {name: tmp_path / name for name in ("a", "b", "c")}
    for folder in homes.values():
        folder.mkdir()
    monkeypatch.setenv("HEGEMON_HOME", str(homes["a"]))
    spec = SeasonSpec(name="far", games=12, players=4, turn_limit=30, seed=7)
    with Store(url) as store:
        season = create_season(store, spec, register_samples(store))
    season_id = saved_id(season)
    logs = {name: tmp_path / f"{name}.log" for name in ("gone", "m1", "m2")}

    def runner(name: str, home: Path) -> subprocess.Popen:
        return start_hegemon(
            "season", "run", spec.name, "--quiet", "--db", url, "--worker", name,
            "--workers", "1", "--stale-after", "300", home=home, log=logs[name],
        )  # fmt: skip

    # A runner on machine c claims a game, then its machine is lost (SIGKILL, no goodbye).
    with Store(url) as store:
        doomed = runner("gone", homes["c"])
        wait_for("a claim of the doomed runner", lambda: "gone" in store.claim_holders(season_id))
        kill_all([doomed.pid, *descendants(doomed.pid)])
        doomed.wait()
        # Its silence, as if minutes passed: its last heartbeat ten minutes ago.
        with store.session(write=True) as s:
            s.execute(
                sa.text(
                    "UPDATE matches SET claimed_at = now() - interval '10 minutes' "
                    "WHERE worker = 'gone'"
                )
            )
    assert any((homes["c"] / "bots").iterdir()), "machine c fetched the bots from the database"
    status = hegemon("season", "status", spec.name, "--db", url, home=homes["b"])
    assert status.returncode == 0, status.stderr
    assert "1 stale" in status.stdout and "0 in play" in status.stdout, status.stdout
    assert "runner gone: 1 stale claim(s), no heartbeat for 10m" in status.stdout, status.stdout

    runners = {"m1": runner("m1", homes["a"]), "m2": runner("m2", homes["b"])}
    try:
        with Store(url) as store:
            wait_for("three games", lambda: store.progress(season_id).done >= 3)
        server.stop()
        try:
            # Both notice: each is mostly mid-game, so its first call to fail is usually the
            # commit of a game finished during the outage.
            wait_for(
                "both runners to notice the outage",
                lambda: all("database unreachable" in logs[n].read_text() for n in runners),
            )
        finally:
            server.start()
        for name, proc in runners.items():
            assert proc.wait(timeout=300) == 0, logs[name].read_text()
    finally:
        for proc in runners.values():
            if proc.poll() is None:
                kill_all([proc.pid, *descendants(proc.pid)])
                proc.wait()
    text = "".join(logs[n].read_text() for n in runners)
    assert "database reachable again" in text, text
    with Store(url) as store:
        counts = games_per_match(store, season_id)
        assert set(counts.values()) == {1}, counts
        progress = store.progress(season_id)
        assert progress.done == spec.games and progress.claimed == progress.pending == 0
        assert {"m1", "m2"} <= {g.worker for _, g in store.games(season_id)} <= {"m1", "m2", "gone"}
        stored = store.get_season(season_id)
        assert stored is not None and stored.status == FINISHED
    assert sorted(p.name for p in (homes["b"] / "bots").iterdir()) == sorted(
        p.name for p in (homes["a"] / "bots").iterdir()
    ), "machine b materialised every bot it played"
    own_pg_server.drop_database(url)
