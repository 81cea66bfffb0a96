"""Draws from the ratings' posterior, the prior's weight included: the Laplace approximation at
every weight of the empirical-Bayes grid, mixed by their evidence, then corrected towards the
exact posterior by importance weights and Metropolis moves.

The state is a grid row ``k`` (the prior's weight ``a_k``) and log-strengths ``θ``; its exact
log-posterior, up to a constant, is ``f_k(θ) + log_prior_k`` (``f_k`` the fit's objective
with weight ``a_k``, ``log_prior_k`` the prior's normaliser and the hyperprior).

1. **Laplace mixture.** Row ``k`` with its evidence weight ``w_k``, and ``θ`` from the normal
   around the row's MAP fit ``θ_k`` with covariance ``H_k⁻¹`` (``H_k`` the negative Hessian of
   ``f_k`` there) — for every other draw the same normal widened by :data:`_WIDEN`, a
   defensive mixture, so that the posterior's long tails (a bot that won every game may be
   far stronger, hardly weaker) get draws too.
2. **Importance resampling.** Each draw weighs its exact posterior over its proposal density;
   the draws are resampled by those weights.
3. **Moves.** Metropolis steps on every draw at once (:func:`moves`: more while the data are
   few, so cheap, and the posterior furthest from the normal): ``θ`` by a random walk
   shaped by ``H_k⁻¹``, and ``k`` to a neighbouring weight. Each leaves the exact posterior
   as it is, and together they undo what the resampling could not (duplicates, tails the
   proposal missed).

Intervals and P(stronger than next) are both read off these draws, so they cannot disagree.
A draw costs a few evaluations of the likelihood and no refit.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .games import Floats, Ints
from .solver import Problem

_WIDEN = 2.0
"""The widening of the proposal's second half (see the module docstring)."""

_MOVES = 20
"""The fewest Metropolis steps after the resampling (a big board's)."""

_MOVES_MOST = 80
"""The most (a board of a few games a bot)."""

_MOVE_WORK = 8_000
"""Steps × the likelihood's width (its choice-set columns plus the bots) a board may spend on
moves beyond :data:`_MOVES`: a board of a few games a bot (width under 100) gets
:data:`_MOVES_MOST`, one of 400 columns or more :data:`_MOVES`, so the extra steps cost at most
as much as 20 steps of a 400-column board, and a big board's draws cost what they did."""


