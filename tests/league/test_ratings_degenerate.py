"""The fit never fails: degenerate result sets (identical orders, a bot that never wins or never
loses, two bots, one game, ties everywhere) give finite ratings, intervals around them, and
resamples that settle in a few Newton steps."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hegemon.leaderboard.ratings import (
    bootstrap_intervals,
    fit_plackett_luce,
    posterior_intervals,
)
from hegemon.leaderboard.ratings.plackett_luce import _fit, _replicates

Games = list[list[list[str]]]

DEGENERATE: dict[str, Games] = {
    "three bots in the same order 15 times": [[["a"], ["b"], ["c"]]] * 15,
    "two bots, 100 identical games": [[["a"], ["b"]]] * 100,
    "one game": [[["a"], ["b"], ["c"], ["d"]]],
    "ties everywhere": [[["a", "b"], ["c", "d"]]] * 20,
    "everyone tied": [[["a", "b", "c"]]] * 5,
    "a bot that always comes last": [
        [["a"], ["b"], ["c"], ["z"]],
        [["b"], ["c"], ["a"], ["z"]],
        [["c"], ["a"], ["b"], ["z"]],
    ]
    * 12,
}


def assert_sane(games: Games, samples: int, seed: int) -> None:
    """Both the board's posterior draws and the bootstrap give finite intervals around finite
    ratings, and probabilities."""
    for method in (posterior_intervals, bootstrap_intervals):
        result = method(games, samples, seed=seed)
        for bot, rating in result.ratings.items():
            low, high = result.intervals[bot]
            assert all(math.isfinite(x) for x in (rating, low, high)), (bot, rating, low, high)
            assert low - 1e-6 <= rating <= high + 1e-6, (bot, rating, low, high)
        for p in result.p_stronger_than_next.values():
            assert p is None or 0.0 <= p <= 1.0


@pytest.mark.parametrize("games", DEGENERATE.values(), ids=DEGENERATE.keys())
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_degenerate_boards_rate_with_finite_intervals(games: Games, seed: int) -> None:
    assert_sane(games, 200, seed)


@pytest.mark.parametrize("games", DEGENERATE.values(), ids=DEGENERATE.keys())
def test_no_resample_takes_many_times_the_median_newton_steps(games: Games) -> None:
    """One resample of three bots in one order used to run all 100,000 steps (minutes) and end
    at log-strengths near 1e20."""
    fit = _fit(games, 1.0, 1e-10, 100_000)
    assert fit is not None
    for seed in range(3):
        draws = _replicates(fit, 200, np.random.default_rng(seed), 1e-6, 100_000, True)
        steps = fit.problem.steps
        assert np.isfinite(draws).all()
        assert np.abs(draws - 1500.0).max() < 20_000  # ±115 log units: not a runaway
        assert steps.max() <= 4 * np.median(steps) + 10, (seed, steps.max(), np.median(steps))


def test_a_bot_that_never_loses_stays_finite_under_a_tiny_prior() -> None:
    ratings = fit_plackett_luce([[["a"], ["b"]]] * 50, prior=1e-6)
    assert all(math.isfinite(r) for r in ratings.values())
    assert ratings["a"] > ratings["b"]


BOTS = ["a", "b", "c", "d", "e"]


@st.composite
def finishing_order(draw: st.DrawFn) -> list[list[str]]:
    """2–5 of the bots, in an order with ties (place numbers, equal ones share a place)."""
    seated = draw(st.lists(st.sampled_from(BOTS), min_size=2, max_size=5, unique=True))
    places = draw(st.lists(st.integers(0, 3), min_size=len(seated), max_size=len(seated)))
    return [[b for b, p in zip(seated, places, strict=True) if p == q] for q in sorted(set(places))]


@st.composite
def result_sets(draw: st.DrawFn) -> Games:
    """Arbitrary result sets, degenerate ones weighted in: a few distinct orders repeated
    (identical orders, never-winning and never-losing bots come from few patterns)."""
    patterns = draw(st.lists(finishing_order(), min_size=1, max_size=4))
    repeats = draw(st.lists(st.integers(1, 40), min_size=len(patterns), max_size=len(patterns)))
    return [list(map(list, p)) for p, k in zip(patterns, repeats, strict=True) for _ in range(k)]


@settings(max_examples=60, deadline=None)
@given(result_sets(), st.integers(0, 2**32 - 1))
def test_any_result_set_rates_finite_with_intervals_around_the_ratings(
    games: Games, seed: int
) -> None:
    assert_sane(games, 50, seed)
