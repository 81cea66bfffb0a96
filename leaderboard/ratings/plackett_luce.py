"""The Plackett–Luce fit on the Elo scale and its bootstrap (see the package docstring)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from .games import Compiled, FinishingOrder, Floats, Tally, compile_games
from .solver import Problem

ELO_SCALE: float = 400.0 / math.log(10.0)
"""Elo points per unit of natural-log strength (≈ 173.7)."""

MEAN_RATING: float = 1500.0
"""The mean Plackett–Luce rating over all bots (the anchor of the scale)."""

_BLOCK = 4_000_000
"""Array elements per block of resamples (bounds the memory of a big bootstrap)."""

_CHORD_GAMES = 30
"""Resamples are solved with the full-data Hessian once every bot has this many games."""


def _check_prior(prior: float) -> None:
    if not prior > 0.0 or math.isinf(prior):
        raise ValueError(f"prior must be a positive number of virtual games, got {prior!r}")


def _to_elo(theta: Floats) -> Floats:
    """Rows of log-strengths as ratings centred on :data:`MEAN_RATING`."""
    ratings: Floats = MEAN_RATING + ELO_SCALE * (theta - theta.mean(axis=-1, keepdims=True))
    return ratings


class _Fit(NamedTuple):
    compiled: Compiled
    problem: Problem
    theta: Floats  # (1, n)
    prior: float


def _fit(
    games: Sequence[FinishingOrder] | Tally, prior: float, tol: float, max_iter: int
) -> _Fit | None:
    compiled = compile_games(games)
    if not compiled.bots:
        return None
    problem = Problem(compiled)
    wins, events = compiled.statistics(compiled.counts[None, :])
    zero = np.zeros((1, compiled.n_bots))
    virtual = np.full((1, 2, compiled.n_bots), prior)
    theta = problem.solve(zero, wins, events, virtual, tol=tol, max_iter=max_iter)
    return _Fit(compiled, problem, theta, prior)


def fit_plackett_luce(
    games: Sequence[FinishingOrder] | Tally,
    *,
    prior: float = 1.0,
    tol: float = 1e-10,
    max_iter: int = 100_000,
) -> dict[str, float]:
    """Maximum a-posteriori Plackett–Luce ratings on the Elo scale.

    Args:
        games: finishing orders, each a list of place groups (place 1 first), or their
            counts as a :class:`~.games.Tally`.
        prior: virtual wins *and* virtual losses each bot has against a reference
            player of strength 1 (must be > 0; see the package docstring).
        tol: convergence tolerance on the largest change of a log-strength per
            Newton step (1e-10 ≈ 2e-8 Elo).
        max_iter: cap on Newton steps (each raises the objective, so the result after
            the cap is still the best estimate reached).

    Returns:
        ``{bot: rating}`` for every bot in ``games``, ratings centred on a mean of 1500.
        The result depends only on the multiset of games, not on their order (games
        are aggregated and bots taken in sorted order).
    """
    _check_prior(prior)
    fit = _fit(games, prior, tol, max_iter)
    if fit is None:
        return {}
    ratings = _to_elo(fit.theta)[0]
    return {bot: float(r) for bot, r in zip(fit.compiled.bots, ratings, strict=True)}


class BootstrapResult(NamedTuple):
    """Result of :func:`bootstrap_intervals`."""

    ratings: dict[str, float]
    """The full-data fit (point estimates)."""
    intervals: dict[str, tuple[float, float]]
    """Percentile interval ``(low, high)`` per bot."""
    order: list[str]
    """Bots sorted by rating, best first (ties broken by name)."""
    p_stronger_than_next: dict[str, float | None]
    """For each bot in ``order``: fraction of bootstrap samples in which it rated above
    the next bot in ``order`` (equal ratings count one half); ``None`` for the last."""


def order_of(ratings: dict[str, float]) -> list[str]:
    """Bots best first, ties broken by name."""
    return sorted(ratings, key=lambda bot: (-ratings[bot], bot))


def _resample_weights(compiled: Compiled, rows: int, rng: np.random.Generator) -> Floats:
    """``rows`` Bayesian-bootstrap resamples of the games as pattern weights ``(rows, P)``:
    every game weighs an Exp(1) draw, so a pattern seen ``k`` times weighs Gamma(k)."""
    return rng.gamma(compiled.counts, size=(rows, compiled.counts.size))


def _virtual_games(prior: float, rows: int, n: int, rng: np.random.Generator | None) -> Floats:
    """Each bot's virtual wins and losses ``(rows, 2, n)``: ``prior`` each, or with a
    generator each weighted by a Gamma(prior) draw (a Bayesian bootstrap of the prior's
    pseudo-games: the prior's centre moves, as log(X / Y) of two such draws is distributed
    like the prior itself, and so does its weight)."""
    if rng is None:
        return np.full((rows, 2, n), prior)
    return rng.gamma(prior, size=(rows, 2, n))


def bootstrap_intervals(
    games: Sequence[FinishingOrder] | Tally,
    samples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    *,
    prior: float = 1.0,
    tol: float = 1e-6,
    max_iter: int = 100_000,
    prior_draws: bool = True,
) -> BootstrapResult:
    """Bootstrap percentile intervals for :func:`fit_plackett_luce`.

    A Bayesian bootstrap (Rubin 1981): each of ``samples`` resamples weighs every game by an
    Exp(1) draw (the games' weights are Dirichlet, scaled to the number of games: the smooth
    counterpart of drawing games with replacement; drawn per distinct finishing pattern) and
    — with ``prior_draws`` — each bot's virtual win and virtual loss by its own
    Gamma(prior) draw, then refits (from the full-data fit, until no log-strength moves by
    ``tol`` in a step: 1e-6 ≈ 2e-4 Elo).
    Resampling the games alone would give two games with the same order a zero-width
    interval; the prior draws carry the uncertainty the data cannot show
    yet, and their weight vanishes as games accumulate (see the package docstring). Intervals
    are per-bot percentiles at ``confidence``. Random numbers come from numpy's PCG64 seeded
    with ``seed``, and patterns are taken in sorted order, so the result depends only on the
    multiset of games and the seed.

    Returns:
        A :class:`BootstrapResult`.  With ``samples == 0`` the intervals collapse to
        the point estimates and the probabilities are ``None``.
    """
    _check_prior(prior)
    if samples < 0:
        raise ValueError(f"samples must be >= 0, got {samples!r}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    fit = _fit(games, prior, min(tol, 1e-10), max_iter)
    if fit is None:
        return BootstrapResult({}, {}, [], {})
    compiled, _, theta, _ = fit
    bots = compiled.bots
    point = _to_elo(theta)[0]
    ratings = {bot: float(r) for bot, r in zip(bots, point, strict=True)}
    order = order_of(ratings)
    if samples == 0:
        return BootstrapResult(
            ratings, {bot: (r, r) for bot, r in ratings.items()}, order, dict.fromkeys(order)
        )

    draws = _replicates(fit, samples, np.random.default_rng(seed), tol, max_iter, prior_draws)
    tail = (1.0 - confidence) / 2.0
    low, high = np.percentile(draws, [100.0 * tail, 100.0 * (1.0 - tail)], axis=0)
    intervals = {bot: (float(lo), float(hi)) for bot, lo, hi in zip(bots, low, high, strict=True)}
    index = {bot: i for i, bot in enumerate(bots)}
    p_next: dict[str, float | None] = dict.fromkeys(order)
    for a, b in itertools.pairwise(order):
        x, y = draws[:, index[a]], draws[:, index[b]]
        p_next[a] = float(((x > y).sum() + 0.5 * (x == y).sum()) / samples)
    return BootstrapResult(ratings, intervals, order, p_next)


def _replicates(
    fit: _Fit,
    samples: int,
    rng: np.random.Generator,
    tol: float,
    max_iter: int,
    prior_draws: bool,
) -> Floats:
    """The ratings of every resample, ``(samples, n)``, computed in blocks of resamples."""
    compiled, problem, theta, prior = fit
    n = compiled.n_bots
    wins, events = compiled.statistics(compiled.counts[None, :])
    exact = _exact(problem, events, samples)
    chord = None
    if not exact:
        chord = problem.neg_hessian_at(theta, wins, events, _virtual_games(prior, 1, n, None))[0]
    width = max(
        compiled.counts.size,
        compiled.events_by_set.source.size,
        compiled.set_members.size,
        problem.hessian_cost if exact else n * n,
    )
    block = max(1, _BLOCK // width)
    out = np.empty((samples, n))
    for start in range(0, samples, block):
        rows = min(block, samples - start)
        counts = _resample_weights(compiled, rows, rng)
        virtual = _virtual_games(prior, rows, n, rng if prior_draws else None)
        wins, events = compiled.statistics(counts)
        solved = problem.solve(
            np.repeat(theta, rows, axis=0),
            wins,
            events,
            virtual,
            tol=tol,
            max_iter=max_iter,
            chord=chord,
        )
        out[start : start + rows] = _to_elo(solved)
    return out


def _exact(problem: Problem, events: Floats, samples: int) -> bool:
    """Whether resamples get their own Hessians: when they are cheap, or when some bot has
    so little data (choices it took part in) that a resample's maximum may lie far from the
    fit's."""
    if problem.hessian_cost * samples <= 20_000_000:
        return True
    return bool(problem.member_sums.sum(events).min() < _CHORD_GAMES)