def moves(width: int) -> int:
    """Metropolis steps for a likelihood of ``width`` columns (see :data:`_MOVE_WORK`).

    Twenty steps left the early posterior too narrow where it is least normal: 95% intervals
    of well-spread bots covered 0.915 ± 0.005 after 2 games (``benchmarks/rating_calibration.py``,
    1000 seasons), and 0.939–0.946 in the prior's own world."""
    return max(_MOVES, min(_MOVES_MOST, _MOVE_WORK // max(1, width)))


class Grid(NamedTuple):
    """The empirical-Bayes grid's fits: one row per prior weight."""

    priors: Floats
    """Prior weights ``(K,)``."""
    weights: Floats
    """Their posterior weights (Laplace evidence × hyperprior), summing to 1, ``(K,)``."""
    thetas: Floats
    """The MAP log-strengths at each weight ``(K, n)``."""
    hessians: Floats
    """``−∇²f`` there ``(K, n, n)``."""
    log_prior: Floats
    """The prior's log-normaliser plus the log-hyperprior at each weight ``(K,)``."""


class _Target:
    """The exact log-posterior of states ``(k, θ)`` for one data set."""

    def __init__(self, problem: Problem, wins: Floats, events: Floats, grid: Grid):
        self.problem, self.wins, self.events, self.grid = problem, wins, events, grid
        self.block = max(1, 2_000_000 // max(1, events.shape[1] + problem.n))

    def __call__(self, rows: Ints, theta: Floats) -> Floats:
        n, out = self.problem.n, np.empty(rows.size)
        for start in range(0, rows.size, self.block):
            part = slice(start, min(rows.size, start + self.block))
            size = theta[part].shape[0]
            virtual = np.repeat(self.grid.priors[rows[part], None, None], 2, axis=1) * np.ones(n)
            wins, events = np.repeat(self.wins, size, axis=0), np.repeat(self.events, size, axis=0)
            f, _, _ = self.problem.objective(theta[part], wins, events, virtual)
            out[part] = f + self.grid.log_prior[rows[part]]
        return out


def _scales(hessians: Floats) -> Floats:
    """``L⁻¹`` per row, with ``H = L Lᵀ`` (``θ + z L⁻¹`` for a standard normal row ``z`` is a
    draw of the normal with covariance ``H⁻¹``); a matrix that rounds to indefinite gets a
    hair of its diagonal added."""
    out = np.empty_like(hessians)
    for k, h in enumerate(hessians):
        jitter = 0.0
        while True:
            try:
                lower = np.linalg.cholesky(h + jitter * np.diag(np.diag(h)))
                break
            except np.linalg.LinAlgError:
                jitter = max(1e-12, 10.0 * jitter)
        out[k] = np.linalg.inv(lower)
    return out


def _shaped(z: Floats, scales: Floats, rows: Ints) -> Floats:
    """Row ``s`` of ``z`` times ``scales[rows[s]]``."""
    out: Floats = np.einsum("si,sij->sj", z, scales[rows])
    return out


def draw(
    problem: Problem,
    wins: Floats,
    events: Floats,
    grid: Grid,
    samples: int,
    rng: np.random.Generator,
) -> Floats:
    """``samples`` draws of the log-strengths ``(samples, n)`` from the posterior (see the
    module docstring); ``wins`` and ``events`` are the data's, one row."""
    n = problem.n
    target = _Target(problem, wins, events, grid)
    scales = _scales(grid.hessians)
    rows = np.repeat(np.arange(grid.priors.size), rng.multinomial(samples, grid.weights))
    z = rng.standard_normal((samples, n))
    z[1::2] *= _WIDEN
    theta = grid.thetas[rows] + _shaped(z, scales, rows)
    # log weight = exact posterior − proposal; the proposal's density at row k is w_k times
    # the (defensive) normal, and log w_k holds the row's f_k(θ_k) + log_prior_k − ½ log|H_k|
    # (the evidence), which leaves f_k(θ) − f_k(θ_k) and the normal's exponent
    square = (z * z).sum(axis=1)
    log_q = np.logaddexp(-0.5 * square, -n * math.log(_WIDEN) - 0.5 * square / _WIDEN**2)
    at_map = target(np.arange(grid.priors.size), grid.thetas)
    log_w = target(rows, theta) - at_map[rows] - log_q
    keep = _systematic(np.exp(log_w - log_w.max()), rng)
    rows, theta = rows[keep], theta[keep]
    return _moves(target, scales, rows, theta, rng)


def _systematic(weights: Floats, rng: np.random.Generator) -> Ints:
    """Indices resampled in proportion to ``weights`` (systematic resampling)."""
    edges = np.cumsum(weights / weights.sum())
    points = (rng.random() + np.arange(weights.size)) / weights.size
    picked: Ints = np.minimum(np.searchsorted(edges, points), weights.size - 1)
    return picked


def _moves(
    target: _Target, scales: Floats, rows: Ints, theta: Floats, rng: np.random.Generator
) -> Floats:
    """:func:`moves` Metropolis steps of every draw: a random walk of ``θ`` (the step of
    Roberts, Gelman and Gilks, 2.38 / √n of the Laplace shape), then of the grid row."""
    samples, n = theta.shape
    last = target.grid.priors.size - 1
    step = 2.38 / math.sqrt(max(1, n))
    here = target(rows, theta)
    for _ in range(moves(target.events.shape[1] + n)):
        moved = theta + step * _shaped(rng.standard_normal((samples, n)), scales, rows)
        there = target(rows, moved)
        take = np.log(rng.random(samples)) < there - here
        theta[take], here[take] = moved[take], there[take]
        if last:
            other = np.clip(rows + rng.choice((-1, 1), size=samples), 0, last)
            there = target(other, theta)
            take = (other != rows) & (np.log(rng.random(samples)) < there - here)
            rows[take], here[take] = other[take], there[take]
    return theta


def p_above(x: Floats, y: Floats) -> float:
    """The share of draws in which ``x > y`` (ties count one half)."""
    return float(((x > y).sum() + 0.5 * (x == y).sum()) / x.size)
