"""Several runners sharing one season on a real PostgreSQL server (see league_fixtures.pg_server:
a private cluster from Debian's postgresql package, or ``HEGEMON_TEST_PG_URL``)."""

from __future__ import annotations

import secrets
import threading
import time

import pytest

from hegemon.leaderboard.store import FINISHED, Store
from league_fixtures import (  # noqa: F401
    SeasonSpec,
    create_season,
    games_per_match,
    hegemon,
    home,
    pg_server,
    pg_url,
    register_samples,
    saved_id,
    start_hegemon,
)

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
        workers = {g.worker for _, g in games}
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
