"""Early intervals are honest: a quick seeded simulation of short seasons (the full one, with
the calibration table, is benchmarks/rating_calibration.py)."""

from __future__ import annotations

import itertools
import math
import random

from hegemon.leaderboard.ratings import ELO_SCALE, bootstrap_intervals, posterior, rate

SEASONS = 200
"""Seasons of the suite's posterior coverage test (1,600 bots: the share's standard error is
about 0.011, the bots of a season being rated together)."""


def season_games(rng: random.Random, strengths: list[float], rounds: int) -> list[list[list[str]]]:
    """``rounds`` rounds in which the bots play once each at tables of 4 (Plackett–Luce)."""
    out = []
    for _ in range(rounds):
        order = list(range(len(strengths)))
        rng.shuffle(order)
        for table in (order[:4], order[4:]):
            # -log(Exp) is Gumbel: sorting by strength - log(E) samples a Plackett–Luce order
            key = {b: strengths[b] - math.log(rng.expovariate(1.0)) for b in table}
            out.append([[f"b{b}"] for b in sorted(table, key=lambda b: -key[b])])
    return out


def test_two_games_with_the_same_order_leave_the_question_open() -> None:
    result = bootstrap_intervals([[["a"], ["b"]]] * 2, samples=400, seed=1)
    low, high = result.intervals["a"]
    assert high - low > 200.0  # two games say little: hundreds of Elo either way
    p = result.p_stronger_than_next["a"]
    assert p is not None and 0.6 < p < 0.98


def test_95_percent_intervals_cover_at_least_90_percent_from_the_second_game() -> None:
    covered = total = 0
    said: list[float] = []
    happened: list[bool] = []
    for season in range(30):
        rng = random.Random(500 + season)
        # true log-strengths from the fit's own prior (logistic), 8 bots
        strengths = [math.log(u / (1.0 - u)) for u in (rng.random() for _ in range(8))]
        mean = sum(strengths) / 8
        truth = {f"b{i}": 1500.0 + ELO_SCALE * (s - mean) for i, s in enumerate(strengths)}
        games = season_games(rng, strengths, 3)
        for played in (2, 3):
            rows = rate(games[: 2 * played], bootstrap_samples=100, seed=season)
            for row in rows:
                assert row.low is not None and row.high is not None and row.provisional
                covered += row.low <= truth[row.bot] <= row.high
                total += 1
            for upper, lower in itertools.pairwise(rows):
                if upper.group != lower.group:  # two tables twice over: never met
                    assert upper.p_stronger_than_next is None
                    continue
                assert upper.p_stronger_than_next is not None
                said.append(upper.p_stronger_than_next)
                happened.append(truth[upper.bot] > truth[lower.bot])
    assert total == 480 and len(said) >= 400
    assert covered / total >= 0.9, covered / total
    # calibrated on the whole: as often right as it says, give or take the simulation's noise
    assert abs(sum(said) / len(said) - sum(happened) / len(happened)) < 0.06


def test_intervals_cover_well_spread_bots_too() -> None:
    """A prior of fixed scale (an Elo spread of 315) shrank well-spread bots towards each other:
    their 95% intervals covered 0.63–0.73 of true ratings; the data now sets the scale."""
    covered = total = 0
    for season in range(12):
        rng = random.Random(900 + season)
        # logistic with scale 2.5: an Elo spread of about 790
        strengths = [2.5 * math.log(u / (1.0 - u)) for u in (rng.random() for _ in range(8))]
        mean = sum(strengths) / 8
        truth = {f"b{i}": 1500.0 + ELO_SCALE * (s - mean) for i, s in enumerate(strengths)}
        result = bootstrap_intervals(season_games(rng, strengths, 5), samples=100, seed=season)
        for bot, (low, high) in result.intervals.items():
            covered += low <= truth[bot] <= high
            total += 1
    assert covered / total >= 0.88, covered / total


