"""Runners through a real PgBouncer in transaction mode (Debian's ``pgbouncer``, started by
the test in front of the test PostgreSQL: :mod:`tests.helpers.pgbouncer`): a pooler that may
run each transaction on another server connection, so nothing may rely on session state —
prepared statements, session advisory locks, LISTEN."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from hegemon.leaderboard.ladder import QUEUE_DEPTH, fill_queue
from hegemon.leaderboard.store import FINISHED, Store
from tests.helpers.ladder import fake_bots, make_ladder
from tests.helpers.league import (  # noqa: F401
    PgServer,
    SeasonSpec,
    create_season,
    games_per_match,
    home,
    pg_server,
    pg_url,
    register_samples,
    saved_id,
    start_hegemon,
)
from tests.helpers.pgbouncer import pgbouncer, through

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

SERVER_POOL = 2
"""Server connections the bouncer may open: fewer than the runners' clients."""


@pytest.fixture
def bounced_url(pg_url: str) -> Iterator[str]:
    """``pg_url`` reached through a PgBouncer of its own in transaction mode."""
    with pgbouncer(pg_url, server_pool=SERVER_POOL) as port:
        yield through(pg_url, port)


def test_two_runners_play_a_season_through_pgbouncer_in_transaction_mode(
    home, pg_url, bounced_url, tmp_path
):
    spec = SeasonSpec(name=f"pgb-{secrets.token_hex(3)}", games=12, players=4, turn_limit=6)
    with Store(bounced_url) as store:  # the schema is migrated through the bouncer too
        season = create_season(store, spec, register_samples(store))
    runners = [
        start_hegemon(
            "season",
            "run",
            spec.name,
            *("-j", "2", "--workers", "2", "--quiet", "--db", bounced_url),
            *("--worker", f"machine-{i}"),
            home=home,
            log=tmp_path / f"runner{i}.log",
        )
        for i in (1, 2)
    ]
    try:
        for i, runner in enumerate(runners, 1):
            assert runner.wait(timeout=240) == 0, (tmp_path / f"runner{i}.log").read_text()
    finally:
        for runner in runners:
            if runner.poll() is None:
                runner.kill()
                runner.wait()
    with Store(pg_url) as store:  # read behind the bouncer's back: what the server holds
        counts = games_per_match(store, saved_id(season))
        assert len(counts) == spec.games and set(counts.values()) == {1}, counts
        workers = {str(g.worker).split("/")[0] for _, g in store.games(saved_id(season))}
        assert workers == {"machine-1", "machine-2"}
        done = store.get_season(saved_id(season))
        assert done is not None and done.status == FINISHED
        progress = store.progress(saved_id(season))
        assert (progress.done, progress.pending, progress.claimed) == (spec.games, 0, 0)


def test_one_matchmaker_fills_a_ladder_at_a_time_through_pgbouncer(home, bounced_url):
    with Store(bounced_url) as store:
        fake_bots(store, 6)
        ladder = make_ladder(store, f"ladder-{secrets.token_hex(3)}")
        with store.session(write=True) as holding:  # another matchmaker, mid-fill
            assert store.try_lock(holding, f"hegemon-ladder:{saved_id(ladder)}")
            assert fill_queue(store, ladder) == 0, "a second matchmaker must not fill it too"
        assert store.progress(saved_id(ladder)).pending == 0
        assert fill_queue(store, ladder) > 0  # the lock ended with its transaction
        assert store.progress(saved_id(ladder)).pending > 0


@pytest.mark.parametrize("path", ["direct", "bounced"])
def test_simultaneous_matchmakers_never_overfill_a_ladder(home, pg_url, bounced_url, path):
    """Six runners refilling one ladder at the same instant (a barrier, real threads, each its
    own store and connections): the queue ends exactly full, never over its depth, and every
    match number is made once."""
    url = pg_url if path == "direct" else bounced_url
    with Store(url) as store:
        fake_bots(store, 6)
        ladder = make_ladder(store, f"ladder-{secrets.token_hex(3)}")
    start = threading.Barrier(6)

    def refill(_: int) -> int:
        with Store(url) as mine:
            start.wait()
            return fill_queue(mine, ladder)

    with ThreadPoolExecutor(6) as pool:
        made = list(pool.map(refill, range(6)))
    with Store(url) as store:
        assert store.progress(saved_id(ladder)).pending == QUEUE_DEPTH
        numbers = [m.number for m in store.matches(saved_id(ladder))]
    assert sum(made) == len(numbers) == len(set(numbers)) == QUEUE_DEPTH, made


def test_stores_sharing_one_server_connection_through_pgbouncer_keep_working(home, pg_url):
    # one server connection for every client: a statement one client left prepared on it
    # would meet another client's of the same name (or be missing on another connection)
    with pgbouncer(pg_url, server_pool=1) as port:
        stores = [Store(through(pg_url, port), pool_size=1) for _ in range(2)]
        try:
            season = create_season(
                stores[0], SeasonSpec(name="shared", games=4), register_samples(stores[0])
            )
            for _ in range(8):  # past psycopg's prepare threshold (5) on every client
                for store in stores:
                    assert store.progress(saved_id(season)).pending == 4
                    assert store.get_season(saved_id(season)) is not None
        finally:
            for store in stores:
                store.close()
