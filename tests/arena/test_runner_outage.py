"""An arena's runners outlast the database: a real ``hegemon arena --no-web`` over a real
PostgreSQL that is stopped and started again. Its runner processes say the outage once, wait it
out, and play the season created after it — before, the first failed look for work ended each
runner process, and an arena with a web site went on serving with nothing playing its games."""

from __future__ import annotations

import pytest

from hegemon.leaderboard.store import Store
from tests.helpers.league import (  # noqa: F401 (pg_server: the fixture own_pg_server asks for)
    SeasonSpec,
    create_season,
    descendants,
    kill_all,
    own_pg_server,
    pg_server,
    register_samples,
    saved_id,
    start_hegemon,
    wait_for,
)
from tests.helpers.pg_outage import Restartable

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def outage_tells(log: str) -> list[str]:
    """The runner's outage lines in order, as "down" and "up": each outage is told once when
    it starts and once when it ends, never a line a retry. (A stopping server can answer one
    more query between dropping its connections and refusing new ones, so the runner may
    honestly see the stop as two outages.)"""
    return [
        "down" if "database unreachable" in line else "up"
        for line in log.splitlines()
        if line.startswith("runner ")
        and ("database unreachable" in line or "reachable again" in line)
    ]


def test_idle_runners_wait_out_an_outage_then_play_what_comes(own_pg_server, tmp_path):
    server = Restartable(own_pg_server)
    url = own_pg_server.create_database()
    with Store(url) as store:
        bots = register_samples(store)
    log = tmp_path / "arena.log"
    arena = start_hegemon("arena", "--no-web", "--workers", "1", "--db", url, log=log)
    try:
        wait_for("the runner to start", lambda: "started" in log.read_text())
        server.stop()
        try:
            wait_for("the runner to notice", lambda: "database unreachable" in log.read_text())
        finally:
            server.start()
        wait_for("the database back", lambda: "reachable again" in log.read_text())
        assert arena.poll() is None, log.read_text()
        spec = SeasonSpec(name="after", games=2, players=3, turn_limit=5, seed=3)
        with Store(url) as store:
            season_id = saved_id(create_season(store, spec, bots))
            wait_for("the season's games", lambda: store.progress(season_id).done == spec.games)
    finally:
        kill_all([arena.pid, *descendants(arena.pid)])
        arena.wait()
    text = log.read_text()
    assert outage_tells(text) in (["down", "up"], ["down", "up", "down", "up"]), text
    assert "Traceback" not in text, text
    own_pg_server.drop_database(url)
