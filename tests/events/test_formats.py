"""The pairings of a final event as pure functions: every seating once in a round-robin, a
Swiss round that never repeats a table when the field allows it, a knockout that sends on
exactly K of each table until one table is left."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hegemon.leaderboard.events.formats import (
    KNOCKOUT,
    ROUND_ROBIN,
    SWISS,
    FormatError,
    Played,
    advancing,
    knockout_rounds,
    knockout_sizes,
    rotations,
    round_robin,
    snake,
    swiss_round,
)
from hegemon.leaderboard.events.rounds import Shape, final_standings, first_round, next_round


def play(tables, rng: random.Random, first_table: int = 1) -> list[Played]:
    """One game per table with places drawn at random (a permutation of 1..seats)."""
    games = []
    for n, table in enumerate(tables, start=first_table):
        places = list(range(1, len(table) + 1))
        rng.shuffle(places)
        games.append(Played(n, tuple(table), tuple(places)))
    return games


# ---------------------------------------------------------------------------------- round-robin
@given(st.integers(2, 9), st.integers(2, 5))
def test_a_round_robin_seats_every_combination_once(n, seats):
    bots = list(range(100, 100 + n))
    tables = round_robin(bots, seats)
    as_sets = [frozenset(t) for t in tables]
    assert len(set(as_sets)) == len(as_sets)
    assert set(as_sets) == {frozenset(c) for c in itertools.combinations(bots, seats)}


@given(st.lists(st.integers(1, 1000), min_size=2, max_size=6, unique=True))
def test_rotations_put_every_bot_in_every_seat_once(table):
    orders = rotations(tuple(table))
    assert orders[0] == tuple(table)
    for seat in range(len(table)):
        assert sorted(o[seat] for o in orders) == sorted(table)


# ---------------------------------------------------------------------------------- Swiss
def avoidable(bots, seats, met) -> bool:
    """Brute force: is there a split of ``bots`` into tables, none of them in ``met``?"""
    if not bots:
        return True
    first, rest = bots[0], bots[1:]
    for others in itertools.combinations(rest, seats - 1):
        table = frozenset((first, *others))
        if table not in met and avoidable([b for b in rest if b not in others], seats, met):
            return True
    return False


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([(2, 4), (2, 6), (2, 8), (3, 6), (3, 9), (4, 8)]),
    st.integers(0, 2**32),
    st.integers(1, 6),
)
def test_swiss_never_repeats_a_table_when_it_can_avoid_it(shape, seed, rounds):
    seats, n = shape
    rng = random.Random(seed)
    bots = list(range(1, n + 1))
    rng.shuffle(bots)
    met: list[tuple[int, ...]] = []
    for _ in range(rounds):
        tables = swiss_round(bots, seats, met)
        assert sorted(b for t in tables for b in t) == sorted(bots)  # each bot at one table
        assert all(len(t) == seats for t in tables)
        repeats = [t for t in tables if frozenset(t) in {frozenset(m) for m in met}]
        if avoidable(bots, seats, {frozenset(m) for m in met}):
            assert repeats == []
        met.extend(tables)
        rng.shuffle(bots)


def test_swiss_pairs_the_leaders_together():
    ranked = [5, 3, 8, 1, 2, 7, 4, 6]
    assert swiss_round(ranked, 2, []) == [(5, 3), (8, 1), (2, 7), (4, 6)]
    # 5 and 3 met already: 5 plays the next one down, 3 the one after
    assert swiss_round(ranked, 2, [(3, 5)])[:2] == [(5, 8), (3, 1)]


def test_a_swiss_round_of_a_field_that_is_not_whole_tables_is_refused():
    with pytest.raises(FormatError, match="whole tables"):
        swiss_round([1, 2, 3], 2, [])


# ---------------------------------------------------------------------------------- knockout
@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from([(2, 1), (3, 1), (3, 2), (4, 1), (4, 2), (4, 3), (6, 2), (6, 3)]),
    st.integers(0, 6),
    st.integers(0, 2**32),
)
def test_a_knockout_sends_on_exactly_k_per_table_until_one_table(shape, size, seed):
    seats, k = shape
    sizes = knockout_sizes(seats, k)
    n = sizes[min(size, len(sizes) - 1)]
    rng = random.Random(seed)
    bots = list(range(10, 10 + n))
    ko = Shape(KNOCKOUT, seats, k, rotate=False)
    rounds = [first_round(ko, bots)]
    games: list[Played] = []
    while True:
        tables = rounds[-1]
        assert all(len(t) == seats for t in tables)
        assert sorted(b for t in tables for b in t) == sorted({b for t in tables for b in t})
        games += play(tables, rng, len(games) + 1)
        following = next_round(ko, bots, rounds, games)
        if following is None:
            break
        on = advancing(tables, games, bots, k)
        for table in tables:  # exactly k of each table go on: its best by the games' points
            going = [b for b in table if b in on]
            assert len(going) == k
            winner = next(g for g in games if set(g.seats) == set(table))
            best = sorted(table, key=lambda b: winner.places[winner.seats.index(b)])[:k]
            assert sorted(going) == sorted(best)
        assert sorted(b for t in following for b in t) == sorted(on)
        rounds.append(following)
    assert len(rounds[-1]) == 1  # one table left
    assert len(rounds) == len(knockout_rounds(n, seats, k))
    final = final_standings(ko, bots, rounds, games)
    assert sorted(b for b, _ in final) == sorted(bots)
    last = games[-1]
    assert final[0][0] == last.seats[last.places.index(1)]  # the final table's winner wins


def test_a_knockout_that_does_not_come_out_to_one_table_says_which_fields_do():
    with pytest.raises(FormatError, match="try 2, 4, 8, 16, 32, 64 bots"):
        knockout_rounds(6, 2, 1)
    with pytest.raises(FormatError, match="--advance must be between 1 and 3"):
        knockout_rounds(8, 4, 4)
    assert knockout_rounds(16, 4, 2) == [16, 8, 4]


def test_snake_seeding_spreads_the_best():
    assert snake([1, 2, 3, 4, 5, 6, 7, 8], 2) == [(1, 8), (2, 7), (3, 6), (4, 5)]
    assert snake(list(range(1, 9)), 4) == [(1, 4, 5, 8), (2, 3, 6, 7)]


# ---------------------------------------------------------------------------------- standings
def test_round_robin_and_swiss_rank_by_points_then_entry_seed():
    bots = [1, 2, 3]
    rr = Shape(ROUND_ROBIN, 2)
    games = [Played(1, (1, 2), (2, 1)), Played(2, (1, 3), (1, 2)), Played(3, (2, 3), (2, 1))]
    assert next_round(rr, bots, [first_round(rr, bots)], games) is None
    # every bot won once: the entry seed breaks the tie
    assert final_standings(rr, bots, [], games) == [(1, 1), (2, 1), (3, 1)]
    sw = Shape(SWISS, 2, rounds=2)
    following = next_round(
        sw, [1, 2, 3, 4], [[(1, 2), (3, 4)]], play([(1, 2), (3, 4)], random.Random(1))
    )
    assert following is not None and Counter(len(t) for t in following) == {2: 2}
    assert {frozenset(t) for t in following}.isdisjoint({frozenset((1, 2)), frozenset((3, 4))})
