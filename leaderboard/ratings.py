"""Elo-scale ratings from finishing orders of 2–6 player games.

Pure computation: no I/O and no imports from the rest of hegemon.

A *game* is its finishing order as a list of places, place 1 first; each place is a
group of bot names.  A group with several names is a tie, or a team sharing its team's
place::

    [["red"], ["blue", "green"], ["black"]]   # red 1st, blue and green tied 2nd, black 4th

Two methods are provided (see DESIGN.md, "Ratings"):

``fit_plackett_luce``
    Maximum-likelihood Plackett–Luce strengths (Hunter's MM algorithm), reported on the
    Elo scale.  With two players Plackett–Luce is Bradley–Terry, i.e. Elo's logistic
    model, so ``400 * log10(strength)`` is an Elo rating.  The fit depends only on the
    multiset of games, never on their order.  ``bootstrap_intervals`` adds percentile
    intervals and the probability that each bot is stronger than the next one.

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
* **Anchor.**  Reported ratings are ``400 / ln(10) * ln(strength)``, shifted so that the
  mean rating over all bots in the input is exactly 1500 (the reference player is not
  reported).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Literal, NamedTuple

__all__ = [
    "ELO_SCALE",
    "MEAN_RATING",
    "BootstrapResult",
    "EloResult",
    "Game",
    "Rating",
    "bootstrap_intervals",
    "fit_plackett_luce",
    "incremental_elo",
    "rate",
]

Game = Sequence[Sequence[str]]
"""A finishing order: place groups, place 1 first; a group of several names is a tie."""

ELO_SCALE: float = 400.0 / math.log(10.0)
"""Elo points per unit of natural-log strength (≈ 173.7)."""

MEAN_RATING: float = 1500.0
"""The mean Plackett–Luce rating over all bots (the anchor of the scale)."""


# --------------------------------------------------------------------------- input


def _canonical(game: Game) -> tuple[tuple[str, ...], ...]:
    """Validate one game and return it as a hashable key with each group sorted."""
    if isinstance(game, (str, bytes)):
        raise TypeError(f"a game must be a list of place groups, not {game!r}")
    key: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for group in game:
        if isinstance(group, (str, bytes)):
            raise TypeError(
                f"each place must be a list of bot names, got the string {group!r}"
                " (write [['a'], ['b']], not ['a', 'b'])"
            )
        names = tuple(sorted(group))
        if not names:
            raise ValueError(f"empty place group in game {game!r}")
        for name in names:
            if not isinstance(name, str):
                raise TypeError(f"bot names must be strings, got {name!r}")
            if name in seen:
                raise ValueError(f"bot {name!r} appears twice in game {game!r}")
            seen.add(name)
        key.append(names)
    if len(seen) < 2:
        raise ValueError(f"a game needs at least two players: {game!r}")
    return tuple(key)


# Aggregated sufficient statistics: for each distinct choice set (sorted bot indices)
# how many choice events were made from it, and how many events each bot won.
_SetCounts = list[tuple[tuple[int, ...], int]]


@dataclass(frozen=True)
class _Compiled:
    """Games reduced to what the MM iteration needs, in a canonical order."""

    bots: tuple[str, ...]
    # distinct game patterns (sorted); each pattern is a list of (winner, set id) events
    pattern_events: tuple[tuple[tuple[int, int], ...], ...]
    pattern_counts: tuple[int, ...]
    # the games in canonical (sorted) order, as pattern ids; bootstrap resamples these
    game_patterns: tuple[int, ...]
    sets: tuple[tuple[int, ...], ...]  # distinct choice sets, sorted


def _compile(games: Sequence[Game]) -> _Compiled:
    counts = Counter(_canonical(game) for game in games)
    keys = sorted(counts)
    bots = sorted({name for key in keys for group in key for name in group})
    index = {name: i for i, name in enumerate(bots)}

    raw_events: list[list[tuple[int, tuple[int, ...]]]] = []
    all_sets: set[tuple[int, ...]] = set()
    for key in keys:
        events: list[tuple[int, tuple[int, ...]]] = []
        below: list[int] = []
        for group in reversed(key):
            members = [index[name] for name in group]
            if below:
                for i in members:
                    choice = tuple(sorted([i, *below]))
                    events.append((i, choice))
                    all_sets.add(choice)
            below.extend(members)
        raw_events.append(events)

    sets = sorted(all_sets)
    set_id = {s: k for k, s in enumerate(sets)}
    pattern_events = tuple(
        tuple(sorted((winner, set_id[choice]) for winner, choice in events))
        for events in raw_events
    )
    pattern_counts = tuple(counts[key] for key in keys)
    game_patterns = tuple(p for p, c in enumerate(pattern_counts) for _ in range(c))
    return _Compiled(tuple(bots), pattern_events, pattern_counts, game_patterns, tuple(sets))


def _statistics(
    compiled: _Compiled, pattern_counts: Sequence[int]
) -> tuple[list[float], _SetCounts]:
    """Wins per bot and events per choice set for the given multiplicity of patterns."""
    wins = [0.0] * len(compiled.bots)
    per_set = [0] * len(compiled.sets)
    for events, count in zip(compiled.pattern_events, pattern_counts, strict=False):
        if count:
            for winner, sid in events:
                wins[winner] += count
                per_set[sid] += count
    sets = [(members, c) for members, c in zip(compiled.sets, per_set, strict=False) if c]
    return wins, sets


# --------------------------------------------------------------------------- MM fit


def _mm(
    wins: Sequence[float],
    sets: _SetCounts,
    prior: float,
    start: Sequence[float] | None,
    tol: float,
    max_iter: int,
) -> list[float]:
    """Hunter's MM iteration for Plackett–Luce with virtual games against strength 1.

    Maximises  Σ_events [log w_winner − log Σ_{j∈set} w_j]
             + prior · Σ_i [log w_i − 2 log(w_i + 1)]
    by the update  w_i ← (wins_i + prior) / (Σ_{sets ∋ i} count/Σ_set w + 2·prior/(w_i + 1)),
    each followed by the exact best common rescaling (see :func:`_rescale`).  Every step
    increases the objective and the MAP is the only fixed point.  Stops when no
    log-strength moves by more than ``tol`` in an iteration.
    """
    n = len(wins)
    w = list(start) if start is not None else [1.0] * n
    numerator = [x + prior for x in wins]
    two_prior = 2.0 * prior
    # Per set: a getter for its members' strengths; per bot: the ids of its sets.  The
    # sums then run in C, in a fixed order (so the result is reproducible bit for bit).
    getters = [itemgetter(*members) for members, _ in sets]  # sets have >= 2 members
    counts = [float(count) for _, count in sets]
    sets_of: list[list[int]] = [[] for _ in range(n)]
    for k, (members, _) in enumerate(sets):
        for j in members:
            sets_of[j].append(k)
    log = math.log
    for _ in range(max_iter):
        ratios = [c / sum(get(w)) for get, c in zip(getters, counts, strict=False)]
        pick = ratios.__getitem__
        new = _rescale(
            [
                a / (two_prior / (x + 1.0) + sum(map(pick, ks)))
                for a, x, ks in zip(numerator, w, sets_of, strict=False)
            ]
        )
        step = max(abs(log(a / b)) for a, b in zip(new, w, strict=False))
        w = new
        if step < tol:
            break
    return w


def _rescale(w: list[float]) -> list[float]:
    """Multiply all strengths by the factor that maximises the objective.

    The data part of the likelihood does not change when every strength is multiplied
    by the same ``c``; only the prior fixes the overall scale, and it does so weakly,
    so plain MM would crawl along that direction (~1 − prior/games per step).  The best
    ``c = e^u`` solves  Σ_i tanh((u + ln w_i) / 2) = 0,  found here by safeguarded
    Newton's method (the left side is increasing in ``u``).
    """
    logs = [math.log(x) for x in w]
    # f(u) = Σ tanh((u + x)/2) increases from −n to n; keep a bracket [lo, hi] around
    # its root and fall back to bisection whenever a Newton step would leave it.
    lo, hi = -max(logs) - 80.0, -min(logs) + 80.0
    u = -math.fsum(logs) / len(logs)
    tanh, cosh = math.tanh, math.cosh
    for _ in range(200):
        f = 0.0
        slope = 0.0
        for x in logs:
            half = (u + x) / 2.0
            f += tanh(half)
            slope += 0.5 / cosh(half) ** 2 if abs(half) < 300.0 else 0.0
        if f > 0.0:
            hi = u
        elif f < 0.0:
            lo = u
        else:
            break
        new = u - f / slope if slope > 0.0 else lo - 1.0
        if not lo < new < hi:
            new = (lo + hi) / 2.0
        if abs(new - u) < 1e-15:
            break
        u = new
    factor = math.exp(u)
    return [x * factor for x in w]


def _to_elo(bots: Sequence[str], strengths: Sequence[float]) -> dict[str, float]:
    logs = [math.log(x) for x in strengths]
    mean = math.fsum(logs) / len(logs)
    return {bot: MEAN_RATING + ELO_SCALE * (x - mean) for bot, x in zip(bots, logs, strict=False)}


def _check_prior(prior: float) -> None:
    if not prior > 0.0 or math.isinf(prior):
        raise ValueError(f"prior must be a positive number of virtual games, got {prior!r}")


def fit_plackett_luce(
    games: Sequence[Game],
    *,
    prior: float = 1.0,
    tol: float = 1e-10,
    max_iter: int = 100_000,
) -> dict[str, float]:
    """Maximum a-posteriori Plackett–Luce ratings on the Elo scale.

    Args:
        games: finishing orders, each a list of place groups (place 1 first).
        prior: virtual wins *and* virtual losses each bot has against a reference
            player of strength 1 (must be > 0; see the module docstring).
        tol: convergence tolerance on the largest change of a log-strength per
            iteration (1e-10 ≈ 2e-8 Elo).
        max_iter: iteration cap (MM increases the objective every step, so the
            result after the cap is still the best estimate reached).

    Returns:
        ``{bot: rating}`` for every bot in ``games``, ratings centred on a mean of 1500.
        The result depends only on the multiset of games, not on their order (games
        are aggregated and bots iterated in sorted order).
    """
    _check_prior(prior)
    compiled = _compile(games)
    if not compiled.bots:
        return {}
    wins, sets = _statistics(compiled, compiled.pattern_counts)
    strengths = _mm(wins, sets, prior, None, tol, max_iter)
    return _to_elo(compiled.bots, strengths)


# --------------------------------------------------------------------------- bootstrap


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


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolation percentile (numpy's default), ``q`` in [0, 1]."""
    position = q * (len(sorted_values) - 1)
    lo = math.floor(position)
    hi = min(lo + 1, len(sorted_values) - 1)
    frac = position - lo
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * frac


