"""Ladders for the tests: bot rows that are never run, a ladder of them, and its games played
by "finishing" each queued match with a random order, as a runner would (no bot processes:
for the tests of the matchmaker and the pages, not of playing)."""

from __future__ import annotations

import random

from hegemon.leaderboard.ladder import fill_queue, ladder_entrants
from hegemon.leaderboard.store import (
    DONE,
    LADDER,
    BotRow,
    GameOutcome,
    GameRow,
    MatchRow,
    SeasonRow,
    Store,
)


def make_ladder(store: Store, name: str = "lad", seed: int = 1 << 128 | 12345) -> SeasonRow:
    season = SeasonRow(
        name=name,
        preset="classic",
        options={"turn_limit": 10},
        players=4,
        games=0,
        startup_time=20,
        decision_time=30,
        time_bank=600,
        max_strikes=5,
        seed=seed,
        kind=LADDER,
    )
    return store.create_season(season, [b.id for b in ladder_entrants(store) if b.id], [])


def fake_bots(store: Store, count: int, version: int = 1) -> list[BotRow]:
    """Bot rows that are never run (the matchmaker only reads their ids and names)."""
    rows = [
        BotRow(
            name=f"bot{i:02d}",
            version=version,
            command=["true"],
            content_hash=f"{version:032x}{i:032x}",
            language="python",
        )
        for i in range(count)
    ]
    with store.session(write=True) as s:
        s.add_all(rows)
    return rows


def play_queue(store: Store, season: SeasonRow, rng: random.Random) -> list[list[int]]:
    """Fill the queue, then finish every pending match with a random finishing order (as a
    runner would); the tables played, in order."""
    assert season.id is not None
    fill_queue(store, season)
    played = []
    while (match := store.claim_match(season.id, "test-runner")) is not None:
        assert match.id is not None
        places = list(range(1, len(match.seats) + 1))
        rng.shuffle(places)
        assert store.finish_match(match.id, "test-runner", GameOutcome("", places))
        played.append(list(match.seats))
    return played


def drive(store: Store, season: SeasonRow, games: int, seed: int = 7) -> list[list[int]]:
    rng = random.Random(seed)
    tables: list[list[int]] = []
    while len(tables) < games:
        tables += play_queue(store, season, rng)
    return tables


def new_version(store: Store, name: str) -> BotRow:
    """A second version of the fake bot ``name``: it replaces the first in matchmaking."""
    newer = BotRow(name=name, version=2, command=["true"], content_hash="f" * 64, language="x")
    with store.session(write=True) as s:
        s.add(newer)
    return newer


def past_games(
    store: Store, season: SeasonRow, games: int, seed: int = 3, resting: int = 0
) -> None:
    """Store ``games`` finished games of the ladder's entrants at once (rounds of shuffled
    tables, random finishing orders): a long history without making its tables one by one.
    The last ``resting`` tables seat only the first half of the entrants, so the others are
    overdue when the matchmaker takes over."""
    assert season.id is not None
    rng = random.Random(seed)
    everyone = [b.id for b in ladder_entrants(store) if b.id is not None]
    tables: list[list[int]] = []
    while len(tables) < games:
        ids = everyone[: len(everyone) // 2] if len(tables) >= games - resting else everyone
        rng.shuffle(ids)
        tables += [
            ids[i : i + season.players]
            for i in range(0, len(ids) - season.players + 1, season.players)
        ]
    matches = [
        MatchRow(
            season_id=season.id,
            number=number,
            table_number=number,
            seats=seats,
            seed=number,
            status=DONE,
        )
        for number, seats in enumerate(tables[:games], 1)
    ]
    with store.session(write=True) as s:
        s.add_all(matches)
        s.flush()
        for match in matches:
            assert match.id is not None
            places = list(range(1, season.players + 1))
            rng.shuffle(places)
            s.add(GameRow(match_id=match.id, record_path="", places=places, faults=[]))
