"""A runner cut off from its database: it retries with backoff, and a claim or a commit whose
answer was lost is neither lost nor doubled (real SQLite, real bots, the failures injected at
the store's boundary as the driver raises them)."""

from __future__ import annotations

import sqlalchemy.exc as sa_exc
import trio

from hegemon.leaderboard.seasons.runner import SeasonRunner
from hegemon.leaderboard.store import FINISHED, Store, StoreError
from tests.helpers.league import (
    SeasonSpec,
    create_season,
    games_per_match,
    register_samples,
    saved_id,
)


def lost_answer() -> StoreError:
    """What the store raises when the connection drops (the driver's OperationalError)."""
    try:
        raise sa_exc.OperationalError("COMMIT", {}, Exception("server closed the connection"))
    except sa_exc.OperationalError as cause:
        error = StoreError("database: server closed the connection (simulated)")
        error.__cause__ = cause
        return error


def test_claims_and_commits_whose_answer_was_lost_are_neither_lost_nor_doubled(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    spec = SeasonSpec(name="outage", games=4, players=4, turn_limit=2, seed=4)
    lines: list[str] = []
    with Store() as store:
        season = create_season(store, spec, register_samples(store))
        claim, finish = store.claim_match, store.finish_match
        broken = {"claim": 0, "finish": 0, "down": 0}

        def claim_then_lose_the_answer(*args, **kwargs):
            match = claim(*args, **kwargs)  # committed: the match is ours...
            if match is not None and not broken["claim"]:
                broken["claim"] += 1
                raise lost_answer()  # ...but we never hear so
            return match

        def finish_then_lose_the_answer(*args, **kwargs):
            if broken["down"] < 3:  # the server is down for a while first
                broken["down"] += 1
                raise lost_answer()
            stored = finish(*args, **kwargs)
            if not broken["finish"]:
                broken["finish"] += 1
                raise lost_answer()
            return stored

        monkeypatch.setattr(store, "claim_match", claim_then_lose_the_answer)
        monkeypatch.setattr(store, "finish_match", finish_then_lose_the_answer)
        runner = SeasonRunner(store, season, concurrency=2, log=lines.append)
        state = trio.run(runner.run)
        assert broken == {"claim": 1, "finish": 1, "down": 3}
        assert state.complete and state.played == spec.games and state.lost == 0, lines
        assert set(games_per_match(store, saved_id(season)).values()) == {1}
        stored = store.get_season(saved_id(season))
        assert stored is not None and stored.status == FINISHED
    assert any("database unreachable" in line for line in lines), lines
    assert any("database reachable again" in line for line in lines), lines
