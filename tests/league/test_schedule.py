"""Season schedules: deterministic, and balanced in games, seats and opponents."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hegemon.leaderboard.seasons.schedule import duplicate_games, make_schedule, match_seed


@st.composite
def setups(draw, max_games: int = 90):
    players = draw(st.integers(3, 6))
    bots = draw(st.integers(players, 11))
    first = draw(st.integers(1, 1000))
    ids = list(range(first, first + bots))
    games = draw(st.integers(1, max_games))
    seed = draw(st.integers(0, (1 << 63) - 1))
    return ids, players, games, seed


def seat_counts(schedule, ids, players):
    counts = Counter((bot, pos) for m in schedule for pos, bot in enumerate(m.seats))
    return {b: [counts[(b, p)] for p in range(players)] for b in ids}


def games_played(schedule, ids):
    counts = Counter(b for m in schedule for b in m.seats)
    return [counts[b] for b in ids]


def pair_counts(schedule, ids):
    counts = Counter(frozenset(p) for m in schedule for p in itertools.combinations(m.seats, 2))
    return [counts[frozenset(p)] for p in itertools.combinations(ids, 2)]


@settings(max_examples=60, deadline=None)
@given(setups())
def test_balanced(setup):
    ids, players, games, seed = setup
    schedule = make_schedule(ids, players, games, seed)
    assert len(schedule) == games
    assert [m.number for m in schedule] == list(range(1, games + 1))
    for m in schedule:
        assert len(m.seats) == players and len(set(m.seats)) == players
        assert set(m.seats) <= set(ids)
        assert 0 <= m.seed < 1 << 63
        assert m.seed == match_seed(seed, m.table)
    played = games_played(schedule, ids)
    assert max(played) - min(played) <= 1  # every bot plays as often, give or take one
    for bot, row in seat_counts(schedule, ids, players).items():
        assert max(row) - min(row) <= 2, (bot, row)  # every seat about equally often
    pairs = pair_counts(schedule, ids)
    assert max(pairs) - min(pairs) <= 3, sorted(pairs)  # opponents mixed


@settings(max_examples=30, deadline=None)
@given(setups(max_games=40))
def test_deterministic(setup):
    ids, players, games, seed = setup
    assert make_schedule(ids, players, games, seed) == make_schedule(
        list(ids), players, games, seed
    )


def test_seed_changes_the_schedule():
    ids = list(range(8))
    a, b = make_schedule(ids, 4, 30, seed=1), make_schedule(ids, 4, 30, seed=2)
    assert [m.seats for m in a] != [m.seats for m in b]
    assert {m.seed for m in a}.isdisjoint({m.seed for m in b})
    assert len({m.seed for m in a}) == 30  # a fresh dice seed per game


def test_a_long_season_stays_even():
    ids = list(range(10))
    schedule = make_schedule(ids, 4, 400, seed=5)
    pairs = pair_counts(schedule, ids)
    assert max(pairs) - min(pairs) <= 1
    for row in seat_counts(schedule, ids, 4).values():
        assert max(row) - min(row) <= 1


@settings(max_examples=40, deadline=None)
@given(setups(max_games=60))
def test_duplicate_rotations(setup):
    ids, players, games, seed = setup
    schedule = make_schedule(ids, players, games, seed, duplicate=True)
    assert len(schedule) == duplicate_games(games, players)
    assert len(schedule) % players == 0 and len(schedule) >= games
    tables = [schedule[i : i + players] for i in range(0, len(schedule), players)]
    for t, rotations in enumerate(tables):
        base = rotations[0].seats
        assert len({m.seed for m in rotations}) == 1  # one dice seed per table
        assert rotations[0].seed == match_seed(seed, t)
        for r, m in enumerate(rotations):
            assert m.table == t
            assert m.seats == base[r:] + base[:r]  # rotated one seat each time
        # so every bot of the table sits in every seat exactly once
        for pos in range(players):
            assert sorted(m.seats[pos] for m in rotations) == sorted(base)
    seeds = [rot[0].seed for rot in tables]
    assert len(set(seeds)) == len(seeds)
    # Tables, and so games, are shared out evenly (give or take one table).
    per_table = Counter(b for rot in tables for b in rot[0].seats)
    counts = [per_table[b] for b in ids]
    assert max(counts) - min(counts) <= 1
    played = games_played(schedule, ids)
    assert max(played) - min(played) <= players


def test_duplicate_rounds_games_up():
    assert (
        duplicate_games(10, 4) == 12 and duplicate_games(12, 4) == 12 and duplicate_games(1, 3) == 3
    )


def test_match_seed_is_documented_formula():
    import hashlib
    import hmac

    from hegemon.referee.chance import PUBLIC_BELOW
    from hegemon.referee.record import seed_is_public

    digest = hmac.new(b"42", b"hegemon-match:7", hashlib.sha256).digest()
    assert match_seed(42, 7) == int.from_bytes(digest[:8], "big") >> 1
    secret = (1 << 128) | 12345
    digest = hmac.new(str(secret).encode(), b"hegemon-match:7", hashlib.sha256).digest()
    assert match_seed(secret, 7) == int.from_bytes(digest[:16], "big") | (1 << 128)
    # a public season seed makes public games, a secret one secret games
    assert seed_is_public(match_seed(42, 7)) and match_seed(42, 7) < PUBLIC_BELOW
    assert not seed_is_public(match_seed(secret, 7))


@pytest.mark.parametrize(
    "bots, players, games, message",
    [
        ([1, 2], 3, 5, "at least 3 bots"),
        ([1, 2, 2, 3], 3, 5, "listed twice"),
        ([1, 2, 3], 3, 0, "at least one game"),
    ],
)
def test_bad_inputs(bots, players, games, message):
    with pytest.raises(ValueError, match=message):
        make_schedule(bots, players, games, seed=1)
