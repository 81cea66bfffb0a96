"""Idle runners wait on the database's notification, not a poll (PostgreSQL: migration
``0020_work_notify``'s trigger, :mod:`hegemon.leaderboard.arena.wakeup`): a real PostgreSQL, a
real runner process (``python -m hegemon.leaderboard.arena.runner``), directly and through a
real PgBouncer in transaction mode with the direct URL to listen on.

"No per-second queries" is read from the server: every connection to the test's database (the
runner's pool and its listening one) has been quiet — no statement, no new connection — for
:data:`QUIET` seconds by the server's clock, a condition awaited; a runner polling every second
(main's loop) never gets there. "Promptly" is a season's first match claimed well inside the
listening runner's safety-net timeout."""

from __future__ import annotations

import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from hegemon.leaderboard.arena.wakeup import LISTEN_ENV, SAFETY_WAIT
from hegemon.leaderboard.store import Store
from tests.helpers.league import (  # noqa: F401 (pg_server: the fixture pg_url asks for)
    ROOT,
    SeasonSpec,
    create_season,
    env_for,
    home,
    pg_server,
    pg_url,
    register_samples,
    saved_id,
    start_hegemon,
    wait_for,
)
from tests.helpers.pgbouncer import pgbouncer, through

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

QUIET = 5.0
"""Seconds every connection of an idle arena stays without a statement (a poll every second
would make one five times over)."""

PROMPT = SAFETY_WAIT / 3
"""Seconds within which an idle runner must claim a new season's first match: a third of its
safety-net wait, so a runner woken only by that timeout fails."""

QUIET_SQL = """
SELECT count(*) FILTER (
           WHERE greatest(state_change, backend_start)
                 > clock_timestamp() - make_interval(secs => %s)),
       count(*)
FROM pg_stat_activity
WHERE datname = current_database() AND pid <> pg_backend_pid()
  AND backend_type = 'client backend'
"""


def start_runner(home: Path, db: str, log: Path, **env: str) -> subprocess.Popen[bytes]:
    with log.open("w") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "hegemon.leaderboard.arena.runner", "--db", db],
            cwd=ROOT,
            env=env_for(home, **env),
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM (its claims given back), then a kill if it will not stop."""
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture
def stopped() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Runners started by the test, stopped after it."""
    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    for proc in procs:
        stop(proc)


def asked(pg_url: str, sql: str, *params: object) -> tuple:
    """The one row ``sql`` answers, on a connection of the test's own."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        row = conn.execute(sql, params).fetchone()
    assert row is not None
    return tuple(row)


def quiet(pg_url: str) -> bool:
    """Whether every other connection to the database has been quiet for :data:`QUIET` s
    (and there is one at least: the runner's listening connection)."""
    busy, connections = asked(pg_url, QUIET_SQL, QUIET)
    return busy == 0 and connections >= 1


def said(log: Path, text: str) -> bool:
    return text in log.read_text()


def idle_then_woken(home: Path, pg_url: str, db: str, log: Path) -> None:
    """The runner on ``db`` (logging to ``log``) goes quiet once idle, and a new season's first
    match is claimed promptly after the season is made."""
    wait_for("the runner to listen", lambda: said(log, "waiting for work on notifications"), 60)
    wait_for(f"every connection quiet for {QUIET:g} s", lambda: quiet(pg_url), 60, every=0.5)
    claimed_promptly(pg_url)


def listening(pg_url: str) -> int:
    """The connections to the database that LISTEN (their last statement)."""
    sql = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query = %s"
    return int(asked(pg_url, sql, "LISTEN hegemon_work")[0])


def claimed_promptly(pg_url: str) -> None:
    """A new season's first match is claimed within :data:`PROMPT` seconds of its making."""
    with Store(pg_url, create=False) as store:
        spec = SeasonSpec(name=f"woken-{secrets.token_hex(3)}", games=2, turn_limit=4)
        season = create_season(store, spec, store.bots())

        def started() -> bool:
            progress = store.progress(saved_id(season))
            return progress.claimed + progress.done > 0

        wait_for("the new season's first match to be claimed", started, PROMPT)


def test_an_idle_runner_makes_no_queries_and_wakes_when_a_season_is_made(
    home, pg_url, tmp_path, stopped
):
    with Store(pg_url) as store:
        register_samples(store)
    log = tmp_path / "runner.log"
    stopped.append(start_runner(home, pg_url, log))
    idle_then_woken(home, pg_url, pg_url, log)


def test_through_pgbouncer_an_idle_runner_listens_on_the_direct_url(
    home, pg_url, tmp_path, stopped
):
    with Store(pg_url) as store:
        register_samples(store)
    with pgbouncer(pg_url, server_pool=2) as port:
        log = tmp_path / "runner.log"
        bounced = through(pg_url, port)
        stopped.append(start_runner(home, bounced, log, **{LISTEN_ENV: pg_url}))
        idle_then_woken(home, pg_url, bounced, log)
        assert not said(log, "do not reach"), log.read_text()
        stop(stopped.pop())  # inside the bouncer's life: it gives its claims back through it


def test_through_pgbouncer_without_a_direct_url_a_runner_says_it_polls(
    home, pg_url, tmp_path, stopped, monkeypatch
):
    monkeypatch.delenv(LISTEN_ENV, raising=False)
    with Store(pg_url):
        pass
    with pgbouncer(pg_url, server_pool=2) as port:
        log = tmp_path / "runner.log"
        stopped.append(start_runner(home, through(pg_url, port), log))
        wait_for("the runner's warning", lambda: said(log, "do not reach"), 60)
        lines = [line for line in log.read_text().splitlines() if "do not reach" in line]
        assert len(lines) == 1 and LISTEN_ENV in lines[0], lines
        stop(stopped.pop())


def test_an_arenas_runners_share_its_one_listening_connection(home, pg_url, tmp_path):
    with Store(pg_url) as store:
        register_samples(store)
    log = tmp_path / "arena.log"
    args = ("arena", "--no-web", "--workers", "2", "--db", pg_url)
    arena = start_hegemon(*args, home=home, log=log)
    try:

        def ready() -> bool:
            text = log.read_text()
            return "waiting for work on notifications" in text and text.count(" started") >= 2

        wait_for("the arena and its two runners", ready, 60)
        claimed_promptly(pg_url)
        assert listening(pg_url) == 1, log.read_text()
    finally:
        stop(arena)
