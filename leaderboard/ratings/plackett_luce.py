"""The Plackett–Luce fit on the Elo scale and its bootstrap (see the package docstring)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from . import posterior
from .games import Compiled, FinishingOrder, Floats, Tally, compile_games
from .groups import groups
from .posterior import Grid
from .solver import Problem

ELO_SCALE: float = 400.0 / math.log(10.0)
"""Elo points per unit of natural-log strength (≈ 173.7)."""

MEAN_RATING: float = 1500.0
"""The mean Plackett–Luce rating over all bots (the anchor of the scale)."""

_BLOCK = 4_000_000
"""Array elements per block of resamples (bounds the memory of a big bootstrap)."""

_CHORD_GAMES = 30
"""Resamples are solved with the full-data Hessian once every bot has this many games."""


PRIOR_GRID: tuple[float, ...] = (0.0625, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
"""The prior weights the data chooses among (virtual wins and losses each; 1 is an Elo spread
of about 315 between bots, 0.25 about 1000, 1/16 about 4000, 64 about 30; the two widest make
room for pools as spread as the benchmark's ``wide`` world, whose weight lies near 0.3)."""

_HYPER_SPREAD = 3.0
"""The hyperprior on the prior weight ``a``: log2(a) normal around 0 (the spread of 315 Elo
that served before) with this deviation (2 before the posterior's draws: it held the
``wide`` world's early intervals too narrow), so a few games cannot talk the board into bots
being all alike, while a season's worth of games can."""


def _check_prior(prior: float | None) -> None:
    if prior is not None and (not prior > 0.0 or math.isinf(prior)):
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
    priors: Floats
    """Prior weights the resamples draw from (one each, with ``weights``)."""
    weights: Floats
    grid: Grid
    """Every weight's fit, for the posterior's draws (:mod:`.posterior`)."""


def _log_evidence(
    problem: Problem, theta: Floats, wins: Floats, events: Floats, priors: Floats
) -> tuple[Floats, Floats]:
    """Laplace approximation of log p(games | prior) for each row's prior weight ``a``: the
    maximum of ``f``, the prior's normaliser ``n log B(a, a)`` (its density on θ is
    σ(θ)^a σ(−θ)^a / B(a, a)), and the curvature there; and that curvature (``−∇²f``)."""
    virtual = np.repeat(priors[:, None, None], 2, axis=1) * np.ones(problem.n)
    f, _, _ = problem.objective(theta, wins, events, virtual)
    hessians = problem.neg_hessian_at(theta, wins, events, virtual)
    _, logdet = np.linalg.slogdet(hessians)
    evidence: Floats = f + _log_normaliser(priors, problem.n) - 0.5 * logdet
    return evidence, hessians


def _log_normaliser(priors: Floats, n: int) -> Floats:
    """``−n log B(a, a)`` per prior weight ``a``: the prior's density on θ is
    σ(θ)^a σ(−θ)^a / B(a, a) for each of the ``n`` bots."""
    log_beta = np.array([2.0 * math.lgamma(a) - math.lgamma(2.0 * a) for a in priors])
    out: Floats = -n * log_beta
    return out


def _log_hyperprior(priors: Floats) -> Floats:
    """The hyperprior on the prior weight (see :data:`_HYPER_SPREAD`), up to a constant."""
    out: Floats = -0.5 * (np.log2(priors) / _HYPER_SPREAD) ** 2
    return out


def _fit(
    games: Sequence[FinishingOrder] | Tally, prior: float | None, tol: float, max_iter: int
) -> _Fit | None:
    """The MAP fit; with ``prior=None`` the prior's weight comes from the data: every weight
    of :data:`PRIOR_GRID` is fitted, weighed by its evidence (empirical Bayes over a log-uniform
    grid), and the fit uses the evidence-weighted geometric mean."""
    compiled = compile_games(games)
    if not compiled.bots:
        return None
    problem = Problem(compiled)
    n = compiled.n_bots
    wins, events = compiled.statistics(compiled.counts[None, :])
    prior_fixed = prior is not None
    priors, weights = np.array([prior if prior is not None else 1.0]), np.ones(1)
    thetas = hessians = np.zeros(0)
    if prior is None:
        priors = np.array(PRIOR_GRID)
        rows = priors.size
        start = np.zeros((rows, n))
        virtual = np.repeat(priors[:, None, None], 2, axis=1) * np.ones(n)
        many_w, many_e = np.repeat(wins, rows, axis=0), np.repeat(events, rows, axis=0)
        thetas = problem.solve(start, many_w, many_e, virtual, tol=1e-8, max_iter=max_iter)
        evidence, hessians = _log_evidence(problem, thetas, many_w, many_e, priors)
        evidence += _log_hyperprior(priors)
        weights = np.exp(evidence - evidence.max())
        weights /= weights.sum()
        prior = float(np.exp((weights * np.log(priors)).sum()))
    zero = np.zeros((1, n))
    virtual = np.full((1, 2, n), prior)
    theta = problem.solve(zero, wins, events, virtual, tol=tol, max_iter=max_iter)
    if prior_fixed:  # a fixed weight: the grid is the fit alone
        thetas, hessians = theta, problem.neg_hessian_at(theta, wins, events, virtual)
    log_prior = _log_normaliser(priors, n) + _log_hyperprior(priors)
    grid = Grid(priors, weights, thetas, hessians, log_prior)
    return _Fit(compiled, problem, theta, prior, priors, weights, grid)


def fit_plackett_luce(
    games: Sequence[FinishingOrder] | Tally,
    *,
    prior: float | None = None,
    tol: float = 1e-10,
    max_iter: int = 100_000,
) -> dict[str, float]:
    """Maximum a-posteriori Plackett–Luce ratings on the Elo scale.

    Args:
        games: finishing orders, each a list of place groups (place 1 first), or their
            counts as a :class:`~.games.Tally`.
        prior: virtual wins *and* virtual losses each bot has against a reference
            player of strength 1 (must be > 0; see the package docstring), or ``None``: a
            weight chosen by the data (empirical Bayes, see the package docstring).
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
    """For each bot in ``order``: the weight of the draws in which it rated above the next
    bot in ``order`` (equal ratings count one half); ``None`` for the last of its group."""
    group: dict[str, int]
    """Each bot's group (:mod:`.groups`): bots of different groups never met, directly or
    through others, so ``order`` ranks them within their group only."""


def order_of(ratings: dict[str, float], group: dict[str, int] | None = None) -> list[str]:
    """Bots best first, ties broken by name; with ``group``, group 1's first, then group 2's…"""
    if group is None:
        return sorted(ratings, key=lambda bot: (-ratings[bot], bot))
    return sorted(ratings, key=lambda bot: (group[bot], -ratings[bot], bot))


def _resample_weights(compiled: Compiled, rows: int, rng: np.random.Generator) -> Floats:
    """``rows`` Bayesian-bootstrap resamples of the games as pattern weights ``(rows, P)``:
    every game weighs an Exp(1) draw, so a pattern seen ``k`` times weighs Gamma(k)."""
    return rng.gamma(compiled.counts, size=(rows, compiled.counts.size))


def _virtual_games(prior: Floats, n: int, rng: np.random.Generator | None) -> Floats:
    """Each bot's virtual wins and losses ``(rows, 2, n)`` for a prior weight per row:
    that weight each, or with a generator each weighted by a Gamma(weight) draw (a Bayesian
    bootstrap of the prior's pseudo-games: the prior's centre moves, as log(X / Y) of two such
    draws is distributed like the prior itself, and so does its weight)."""
    shape = (prior.size, 2, n)
    if rng is None:
        return np.broadcast_to(prior[:, None, None], shape).copy()
    return rng.gamma(np.broadcast_to(prior[:, None, None], shape))


def bootstrap_intervals(
    games: Sequence[FinishingOrder] | Tally,
    samples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    *,
    prior: float | None = None,
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
    ``tol`` in a step: 1e-6 ≈ 2e-4 Elo). With ``prior=None`` each resample also draws its
    prior weight from the data's evidence for it (see :func:`fit_plackett_luce`), so the
    intervals carry the uncertainty about how spread the bots are.
    Resampling the games alone would give two games with the same order a zero-width
    interval; the prior draws carry the uncertainty the data cannot show
    yet, and their weight vanishes as games accumulate (see the package docstring). Intervals
    are per-bot percentiles at ``confidence``, widened where needed to hold the point
    estimate. Random numbers come from numpy's PCG64 seeded with ``seed``, and patterns are
    taken in sorted order, so the result depends only on the multiset of games and the seed.

    Returns:
        A :class:`BootstrapResult`.  With ``samples == 0`` the intervals collapse to
        the point estimates and the probabilities are ``None``.
    """
    fit = _checked_fit(games, samples, confidence, prior, min(tol, 1e-10), max_iter)
    if fit is None or samples == 0:
        return _summary(fit, None, confidence)
    draws = _replicates(fit, samples, np.random.default_rng(seed), tol, max_iter, prior_draws)
    point = _to_elo(fit.theta)[0]
    played = fit.compiled.games_by_bot.sum(fit.compiled.counts[None, :])[0]
    draws = _unbiased_spread(draws, point, played)
    return _summary(fit, draws, confidence)


def _checked_fit(
    games: Sequence[FinishingOrder] | Tally,
    samples: int,
    confidence: float,
    prior: float | None,
    tol: float,
    max_iter: int,
) -> _Fit | None:
    """The fit, once the arguments of the intervals are checked."""
    _check_prior(prior)
    if samples < 0:
        raise ValueError(f"samples must be >= 0, got {samples!r}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return _fit(games, prior, tol, max_iter)


def _summary(fit: _Fit | None, draws: Floats | None, confidence: float) -> BootstrapResult:
    """The fit with intervals and P(stronger than next) read off draws of the ratings
    ``(S, n)``; without draws, intervals collapsed to the fit and no probabilities."""
    if fit is None:
        return BootstrapResult({}, {}, [], {}, {})
    bots, point = fit.compiled.bots, _to_elo(fit.theta)[0]
    ratings = {bot: float(r) for bot, r in zip(bots, point, strict=True)}
    group = groups(fit.compiled)
    order = order_of(ratings, group)
    if draws is None:
        intervals = {bot: (r, r) for bot, r in ratings.items()}
        return BootstrapResult(ratings, intervals, order, dict.fromkeys(order), group)
    tail = (1.0 - confidence) / 2.0
    low, high = np.percentile(draws, [100.0 * tail, 100.0 * (1.0 - tail)], axis=0)
    # the draws' prior weights vary around the fit's, so for a bot the data cannot pin
    # (unbeaten, say) the quantiles can sit to one side of the fit: an interval holds its
    # estimate
    low, high = np.minimum(low, point), np.maximum(high, point)
    intervals = {bot: (float(lo), float(hi)) for bot, lo, hi in zip(bots, low, high, strict=True)}
    index = {bot: i for i, bot in enumerate(bots)}
    p_next: dict[str, float | None] = dict.fromkeys(order)
    for a, b in itertools.pairwise(order):
        if group[a] == group[b]:
            p_next[a] = posterior.p_above(draws[:, index[a]], draws[:, index[b]])
    return BootstrapResult(ratings, intervals, order, p_next, group)


def posterior_intervals(
    games: Sequence[FinishingOrder] | Tally,
    samples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    *,
    prior: float | None = None,
    tol: float = 1e-10,
    max_iter: int = 100_000,
) -> BootstrapResult:
    """Intervals and P(stronger than next) for :func:`fit_plackett_luce` from one posterior.

    ``samples`` weighted draws of the ratings' posterior (:mod:`.posterior`: the Laplace
    approximation at every prior weight of the empirical-Bayes grid, mixed by their evidence,
    corrected by importance weights); an interval is the central ``confidence`` of a bot's
    draws, P(stronger than next) the weight of the draws in which it rates above the next bot
    of ``order``. No refit: a draw costs one evaluation of the likelihood. Random numbers come
    from numpy's PCG64 seeded with ``seed``, so the result depends only on the multiset of
    games and the seed.

    Returns:
        A :class:`BootstrapResult` (the fields are the same). With ``samples == 0`` the
        intervals collapse to the point estimates and the probabilities are ``None``.
    """
    fit = _checked_fit(games, samples, confidence, prior, tol, max_iter)
    if fit is None or samples == 0:
        return _summary(fit, None, confidence)
    wins, events = fit.compiled.statistics(fit.compiled.counts[None, :])
    rng = np.random.default_rng(seed)
    drawn = posterior.draw(fit.problem, wins, events, fit.grid, samples, rng)
    return _summary(fit, _to_elo(drawn), confidence)


def _unbiased_spread(draws: Floats, point: Floats, played: Floats) -> Floats:
    """The resamples spread around the fit by ``sqrt(n / (n - 1))`` for a bot of ``n`` games.

    A bootstrap's spread is that of its sample (a variance over ``n``), where the truth's is
    estimated over ``n - 1``: with a bot's first games the difference is large (half the
    variance after 2 games) and its intervals missed well-spread bots (95% intervals covered
    0.86 of true ratings after 2 games; see benchmarks/rating_calibration.py). It fades as
    games accumulate (×1.03 after 20)."""
    widen = np.sqrt(played / np.maximum(played - 1.0, 1.0))
    spread: Floats = point + (draws - point) * widen
    return spread


def _replicates(
    fit: _Fit,
    samples: int,
    rng: np.random.Generator,
    tol: float,
    max_iter: int,
    prior_draws: bool,
) -> Floats:
    """The ratings of every resample, ``(samples, n)``, computed in blocks of resamples."""
    compiled, problem, theta, prior, priors, weights, _ = fit
    n = compiled.n_bots
    wins, events = compiled.statistics(compiled.counts[None, :])
    exact = _exact(problem, events, samples)
    chord = None
    if not exact:
        at = _virtual_games(np.array([prior]), n, None)
        chord = problem.neg_hessian_at(theta, wins, events, at)[0]
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
        row_priors = (
            priors[rng.choice(priors.size, size=rows, p=weights)]
            if priors.size > 1
            else np.repeat(priors, rows)
        )
        virtual = _virtual_games(row_priors, n, rng if prior_draws else None)
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
