"""A game's record and logs are stored with its result, in its transaction (issue 36 item 1):
a runner that lost its claim stores neither; the holder stores both, the record byte for byte;
on a real SQLite file (the PostgreSQL run: tests/arena/test_shared_records.py)."""

from __future__ import annotations

from dataclasses import replace

from hegemon.leaderboard.store import GameOutcome
from hegemon.leaderboard.store.records import logged_seats, stored_log, stored_record
from tests.helpers.league import (  # noqa: F401
    SeasonSpec,
    create_season,
    home,
    register_samples,
    saved_id,
    store,
)
from tests.helpers.web import play_record


def test_only_the_claims_holder_stores_the_record_and_logs_with_the_result(store):
    season = create_season(store, SeasonSpec(name="kept", games=1), register_samples(store))
    match = store.claim_match(saved_id(season), "holder")
    assert match is not None
    taken = store.claim_match(saved_id(season), "taker", stale_after_s=0)  # holder went silent
    assert taken is not None and taken.id == match.id
    text = play_record(7, ["a", "b", "c", "d"]) + "\u00e9 — not ASCII\n"
    logs = (b"seat zero\n", None, b"\xff\xfe not UTF-8\n", b"")
    outcome = replace(GameOutcome("", [1, 2, 3, 4]), record=text, logs=logs)

    assert not store.finish_match(saved_id(match), "holder", outcome)  # its claim was lost
    assert stored_record(store, saved_id(match)) is None
    assert logged_seats(store, saved_id(match)) == set()

    assert store.finish_match(saved_id(match), "taker", outcome)
    assert stored_record(store, saved_id(match)) == text
    assert logged_seats(store, saved_id(match)) == {0, 2, 3}  # seat 1 kept no log
    assert [stored_log(store, saved_id(match), seat) for seat in range(4)] == list(logs)
