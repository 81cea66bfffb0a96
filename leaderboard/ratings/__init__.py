"""Elo-scale ratings from finishing orders of 2–6 player games.

Pure computation: no I/O and no imports from the rest of hegemon.

A *game* is its finishing order as a list of places, place 1 first; each place is a
group of bot names.  A group with several names is a tie, or a team sharing its team's
place::

    [["red"], ["blue", "green"], ["black"]]   # red 1st, blue and green tied 2nd, black 4th

Two methods are provided (see docs/design.md, "Ratings"):

``fit_plackett_luce``
    Maximum a-posteriori Plackett–Luce strengths (Newton's method on the games collapsed
    into counts of distinct finishing patterns, numpy), reported on the Elo scale.  With
    two players Plackett–Luce is Bradley–Terry, i.e. Elo's logistic model, so
    ``400 * log10(strength)`` is an Elo rating.  The fit depends only on the multiset of
    games, never on their order.  ``posterior_intervals`` (what the boards show) adds 95%
    intervals and the probability that each bot is stronger than the next one, both read off
    the same draws of the posterior (the prior's weight included, see "Honest intervals"
    below), so they cannot disagree.  ``bootstrap_intervals`` gives them from
    Bayesian-bootstrap resamples instead (the boards' method before; kept to compare, see
    ``benchmarks/rating_calibration.py --method bootstrap``).

``incremental_elo``
    The classic running Elo: each game is taken as all its pairs of players with
    K / (players - 1), applied in the given order.  It depends on the order and feeds
    the rating-history chart.

Modelling choices (documented here once):

* **Ties / teams.**  A finishing order is read as a sequence of choices.  Every member
  ``i`` of a place group is "chosen" from the set ``{i} ∪ (everyone placed below the
  group)``, with Plackett–Luce probability ``w_i / (w_i + Σ_below w)``.  So each member
  of a tied group beats everyone below it, and tied members are not ordered against
  each other.  Without ties this is exactly the Plackett–Luce likelihood.  The last
  group makes no choice, so a game in which *everyone* shares one place (e.g. a draw
  of two bots) carries no information for the fit (it still counts as a game played).
  ``incremental_elo`` scores a tie as half a win for each pair, as Elo does.
* **Prior.**  Every bot plays ``prior`` virtual wins and ``prior`` virtual losses
  against a fixed reference player of strength 1 (like a virtual draw; cf. ``alpha`` in
  choix, or the virtual draws of BayesElo).  This keeps the ratings of bots that never
  lost or never won finite, makes the maximum unique, and shrinks the ratings of bots
  with few games towards the pack.  Its weight vanishes as games accumulate.
  **Its scale comes from the data** (``prior=None``, the default): a fixed weight assumes
  how far apart bots are (1 ≈ an Elo spread of 315), and was over-confident for bots closer
  than that and under-confident — intervals covering 0.63 instead of 0.95 — for bots spread
  wider.  The fit is solved for every weight of ``PRIOR_GRID`` (1/16–64 virtual games: Elo
  spreads of about 4000 down to 30) at once, each weighed by its Laplace-approximate
  evidence times a hyperprior (log2 of the weight normal around 0, deviation 3), and the
  point fit uses the evidence-weighted geometric mean; the posterior's draws (and every
  bootstrap resample) carry the weight's own uncertainty into the intervals.  A number fixes
  the weight as before.
* **Honest intervals.**  ``posterior_intervals`` draws from the posterior of the strengths
  *and* of the prior's weight (:mod:`.posterior`): the Laplace approximation at every weight
  of ``PRIOR_GRID``, mixed by their evidence, then importance resampling and Metropolis moves
  towards the exact posterior — a bot that won its first two games may be far stronger and
  hardly weaker, which a normal cannot say.  Intervals are the central 95% of a bot's draws
  and P(stronger than next) the share of draws in which it rates above the next bot.
  ``benchmarks/rating_calibration.py`` measures coverage and the calibration of
  P(stronger than next) in simulation, in worlds closer, wider and more evenly spaced than
  the prior assumes, and in a world whose pools differ season by season; bots with fewer
  than ``PROVISIONAL_GAMES`` games are marked provisional on the boards.
  The bootstrap (``bootstrap_intervals``) is Bayesian (every game weighs an Exp(1) draw)
  and reweights the prior's pseudo-games by Gamma(prior) draws, so early intervals are as
  wide as the prior says; its spread is widened by sqrt(n / (n − 1)) for a bot of n games.
* **Groups that never met.**  Bots compared by no game, directly or through others (the
  connected parts of "finished in one game"), rest on the prior alone against each other:
  :mod:`.groups` numbers those groups, results order bots group by group, and no
  P(stronger than next) is stated across groups.  The boards show them as not comparable.
* **Anchor.**  Reported ratings are ``400 / ln(10) * ln(strength)``, shifted so that the
  mean rating over all bots in the input is exactly 1500 (the reference player is not
  reported).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from . import _blas  # noqa: F401  (before numpy: see the module)
from .provisional import PROVISIONAL_GAMES

if TYPE_CHECKING:
    from .board import Rating, rate
    from .elo import EloResult, incremental_elo
    from .games import FinishingOrder, Tally
    from .plackett_luce import (
        ELO_SCALE,
        MEAN_RATING,
        BootstrapResult,
        bootstrap_intervals,
        fit_plackett_luce,
        posterior_intervals,
    )

_LAZY = {
    "Rating": "board",
    "rate": "board",
    "EloResult": "elo",
    "incremental_elo": "elo",
    "FinishingOrder": "games",
    "Tally": "games",
    "ELO_SCALE": "plackett_luce",
    "MEAN_RATING": "plackett_luce",
    "BootstrapResult": "plackett_luce",
    "bootstrap_intervals": "plackett_luce",
    "fit_plackett_luce": "plackett_luce",
    "posterior_intervals": "plackett_luce",
}


def __getattr__(name: str) -> Any:
    """The rest on first use: they import numpy, which a board read from its stored fit (the
    CLI's common case) never needs."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "ELO_SCALE",
    "MEAN_RATING",
    "PROVISIONAL_GAMES",
    "BootstrapResult",
    "EloResult",
    "FinishingOrder",
    "Rating",
    "Tally",
    "bootstrap_intervals",
    "fit_plackett_luce",
    "incremental_elo",
    "posterior_intervals",
    "rate",
]
