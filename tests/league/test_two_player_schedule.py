"""Two-player season schedules (hegemon.leaderboard.seasons.schedule): every pairing in both
colours, and duplicate deals played from both seats."""

from __future__ import annotations

from collections import Counter

from hegemon.leaderboard.seasons.schedule import make_schedule


def test_every_pairing_is_played_in_both_colours_with_its_own_seeds():
    schedule = make_schedule([11, 12, 13, 14], 2, 12, seed=5)
    assert len(schedule) == 12 and [m.number for m in schedule] == list(range(1, 13))
    for first, second in zip(schedule[::2], schedule[1::2], strict=True):
        assert second.seats == first.seats[::-1]
        assert second.seed != first.seed
    assert len({m.seed for m in schedule}) == 12
    pairings = Counter(frozenset(m.seats) for m in schedule)
    assert len(pairings) == 6 and set(pairings.values()) == {2}  # every pair, twice
    seats = Counter((m.seats[0], "first") for m in schedule)
    assert set(seats.values()) == {3}  # each bot moves first in half its games


def test_an_odd_number_of_games_leaves_the_last_pairing_one_game():
    schedule = make_schedule([1, 2, 3], 2, 5, seed=1)
    assert len(schedule) == 5
    assert schedule[1].seats == schedule[0].seats[::-1]
    assert schedule[3].seats == schedule[2].seats[::-1]


def test_a_duplicate_two_player_season_plays_each_deal_from_both_seats():
    schedule = make_schedule([1, 2, 3, 4], 2, 8, seed=2, duplicate=True)
    for first, second in zip(schedule[::2], schedule[1::2], strict=True):
        assert second.seats == first.seats[::-1] and second.seed == first.seed
        assert second.table == first.table


def test_same_inputs_same_schedule():
    assert make_schedule([1, 2, 3, 4], 2, 10, seed=9) == make_schedule([1, 2, 3, 4], 2, 10, seed=9)
