"""``hegemon.leaderboard.sprt`` against published values: the LLRs of fastchess's SPRT test
table (logistic model, trinomial and pentanomial), the SPRT bounds, and Elo conversions."""

from __future__ import annotations

import math

import pytest

from hegemon.leaderboard.sprt import (
    Sprt,
    bounds,
    elo_of_score,
    estimate,
    llr_pentanomial,
    llr_trinomial,
    score_of_elo,
)


@pytest.mark.parametrize(
    ("wins", "draws", "losses", "elo0", "elo1", "expected"),
    [
        (21404, 40708, 21184, 0.5, 2.5, -1.57),
        (57433, 106593, 57030, 0.0, 2.0, -2.59),
    ],
)
def test_trinomial_llr_matches_fastchess(wins, draws, losses, elo0, elo1, expected):
    assert llr_trinomial(wins, draws, losses, elo0, elo1) == pytest.approx(expected, abs=0.01)


@pytest.mark.parametrize(
    ("ll", "ld", "wl", "dd", "wd", "ww", "elo0", "elo1", "expected"),
    [
        (223, 9863, 20279, 1000, 10037, 246, 0.5, 2.5, -3.07),
        (871, 26175, 55003, 980, 26678, 821, 0.0, 2.0, -4.98),
    ],
)
def test_pentanomial_llr_matches_fastchess(ll, ld, wl, dd, wd, ww, elo0, elo1, expected):
    got = llr_pentanomial(ll, ld, wl + dd, wd, ww, elo0, elo1)
    assert got == pytest.approx(expected, abs=0.01)


def test_bounds_are_walds():
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    with pytest.raises(ValueError):
        bounds(0.6, 0.5)


def test_elo_and_score_are_inverse():
    assert score_of_elo(0) == 0.5
    assert score_of_elo(400) == pytest.approx(10 / 11)
    for elo in (-300.0, -20.0, 0.0, 35.5, 400.0):
        assert elo_of_score(score_of_elo(elo)) == pytest.approx(elo)
    assert elo_of_score(1.0) == math.inf and elo_of_score(0.0) == -math.inf


def test_estimate_interval_holds_the_elo_and_shrinks_with_samples():
    few = estimate([1.0, 0.5, 0.75, 0.25, 1.0, 0.75] * 5)
    many = estimate([1.0, 0.5, 0.75, 0.25, 1.0, 0.75] * 50)
    assert few.score == pytest.approx(0.708, abs=1e-3)
    assert few.elo == pytest.approx(elo_of_score(few.score))
    assert few.low < few.elo < few.high
    assert many.margin < few.margin / 2


def test_sprt_accepts_h1_for_a_clearly_better_side_and_h0_for_an_equal_one():
    support = (0.0, 0.25, 0.5, 0.75, 1.0)
    strong = Sprt(support, elo0=0, elo1=20)
    while strong.verdict is None:
        strong.add([1.0, 0.75, 1.0, 0.5][len(strong.samples) % 4])
    assert strong.verdict == "H1" and len(strong.samples) < 100
    equal = Sprt(support, elo0=0, elo1=20)
    while equal.verdict is None:
        equal.add([1.0, 0.0, 0.5, 0.75, 0.25][len(equal.samples) % 5])
    assert equal.verdict == "H0"
    with pytest.raises(ValueError):
        strong.add(0.3)
