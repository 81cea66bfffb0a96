"""How ``season run --workers`` divides its games among referee processes."""

from __future__ import annotations

import os

import pytest

from hegemon.leaderboard.seasons.pool import default_workers, shares


@pytest.mark.parametrize(
    ("concurrency", "workers", "expected"),
    [(1, 1, [1]), (2, 2, [1, 1]), (5, 2, [3, 2]), (4, 3, [2, 1, 1]), (2, 5, [1, 1])],
)
def test_concurrency_is_shared_evenly(concurrency, workers, expected):
    assert shares(concurrency, workers) == expected
    assert sum(shares(concurrency, workers)) == concurrency


def test_default_is_one_process_per_two_games_up_to_the_cores():
    cores = os.cpu_count() or 1
    assert default_workers(1) == default_workers(2) == 1
    assert default_workers(4) == min(2, cores)
    assert default_workers(2 * cores + 5) == cores