def test_intervals_cover_well_spread_bots_after_two_games() -> None:
    """A bootstrap's spread is its sample's: after a bot's first two games that is half the
    variance, and 95% intervals of well-spread bots covered 0.86 of true ratings (measured in
    benchmarks/rating_calibration.py); widened by sqrt(n / (n - 1)), 0.95."""
    covered = total = 0
    for season in range(25):
        rng = random.Random(1300 + season)
        strengths = [2.5 * math.log(u / (1.0 - u)) for u in (rng.random() for _ in range(8))]
        mean = sum(strengths) / 8
        truth = {f"b{i}": 1500.0 + ELO_SCALE * (s - mean) for i, s in enumerate(strengths)}
        result = bootstrap_intervals(season_games(rng, strengths, 2), samples=200, seed=season)
        for bot, (low, high) in result.intervals.items():
            covered += low <= truth[bot] <= high
            total += 1
    assert covered / total >= 0.92, covered / total


def test_p_stronger_than_next_for_well_spread_bots_after_two_games_is_not_timid() -> None:
    """After each bot's 2nd game, pairs of well-spread bots (an Elo spread of about 790) stated
    at least 0.6 were really in order 10–12 points more often than the bootstrap said (here 0.70
    stated, 0.82 right; benchmarks/rating_calibration.py, world 'wide': 0.71 and 0.81). The
    posterior's draws say 0.75 for 0.82 here (0.76 for 0.79 in the benchmark): still timid, by
    half as much."""
    said: list[float] = []
    happened: list[bool] = []
    for season in range(200):
        rng = random.Random(4100 + season)
        strengths = [2.5 * math.log(u / (1.0 - u)) for u in (rng.random() for _ in range(8))]
        truth = {f"b{i}": s for i, s in enumerate(strengths)}
        rows = rate(season_games(rng, strengths, 2), bootstrap_samples=300, seed=season)
        for upper, lower in itertools.pairwise(rows):
            p = upper.p_stronger_than_next
            if p is not None and p >= 0.6:  # None: groups that never met
                said.append(p)
                happened.append(truth[upper.bot] > truth[lower.bot])
    stated, observed = sum(said) / len(said), sum(happened) / len(happened)
    assert len(said) >= 600
    # the observed share's standard error over ~900 pairs: about 0.013
    assert abs(stated - observed) < 0.09, (stated, observed, len(said))


def test_the_boards_intervals_cover_well_spread_bots_after_two_games() -> None:
    """The boards' own intervals (the posterior's draws) after each bot's first two games, in
    a pool spread wider than the prior's centre (an Elo spread of about 790): with 20 Metropolis
    moves after the resampling the draws stayed too close to the Laplace normals and 95%
    intervals covered 0.915 ± 0.005 (benchmarks/rating_calibration.py, 1000 seasons; 0.931 on
    these 200); a board of a few games a bot now gets 80 (:func:`posterior.moves`): 0.953 here,
    the target being 0.93."""
    covered = total = 0
    for season in range(SEASONS):
        rng = random.Random(7100 + season)
        strengths = [2.5 * math.log(u / (1.0 - u)) for u in (rng.random() for _ in range(8))]
        mean = sum(strengths) / 8
        truth = {f"b{i}": 1500.0 + ELO_SCALE * (s - mean) for i, s in enumerate(strengths)}
        for row in rate(season_games(rng, strengths, 2), bootstrap_samples=400, seed=season):
            assert row.low is not None and row.high is not None
            covered += row.low <= truth[row.bot] <= row.high
            total += 1
    assert covered / total >= 0.94, covered / total


def test_a_small_board_gets_more_moves_and_a_big_one_no_more_than_before() -> None:
    assert posterior.moves(19) == 80  # 8 bots, 2 games each
    assert posterior.moves(8_000) == 20  # a big board's draws cost what they did
    assert [posterior.moves(w) for w in (50, 100, 200, 400)] == [80, 80, 40, 20]
