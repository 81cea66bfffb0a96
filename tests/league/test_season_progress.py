"""A season's progress from its counter row (kept by triggers on ``matches``), on a SQLite
file and on PostgreSQL: it follows every move of a match whoever makes it, it reads the claims
in play and not the season's every match, and a game costs a runner at most eight round trips
to the database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from sqlalchemy import func
from sqlmodel import col, select

from hegemon.leaderboard.accounts.games import void_game
from hegemon.leaderboard.seasons.schedule import make_schedule
from hegemon.leaderboard.store import (
    CLAIMED,
    DONE,
    FINISHED,
    PENDING,
    VOID,
    GameOutcome,
    MatchRow,
    SeasonProgress,
    SeasonRow,
    Store,
)
from tests.helpers.league import pg_server, pg_url, saved_id  # noqa: F401
from tests.helpers.round_trips import count_round_trips

LOG = b"thinking about Kamchatka\n" * 200


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path) -> Iterator[Store]:
    """A store on a SQLite file or a fresh PostgreSQL database (one pooled connection)."""
    target = (
        tmp_path / "arena.db" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    )
    opened = Store(target, pool_size=1)
    try:
        yield opened
    finally:
        opened.close()


def new_season(store: Store, games: int, name: str = "s1") -> SeasonRow:
    ids = [
        saved_id(store.add_bot(f"bot{i}", ["python", "bot.py"], f"{i:064x}", "python"))
        for i in range(4)
    ]
    season = SeasonRow(
        name=name,
        preset="classic",
        options={"turn_limit": 0},
        players=4,
        games=games,
        startup_time=10,
        decision_time=2,
        time_bank=60,
        max_strikes=5,
        seed=12345,
    )
    return store.create_season(season, ids, make_schedule(ids, 4, games, seed=7))


def scanned(store: Store, season_id: int) -> SeasonProgress:
    """The season's progress counted the slow way, from every match."""
    with store.session() as s:
        rows = s.exec(
            select(col(MatchRow.status), col(MatchRow.worker), col(MatchRow.attempts)).where(
                col(MatchRow.season_id) == season_id
            )
        ).all()
    statuses = [status for status, _, _ in rows]
    workers: dict[str, int] = {}
    for status, worker, _ in rows:
        if status == CLAIMED and worker is not None:
            workers[worker] = workers.get(worker, 0) + 1
    return SeasonProgress(
        season_id,
        len(rows),
        statuses.count(PENDING),
        statuses.count(CLAIMED),
        statuses.count(DONE),
        statuses.count(VOID),
        sum(a for _, _, a in rows),
        workers,
    )


def played(places: int = 4) -> GameOutcome:
    return GameOutcome(
        "", list(range(1, places + 1)), [], "conquest", record="{}\n", logs=(LOG,) * 4
    )


def test_the_counter_row_follows_every_move_of_a_match(store):
    season = new_season(store, games=6)
    sid = saved_id(season)
    assert store.progress(sid) == scanned(store, sid)
    claims = [store.claim_match(sid, worker) for worker in ("a", "a", "b", "b")]
    ids = [saved_id(m) for m in claims if m is not None]
    assert len(ids) == 4
    assert store.progress(sid) == scanned(store, sid)
    assert store.progress(sid).workers == {"a": 2, "b": 2}
    assert store.finish_match(ids[0], "a", played())
    assert not store.finish_match(ids[1], "b", played())  # not b's: nothing moves
    assert store.void_match(ids[1], "a", "the referee failed")  # back to pending, attempt 1
    assert store.void_match(ids[2], "b", "the referee failed", max_attempts=1)  # given up
    assert store.release_claims("b") == 1
    progress = store.progress(sid)
    assert progress == scanned(store, sid)
    assert (progress.done, progress.void, progress.claimed, progress.attempts) == (1, 1, 0, 2)
    game = store.games(sid)[0][1]
    void_game(store, saved_id(game), by="admin")  # an admin's action, outside the claims
    assert store.progress(sid) == scanned(store, sid)
    assert store.progress(sid).void == 2


def status(store: Store, season_id: int) -> str:
    season = store.get_season(season_id)
    assert season is not None
    return season.status


def test_the_last_finisher_finishes_the_season_and_a_ladder_never_ends(store):
    season = new_season(store, games=2)
    sid = saved_id(season)
    first, second = store.claim_match(sid, "a"), store.claim_match(sid, "b")
    assert first is not None and second is not None
    assert status(store, sid) == "running"
    assert store.finish_match(saved_id(first), "a", played())
    assert status(store, sid) == "running"
    assert store.void_match(saved_id(second), "b", "broken machine", max_attempts=1)
    assert status(store, sid) == FINISHED
    assert store.seasons_waiting() == []


def test_seasons_waiting_are_those_with_a_match_to_claim(store):
    one, two = new_season(store, games=1, name="one"), new_season(store, games=3, name="two")
    assert [s.name for s in store.seasons_waiting()] == ["one", "two"]
    match = store.claim_match(saved_id(one), "a")
    assert match is not None
    assert [s.name for s in store.seasons_waiting()] == ["two"]
    assert store.release_claims("a") == 1
    assert [s.name for s in store.seasons_waiting()] == ["one", "two"]
    assert saved_id(two)


def _matches_rows_read(store: Store) -> int:
    """Rows of ``matches`` the server has read so far (every backend's statistics flushed)."""
    with store.session() as s:
        s.execute(sa.text("SELECT pg_stat_force_next_flush()"))
    with store.session() as s:
        s.execute(sa.text("SELECT pg_stat_clear_snapshot()"))
        read = s.execute(
            sa.text(
                "SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) "
                "FROM pg_stat_user_tables WHERE relname = 'matches'"
            )
        ).scalar()
    return int(read or 0)


@pytest.mark.postgres
def test_progress_reads_the_claims_in_play_not_every_match(pg_url):
    with Store(pg_url, pool_size=1) as store:  # one connection: its statistics are ours
        sid = saved_id(new_season(store, games=600))
        for worker in ("a", "b"):
            assert store.claim_match(sid, worker) is not None
        store.progress(sid)  # its plan is made and the statistics settled
        before = _matches_rows_read(store)
        progress = store.progress(sid)
        after = _matches_rows_read(store)
    assert (progress.total, progress.claimed, progress.pending) == (600, 2, 598)
    assert after - before <= 2 * progress.claimed, "progress must not read the season's matches"


@pytest.mark.postgres
def test_a_game_costs_a_runner_at_most_eight_round_trips(pg_url):
    with Store(pg_url, pool_size=1) as store:
        sid = saved_id(new_season(store, games=3))
        trips = count_round_trips(store.engine)
        per_game = []
        while True:
            before = trips.total()
            match = store.claim_match(sid, "runner")
            if match is None:
                break
            assert store.finish_match(saved_id(match), "runner", played())
            per_game.append(trips.total() - before)
        with store.session() as s:
            stored = s.exec(select(func.count()).select_from(MatchRow)).one()
    assert stored == 3 and len(per_game) == 3
    assert max(per_game) <= 8, per_game