def _order(ratings: dict[str, float]) -> list[str]:
    return sorted(ratings, key=lambda bot: (-ratings[bot], bot))


def bootstrap_intervals(
    games: Sequence[Game],
    samples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    *,
    prior: float = 1.0,
    tol: float = 1e-8,
    max_iter: int = 100_000,
) -> BootstrapResult:
    """Bootstrap percentile intervals for :func:`fit_plackett_luce`.

    Draws ``samples`` resamples of the games (with replacement, as many games as the
    input) with ``random.Random(seed)``, refits each (warm-started from the full-data
    fit, to tolerance ``tol``), and takes per-bot percentile intervals at ``confidence``.
    Games are put in a canonical order before resampling, so, like the fit, the result
    depends only on the multiset of games and the seed.  A bot absent from a resample
    gets the prior-only rating in it.

    Returns:
        A :class:`BootstrapResult`.  With ``samples == 0`` the intervals collapse to
        the point estimates and the probabilities are ``None``.
    """
    _check_prior(prior)
    if samples < 0:
        raise ValueError(f"samples must be >= 0, got {samples!r}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    compiled = _compile(games)
    bots = compiled.bots
    if not bots:
        return BootstrapResult({}, {}, [], {})
    wins, sets = _statistics(compiled, compiled.pattern_counts)
    full = _mm(wins, sets, prior, None, min(tol, 1e-10), max_iter)
    ratings = _to_elo(bots, full)
    order = _order(ratings)
    if samples == 0:
        return BootstrapResult(
            ratings,
            {bot: (r, r) for bot, r in ratings.items()},
            order,
            dict.fromkeys(order),
        )

    rng = random.Random(seed)
    n_games = len(compiled.game_patterns)
    n_patterns = len(compiled.pattern_counts)
    game_patterns = compiled.game_patterns
    draws: list[list[float]] = [[] for _ in bots]
    index = {bot: i for i, bot in enumerate(bots)}
    pairs = [(index[a], index[b]) for a, b in itertools.pairwise(order)]
    above = [0.0] * len(pairs)
    for _ in range(samples):
        counts = [0] * n_patterns
        for g in rng.choices(game_patterns, k=n_games):
            counts[g] += 1
        sample_wins, sample_sets = _statistics(compiled, counts)
        strengths = _mm(sample_wins, sample_sets, prior, full, tol, max_iter)
        sample = _to_elo(bots, strengths)
        values = [sample[bot] for bot in bots]
        for i, value in enumerate(values):
            draws[i].append(value)
        for k, (a, b) in enumerate(pairs):
            if values[a] > values[b]:
                above[k] += 1.0
            elif values[a] == values[b]:
                above[k] += 0.5

    tail = (1.0 - confidence) / 2.0
    intervals: dict[str, tuple[float, float]] = {}
    for bot, values in zip(bots, draws, strict=False):
        values.sort()
        intervals[bot] = (_percentile(values, tail), _percentile(values, 1.0 - tail))
    p_next: dict[str, float | None] = dict.fromkeys(order)
    for (a, _b), count in zip(pairs, above, strict=False):
        p_next[bots[a]] = count / samples
    return BootstrapResult(ratings, intervals, order, p_next)


# --------------------------------------------------------------------------- Elo


class EloResult(NamedTuple):
    """Result of :func:`incremental_elo`."""

    ratings: dict[str, float]
    """Rating of each bot after the last game."""
    history: dict[str, list[float]]
    """Per bot, its rating after each game it played, in game order (for a chart)."""


def incremental_elo(games: Sequence[Game], k: float = 32.0, initial: float = 1500.0) -> EloResult:
    """Classic multiplayer Elo, applied game by game in the given order.

    Each game counts as every pair of its players: a better place scores 1, a shared
    place 1/2, a worse place 0, against the logistic expectation
    ``1 / (1 + 10 ** ((R_other - R_self) / 400))``.  Each player's change is
    ``K / (players - 1) * Σ_pairs (score - expected)``, computed from the ratings
    before the game and applied after it.  Bots start at ``initial`` when first seen.
    The sum of all ratings is conserved.
    """
    ratings: dict[str, float] = {}
    history: dict[str, list[float]] = {}
    for game in games:
        key = _canonical(game)
        players = [(name, place) for place, group in enumerate(key) for name in group]
        for name, _ in players:
            if name not in ratings:
                ratings[name] = initial
                history[name] = []
        before = [ratings[name] for name, _ in players]
        factor = k / (len(players) - 1)
        deltas = [0.0] * len(players)
        for a in range(len(players)):
            for b in range(a + 1, len(players)):
                place_a, place_b = players[a][1], players[b][1]
                score = 1.0 if place_a < place_b else 0.5 if place_a == place_b else 0.0
                expected = 1.0 / (1.0 + 10.0 ** ((before[b] - before[a]) / 400.0))
                change = factor * (score - expected)
                deltas[a] += change
                deltas[b] -= change
        for (name, _), old, delta in zip(players, before, deltas, strict=False):
            ratings[name] = old + delta
            history[name].append(old + delta)
    return EloResult(ratings, history)


# --------------------------------------------------------------------------- summary


@dataclass(frozen=True)
class Rating:
    """One leaderboard row."""

    bot: str
    rating: float
    low: float | None
    """Lower end of the bootstrap interval (``None`` for Elo or without bootstrap)."""
    high: float | None
    """Upper end of the bootstrap interval (``None`` for Elo or without bootstrap)."""
    games: int
    wins: int
    """Games in which the bot had (or shared) first place."""
    mean_place: float
    """Mean place; a tied group takes the best place of its span (1, 2, 2, 4)."""
    p_stronger_than_next: float | None
    """Bootstrap probability of being stronger than the next row (``None`` for the
    last row, for Elo, or without bootstrap)."""


def rate(
    games: Sequence[Game],
    method: Literal["pl", "elo"] = "pl",
    bootstrap_samples: int = 200,
    seed: int = 0,
    *,
    confidence: float = 0.95,
    prior: float = 1.0,
    k: float = 32.0,
) -> list[Rating]:
    """Leaderboard rows sorted best first (ties broken by bot name).

    ``method="pl"``: Plackett–Luce fit with bootstrap intervals (``bootstrap_samples``
    resamples; 0 disables them).  ``method="elo"``: :func:`incremental_elo` in the
    given game order, without intervals.
    """
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    places: Counter[str] = Counter()
    for game in games:
        place = 1
        for group in _canonical(game):
            for name in group:
                played[name] += 1
                places[name] += place
                if place == 1:
                    won[name] += 1
            place += len(group)

    low: dict[str, float] = {}
    high: dict[str, float] = {}
    p_next: dict[str, float | None] = {}
    if method == "pl":
        if bootstrap_samples > 0:
            result = bootstrap_intervals(games, bootstrap_samples, seed, confidence, prior=prior)
            ratings = result.ratings
            low = {bot: lo for bot, (lo, _) in result.intervals.items()}
            high = {bot: hi for bot, (_, hi) in result.intervals.items()}
            p_next = result.p_stronger_than_next
        else:
            ratings = fit_plackett_luce(games, prior=prior)
    elif method == "elo":
        ratings = incremental_elo(games, k=k).ratings
    else:
        raise ValueError(f"method must be 'pl' or 'elo', got {method!r}")

    return [
        Rating(
            bot=bot,
            rating=ratings[bot],
            low=low.get(bot),
            high=high.get(bot),
            games=played[bot],
            wins=won[bot],
            mean_place=places[bot] / played[bot],
            p_stronger_than_next=p_next.get(bot),
        )
        for bot in _order(ratings)
    ]
