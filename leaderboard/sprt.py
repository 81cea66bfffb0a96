"""The statistics of ``hegemon bench``: Elo from a score, its confidence interval, and the
generalized sequential probability ratio test (GSPRT) that chess engine testers use (fishtest,
cutechess-cli, fastchess) to stop a match as soon as its result is clear.

Pure functions, no I/O. The test is Michel Van den Bergh's GSPRT on the *logistic* Elo scale:
the outcomes are a finite set of scores ``a_i`` in [0, 1] with observed frequencies ``p̂_i``
(win/draw/loss — trinomial — or the five results of a pair of games sharing an opening —
pentanomial — or, for ``bench``, the score of a pair of multiplayer games on one deal with the
seats swapped). For each hypothesis ``elo`` the maximum-likelihood distribution with expected
score ``s = 1 / (1 + 10^(-elo/400))`` is ``p_i = p̂_i / (1 + θ (a_i - s))``, where ``θ`` solves
``Σ p̂_i (a_i - s) / (1 + θ (a_i - s)) = 0``; the log-likelihood ratio is
``N Σ p̂_i log(p1_i / p0_i)``. The test stops with H1 (``elo1`` is more likely) once the LLR
reaches ``log((1 - β) / α)`` and with H0 at ``log(β / (1 - α))``. Zero counts are taken as 0.001,
as fishtest does, so a lopsided start does not divide by zero.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

__all__ = [
    "Estimate",
    "Sprt",
    "bounds",
    "elo_of_score",
    "estimate",
    "llr",
    "llr_pentanomial",
    "llr_trinomial",
    "score_of_elo",
]

ZERO_COUNT = 1e-3
"""What a score never observed counts as (fishtest's regularisation)."""


def score_of_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (logistic Elo)."""
    return 1.0 / (1.0 + float(10.0 ** (-elo / 400.0)))


def elo_of_score(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (±inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR at which the test accepts H0 (lower) and H1 (upper)."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError("alpha and beta must lie in (0, 1) with alpha + beta < 1")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _root(f: Callable[[float], float], low: float, high: float) -> float:
    """A root of the increasing-or-decreasing ``f`` on the open interval (low, high)."""
    f_low = f(low)
    for _ in range(200):
        middle = (low + high) / 2
        f_middle = f(middle)
        if f_middle == 0 or high - low < 1e-12:
            return middle
        if (f_middle < 0) == (f_low < 0):
            low, f_low = middle, f_middle
        else:
            high = middle
    return (low + high) / 2


def _mle(scores: Sequence[float], freqs: Sequence[float], s: float) -> list[float]:
    """The distribution on ``scores`` nearest ``freqs`` (maximum likelihood) with mean ``s``."""
    d = [a - s for a in scores]
    # θ lies where every 1 + θ d_i stays positive: (-1 / max d, -1 / min d).
    low, high = -1.0 / max(d), -1.0 / min(d)
    shrink = 1e-9 * (high - low)

    def slope(theta: float) -> float:
        return sum(p * di / (1 + theta * di) for p, di in zip(freqs, d, strict=True))

    theta = _root(slope, low + shrink, high - shrink)
    return [p / (1 + theta * di) for p, di in zip(freqs, d, strict=True)]


def llr(counts: Mapping[float, float], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of ``elo1`` against ``elo0`` given how often each score was
    seen (``{score: count}``; list every score the design allows, observed or not)."""
    scores = sorted(counts)
    if len(scores) < 2 or scores[0] < 0 or scores[-1] > 1:
        raise ValueError("give counts for at least two scores in [0, 1]")
    regular = [counts[a] or ZERO_COUNT for a in scores]
    total = sum(regular)
    freqs = [c / total for c in regular]
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    if not (scores[0] < s0 < scores[-1] and scores[0] < s1 < scores[-1]):
        raise ValueError("elo0 and elo1 must give scores strictly between the extremes")
    p0, p1 = _mle(scores, freqs, s0), _mle(scores, freqs, s1)
    return total * sum(f * math.log(b / a) for f, a, b in zip(freqs, p0, p1, strict=True))


def llr_trinomial(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """The LLR of single games scored win 1, draw ½, loss 0."""
    return llr({0.0: losses, 0.5: draws, 1.0: wins}, elo0, elo1)


def llr_pentanomial(
    ll: int, ld: int, wl_dd: int, wd: int, ww: int, elo0: float, elo1: float
) -> float:
    """The LLR of game pairs, each scored by its total: LL 0, LD ¼, WL or DD ½, WD ¾, WW 1."""
    return llr({0.0: ll, 0.25: ld, 0.5: wl_dd, 0.75: wd, 1.0: ww}, elo0, elo1)


@dataclass(frozen=True)
class Estimate:
    """An Elo difference with its confidence interval, from ``n`` samples of mean ``score``."""

    n: int
    score: float
    elo: float
    low: float
    high: float

    @property
    def margin(self) -> float:
        """Half the interval's width (the "±" figure; inf while it is unbounded)."""
        return (self.high - self.low) / 2

    def text(self) -> str:
        """e.g. ``+52.1 ± 20.3 Elo``."""
        elo = self.elo + 0.0  # no "-0.0"
        if math.isinf(elo) or math.isinf(self.margin):
            return f"{elo:+.1f} Elo (interval unbounded: more games needed)"
        if self.margin == 0.0:  # every sample alike: a spread of 0 is no interval
            return f"{elo:+.1f} Elo (every deal scored the same: no interval yet)"
        return f"{elo:+.1f} ± {self.margin:.1f} Elo"


def estimate(samples: Sequence[float], confidence: float = 0.95) -> Estimate:
    """The Elo difference of the mean of ``samples`` (scores in [0, 1]) and its normal
    confidence interval, each end mapped to Elo."""
    n = len(samples)
    if n == 0:
        return Estimate(0, 0.5, 0.0, -math.inf, math.inf)
    mean = sum(samples) / n
    variance = sum((x - mean) ** 2 for x in samples) / (n - 1) if n > 1 else 0.25
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    half = z * math.sqrt(variance / n)
    return Estimate(
        n, mean, elo_of_score(mean), elo_of_score(mean - half), elo_of_score(mean + half)
    )


@dataclass
class Sprt:
    """A running GSPRT: ``add`` each sample's score (from ``support``, the scores the design
    allows), read ``llr`` and ``verdict``."""

    support: Sequence[float]
    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if self.elo0 >= self.elo1:
            raise ValueError("elo0 must be less than elo1")
        self.lower, self.upper = bounds(self.alpha, self.beta)
        self.counts: dict[float, int] = {float(a): 0 for a in self.support}
        self.samples: list[float] = []

    def add(self, score: float) -> None:
        """Count one sample (a score in ``support``)."""
        if score not in self.counts:
            raise ValueError(f"score {score} is not one of {sorted(self.counts)}")
        self.counts[score] += 1
        self.samples.append(score)

    @property
    def llr(self) -> float:
        """The log-likelihood ratio so far (0 before any sample)."""
        return llr(self.counts, self.elo0, self.elo1) if self.samples else 0.0

    @property
    def verdict(self) -> str | None:
        """``"H1"`` (stronger by ``elo1``), ``"H0"`` (not stronger than ``elo0``) or None."""
        value = self.llr
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None
