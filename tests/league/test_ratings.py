"""Tests for hegemon.leaderboard.ratings (Plackett–Luce fit, bootstrap, incremental Elo)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hegemon.leaderboard.ratings import (
    ELO_SCALE,
    Rating,
    Tally,
    bootstrap_intervals,
    fit_plackett_luce,
    incremental_elo,
    rate,
)

# --------------------------------------------------------------------------- helpers


def solo(*order: str) -> list[list[str]]:
    """A game without ties: ``solo("a", "b")`` is a first, b second."""
    return [[bot] for bot in order]


def sample_games(
    truth: dict[str, float], n: int, rng: random.Random, players: tuple[int, int] = (2, 6)
) -> list[list[list[str]]]:
    """Plackett–Luce games among bots with Elo ratings ``truth`` (Gumbel-max sampling)."""
    names = sorted(truth)
    games = []
    for _ in range(n):
        seated = rng.sample(names, rng.randint(*players))
        noisy = {b: truth[b] / ELO_SCALE - math.log(-math.log(rng.random())) for b in seated}
        games.append(solo(*sorted(seated, key=lambda b: -noisy[b])))
    return games


def random_truth(n_bots: int, rng: random.Random, spread: float = 150.0) -> dict[str, float]:
    raw = [rng.gauss(0.0, spread) for _ in range(n_bots)]
    mean = sum(raw) / n_bots
    return {f"bot{i}": 1500.0 + x - mean for i, x in enumerate(raw)}


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        result = [0.0] * len(values)
        for rank, i in enumerate(order):
            result[i] = float(rank)
        return result

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=False))
    return cov / math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))


def bisect(f, lo: float, hi: float) -> float:
    """Root of an increasing or decreasing f on [lo, hi] by bisection."""
    flo = f(lo)
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if (f(mid) > 0) == (flo > 0):
            lo, flo = mid, f(mid)
        else:
            hi = mid
    return (lo + hi) / 2.0


def map_gradient(games: list[list[list[str]]], ratings: dict[str, float], prior: float):
    """Gradient of the documented objective in log-strengths, at the fitted ratings.

    Written independently of the module: each member of a place group is chosen from
    itself plus everyone below; each bot has ``prior`` virtual wins and losses against
    strength 1.  Ratings only fix log-strengths up to a common shift; the shift at which
    the prior's total gradient vanishes is the one the fit must be at (the data part's
    gradient always sums to zero).
    """

    def prior_total(u: float) -> float:
        return sum(
            prior * (1.0 - 2.0 / (1.0 + math.exp(-((r - 1500.0) / ELO_SCALE + u))))
            for r in ratings.values()
        )

    u = bisect(prior_total, -50.0, 50.0)
    theta = {b: (r - 1500.0) / ELO_SCALE + u for b, r in ratings.items()}
    w = {b: math.exp(t) for b, t in theta.items()}
    grad = {b: prior * (1.0 - 2.0 * w[b] / (w[b] + 1.0)) for b in w}
    for game in games:
        for place, group in enumerate(game):
            below = [b for later in game[place + 1 :] for b in later]
            if not below:
                continue
            for winner in group:
                total = w[winner] + sum(w[b] for b in below)
                grad[winner] += 1.0
                for b in [winner, *below]:
                    grad[b] -= w[b] / total
    return grad


# --------------------------------------------------------------------------- Plackett–Luce


def test_two_bots_three_wins_of_four_matches_closed_form() -> None:
    """A beats B 3 times of 4, prior α = 1.

    With log-strengths a, b and d = a − b, the objective is
    3 log σ(d) + log σ(−d) − 2α log(2 cosh(a/2)) − 2α log(2 cosh(b/2)); the prior part
    is even and concave, so a = −b = d/2 and d solves 3 − 4σ(d) = α tanh(d/4).
    """
    games = [solo("A", "B")] * 3 + [solo("B", "A")]
    d = bisect(lambda x: 3.0 - 4.0 / (1.0 + math.exp(-x)) - math.tanh(x / 4.0), 0.0, 5.0)
    assert 0.8 < d < math.log(3.0)  # shrunk towards 0 by the prior
    ratings = fit_plackett_luce(games, prior=1.0)
    assert ratings["A"] == pytest.approx(1500.0 + ELO_SCALE * d / 2.0, abs=1e-6)
    assert ratings["B"] == pytest.approx(1500.0 - ELO_SCALE * d / 2.0, abs=1e-6)


def test_two_bots_weak_prior_gives_bradley_terry() -> None:
    """Without the prior, p(A beats B) = 3/4 ⇔ a rating gap of 400·log10(3) ≈ 190.85."""
    games = [solo("A", "B")] * 3 + [solo("B", "A")]
    ratings = fit_plackett_luce(games, prior=1e-6)
    assert ratings["A"] - ratings["B"] == pytest.approx(400.0 * math.log10(3.0), abs=1e-3)


def test_mean_rating_is_1500() -> None:
    rng = random.Random(5)
    games = sample_games(random_truth(7, rng), 80, rng)
    ratings = fit_plackett_luce(games)
    assert sum(ratings.values()) / len(ratings) == pytest.approx(1500.0, abs=1e-9)


def test_multiplayer_fit_is_the_maximum_of_the_documented_objective() -> None:
    rng = random.Random(11)
    games = sample_games(random_truth(6, rng), 60, rng)
    games += [[["bot0", "bot1"], ["bot2"], ["bot3", "bot4"]], [["bot5"], ["bot2", "bot0"]]]
    for prior in (1.0, 0.1):
        ratings = fit_plackett_luce(games, prior=prior)
        grad = map_gradient(games, ratings, prior)
        assert max(abs(g) for g in grad.values()) < 1e-6


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.permutations(["a", "b", "c", "d", "e", "f"]).flatmap(
            lambda order: st.integers(2, 6).flatmap(
                lambda n: st.lists(st.integers(0, n - 1), min_size=n, max_size=n).map(
                    lambda places: [
                        [b for b, p in zip(order[:n], places, strict=False) if p == q]
                        for q in sorted(set(places))
                    ]
                )
            )
        ),
        min_size=1,
        max_size=25,
    )
)
def test_fit_is_a_stationary_point_for_any_games(games: list[list[list[str]]]) -> None:
    ratings = fit_plackett_luce(games, prior=1.0)
    grad = map_gradient(games, ratings, 1.0)
    assert max(abs(g) for g in grad.values()) < 1e-6


def test_fit_converges_in_few_iterations() -> None:
    """MM alone crawls along the overall scale (fixed only by the weak prior); the fit
    must still reach the optimum within a couple of hundred iterations."""
    rng = random.Random(9)
    games = sample_games(random_truth(10, rng), 3000, rng)
    converged = fit_plackett_luce(games)
    capped = fit_plackett_luce(games, max_iter=200)
    for bot in converged:
        assert capped[bot] == pytest.approx(converged[bot], abs=1e-4)


def test_unbeaten_and_winless_bots_get_finite_ratings() -> None:
    games = [solo("champ", "mid", "dud")] * 20 + [solo("champ", "dud")] * 5
    ratings = fit_plackett_luce(games)
    assert all(math.isfinite(r) for r in ratings.values())
    assert ratings["champ"] > ratings["mid"] > ratings["dud"]
    assert ratings["champ"] - ratings["dud"] < 2000.0


def test_tied_group_counts_as_each_member_beating_everyone_below() -> None:
    tied = [[["A", "B"], ["C"]]] * 3 + [solo("C", "A")]
    split = [solo("A", "C"), solo("B", "C")] * 3 + [solo("C", "A")]
    assert fit_plackett_luce(tied) == pytest.approx(fit_plackett_luce(split), abs=1e-9)
    symmetric = fit_plackett_luce([[["A", "B"], ["C"]]] * 4)
    assert symmetric["A"] == pytest.approx(symmetric["B"], abs=1e-9)
    assert symmetric["A"] > symmetric["C"]


def test_a_game_where_everyone_shares_one_place_carries_no_information() -> None:
    games = [solo("A", "B", "C"), solo("B", "A"), solo("A", "C")]
    with_draw = [*games, [["A", "B", "C"]]]
    assert fit_plackett_luce(with_draw) == pytest.approx(fit_plackett_luce(games), abs=1e-9)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_fit_does_not_depend_on_game_order(seed: int) -> None:
    rng = random.Random(seed)
    games = sample_games(random_truth(6, rng), 40, rng)
    games.append([["bot0", "bot1"], ["bot2", "bot3"]])
    reordered = [[rng.sample(group, len(group)) for group in game] for game in games]
    rng.shuffle(reordered)
    first, second = fit_plackett_luce(games), fit_plackett_luce(reordered)
    assert first.keys() == second.keys()
    for bot in first:
        assert first[bot] == pytest.approx(second[bot], abs=1e-9)


def test_fit_recovers_the_true_order_of_simulated_bots() -> None:
    for seed in range(3):
        rng = random.Random(100 + seed)
        truth = random_truth(10, rng)
        ratings = fit_plackett_luce(sample_games(truth, 300, rng))
        bots = sorted(truth)
        rho = spearman([truth[b] for b in bots], [ratings[b] for b in bots])
        assert rho >= 0.9, (seed, rho)


def test_fit_converges_to_the_truth_with_many_games() -> None:
    rng = random.Random(3)
    truth = {"a": 1300.0, "b": 1450.0, "c": 1550.0, "d": 1700.0}
    ratings = fit_plackett_luce(sample_games(truth, 4000, rng, players=(2, 4)))
    for bot, true in truth.items():
        assert ratings[bot] == pytest.approx(true, abs=20.0)


# --------------------------------------------------------------------------- bootstrap


def test_bootstrap_intervals_cover_the_truth_about_95_percent() -> None:
    covered = total = 0
    for sim in range(16):
        rng = random.Random(7000 + sim)
        truth = random_truth(8, rng)
        result = bootstrap_intervals(sample_games(truth, 250, rng), samples=100, seed=sim)
        for bot, (low, high) in result.intervals.items():
            assert low <= result.ratings[bot] <= high
            total += 1
            covered += low <= truth[bot] <= high
    assert total == 128
    assert 0.85 <= covered / total <= 0.99, covered / total


def test_two_bot_bootstrap_matches_the_binomial_distribution_of_wins() -> None:
    """A beats B in 60 of 100 games.  A Bayesian-bootstrap resample (prior not redrawn) gives
    A a share of the games' weight distributed Beta(60, 40), within a win of
    Binomial(100, 0.6) / 100 at the quantiles used here; A's rating is 1500 + ELO_SCALE·d/2
    with d(j) solving j − 100·σ(d) = tanh(d/4) for its weighted wins j (see the closed-form
    test), so the interval ends are d at about the binomial quantiles."""
    n, k = 100, 60
    games = [solo("A", "B")] * k + [solo("B", "A")] * (n - k)

    def rating_with(j: int) -> float:
        d = bisect(lambda x: j - n / (1.0 + math.exp(-x)) - math.tanh(x / 4.0), -10.0, 10.0)
        return 1500.0 + ELO_SCALE * d / 2.0

    def quantile(q: float) -> int:
        cdf = 0.0
        for j in range(n + 1):
            cdf += math.comb(n, j) * 0.6**j * 0.4 ** (n - j)
            if cdf >= q:
                return j
        return n

    result = bootstrap_intervals(games, samples=2000, seed=3, prior=1.0, prior_draws=False)
    low, high = result.intervals["A"]
    j_low, j_high = quantile(0.025), quantile(0.975)
    eps = 1e-3  # bootstrap refits stop at a step of 1e-6 in log-strength (~2e-4 Elo)
    assert rating_with(j_low - 1) - eps <= low <= rating_with(j_low + 1) + eps
    assert rating_with(j_high - 1) - eps <= high <= rating_with(j_high + 1) + eps
    assert result.ratings["A"] == pytest.approx(rating_with(k), abs=1e-6)


def test_intervals_shrink_with_more_games() -> None:
    rng = random.Random(21)
    truth = random_truth(6, rng)
    games = sample_games(truth, 400, rng)
    few = bootstrap_intervals(games[:100], samples=100, seed=1)
    many = bootstrap_intervals(games, samples=100, seed=1)
    for bot in truth:
        few_width = few.intervals[bot][1] - few.intervals[bot][0]
        many_width = many.intervals[bot][1] - many.intervals[bot][0]
        assert many_width < 0.75 * few_width, bot


def test_bootstrap_is_deterministic_given_the_seed_and_ignores_game_order() -> None:
    rng = random.Random(8)
    games = sample_games(random_truth(5, rng), 60, rng, players=(2, 5))
    shuffled = games[:]
    rng.shuffle(shuffled)
    a = bootstrap_intervals(games, samples=30, seed=4)
    b = bootstrap_intervals(shuffled, samples=30, seed=4)
    c = bootstrap_intervals(games, samples=30, seed=5)
    assert a.intervals == b.intervals
    assert a.p_stronger_than_next == b.p_stronger_than_next
    assert a.intervals != c.intervals
    assert a.ratings == pytest.approx(fit_plackett_luce(games), abs=1e-9)


def test_probability_stronger_than_next() -> None:
    # "top" always beats everyone; "x" and "y" have identical records against "low".
    games = []
    for _ in range(15):
        games += [solo("top", "x", "low"), solo("top", "y", "low")]
        games += [solo("x", "y"), solo("y", "x")]
    result = bootstrap_intervals(games, samples=200, seed=0)
    assert result.order[0] == "top" and result.order[-1] == "low"
    p = result.p_stronger_than_next
    top, middle, third = p["top"], p[result.order[1]], p[result.order[2]]
    assert top is not None and top > 0.97
    assert middle is not None and 0.3 < middle < 0.7  # x vs y: a coin flip
    assert third is not None and third > 0.97
    assert p["low"] is None


def test_bootstrap_without_samples_returns_point_estimates() -> None:
    games = [solo("a", "b"), solo("b", "c"), solo("a", "c")]
    result = bootstrap_intervals(games, samples=0)
    assert result.intervals == {b: (r, r) for b, r in result.ratings.items()}
    assert set(result.p_stronger_than_next.values()) == {None}


# --------------------------------------------------------------------------- Elo


def test_elo_one_two_player_game() -> None:
    result = incremental_elo([solo("A", "B")], k=32, initial=1500)
    assert result.ratings == pytest.approx({"A": 1516.0, "B": 1484.0}, abs=1e-12)
    assert result.history == {"A": [1516.0], "B": [1484.0]}


def test_elo_second_game_uses_the_logistic_expectation() -> None:
    # E(A) = 1 / (1 + 10^(-32/400)) = 0.545922..., so A gains 32 · 0.454078 = 14.5305.
    result = incremental_elo([solo("A", "B"), solo("A", "B")])
    assert result.ratings["A"] == pytest.approx(1530.5305, abs=1e-3)
    assert result.ratings["B"] == pytest.approx(1469.4695, abs=1e-3)
    assert result.history["A"] == pytest.approx([1516.0, 1530.5305], abs=1e-3)


def test_elo_three_player_game_uses_half_k_per_pair() -> None:
    # Each pair at equal ratings moves 16 · 1/2 = 8: the winner wins two pairs.
    result = incremental_elo([solo("A", "B", "C")])
    assert result.ratings == pytest.approx({"A": 1516.0, "B": 1500.0, "C": 1484.0}, abs=1e-12)


def test_elo_ties_score_half_and_updates_use_pre_game_ratings() -> None:
    result = incremental_elo([solo("A", "B"), [["A", "B"], ["C"]]], k=30)
    # Game 2: K/2 = 15.  A (1515) vs B (1485) tie; both beat C (1500).
    e = lambda r, s: 1.0 / (1.0 + 10.0 ** ((s - r) / 400.0))  # noqa: E731
    a = 1515.0 + 15.0 * ((0.5 - e(1515, 1485)) + (1.0 - e(1515, 1500)))
    b = 1485.0 + 15.0 * ((0.5 - e(1485, 1515)) + (1.0 - e(1485, 1500)))
    c = 1500.0 + 15.0 * ((0.0 - e(1500, 1515)) + (0.0 - e(1500, 1485)))
    assert result.ratings == pytest.approx({"A": a, "B": b, "C": c}, abs=1e-9)
    assert result.history["C"] == pytest.approx([c])
    assert len(result.history["A"]) == 2


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 30))
def test_elo_conserves_the_total_rating(seed: int, n_games: int) -> None:
    rng = random.Random(seed)
    games = sample_games(random_truth(6, rng), n_games, rng)
    result = incremental_elo(games, initial=1000.0)
    assert sum(result.ratings.values()) == pytest.approx(1000.0 * len(result.ratings))
    for bot, history in result.history.items():
        assert len(history) == sum(bot in [b for g in game for b in g] for game in games)
        assert history[-1] == result.ratings[bot]


def test_elo_depends_on_order_but_the_fit_does_not() -> None:
    games = [solo("A", "B")] * 5 + [solo("B", "A")] * 5
    forward, backward = incremental_elo(games), incremental_elo(games[::-1])
    assert forward.ratings["A"] != pytest.approx(backward.ratings["A"], abs=1.0)
    assert fit_plackett_luce(games) == pytest.approx(fit_plackett_luce(games[::-1]), abs=1e-9)


# --------------------------------------------------------------------------- rate()


def test_rate_rows_are_sorted_and_counted() -> None:
    games = [solo("a", "b", "c"), [["b", "c"], ["a"]], solo("a", "c"), solo("a", "b")]
    rows = rate(games, bootstrap_samples=50, seed=2)
    assert [row.bot for row in rows] == ["a", "b", "c"]
    assert all(isinstance(row, Rating) for row in rows)
    assert [row.rating for row in rows] == sorted((row.rating for row in rows), reverse=True)
    a, b, c = rows
    assert (a.games, a.wins) == (4, 3) and a.mean_place == pytest.approx((1 + 3 + 1 + 1) / 4)
    assert (b.games, b.wins) == (3, 1) and b.mean_place == pytest.approx((2 + 1 + 2) / 3)
    assert (c.games, c.wins) == (3, 1) and c.mean_place == pytest.approx((3 + 1 + 2) / 3)
    for row in rows:
        assert row.low is not None and row.high is not None
        assert row.low <= row.rating <= row.high
    assert a.p_stronger_than_next is not None and c.p_stronger_than_next is None


def test_rate_elo_and_no_bootstrap() -> None:
    games = [solo("x", "y"), solo("x", "y"), solo("y", "z")]
    elo = rate(games, method="elo")
    assert [row.bot for row in elo] == ["x", "y", "z"]
    assert elo[0].rating == pytest.approx(incremental_elo(games).ratings["x"])
    assert all(row.low is None and row.p_stronger_than_next is None for row in elo)
    plain = rate(games, bootstrap_samples=0)
    assert [row.rating for row in plain] == pytest.approx(
        sorted(fit_plackett_luce(games).values(), reverse=True)
    )
    assert all(row.low is None for row in plain)
    with pytest.raises(ValueError):
        rate(games, method="trueskill")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad, error",
    [
        (["a", "b"], TypeError),  # a flat list of names, not place groups
        ([["a"], ["a"]], ValueError),  # a bot twice
        ([["a"], []], ValueError),  # an empty place
        ([["a"]], ValueError),  # one player
    ],
)
def test_invalid_games_are_rejected(bad: list, error: type[Exception]) -> None:
    with pytest.raises(error):
        fit_plackett_luce([bad])
    with pytest.raises(error):
        incremental_elo([bad])


def test_invalid_parameters_are_rejected() -> None:
    games = [solo("a", "b")]
    with pytest.raises(ValueError):
        fit_plackett_luce(games, prior=0.0)
    with pytest.raises(ValueError):
        bootstrap_intervals(games, confidence=1.5)
    with pytest.raises(ValueError):
        bootstrap_intervals(games, samples=-1)


def test_no_games() -> None:
    assert fit_plackett_luce([]) == {}
    assert rate([]) == []
    assert incremental_elo([]) == ({}, {})


def test_a_tally_of_the_games_rates_as_the_games_do() -> None:
    games = [solo("a", "b", "c"), solo("b", "a", "c"), [["c"], ["a", "b"]], solo("a", "b", "c")]
    tally = Tally()
    for game in ([["a"], ["b"], ["c"]], [["b"], ["a"], ["c"]], [["c"], ["b", "a"]]):
        tally[tuple(tuple(g) for g in game)] = 0
    tally[(("a",), ("b",), ("c",))] = 2
    tally[(("b",), ("a",), ("c",))] = 1
    tally[(("c",), ("b", "a"))] = 1  # groups need not be sorted: they are checked as games are
    assert rate(tally, bootstrap_samples=50, seed=3) == rate(games, bootstrap_samples=50, seed=3)
    with pytest.raises(ValueError, match="in order"):
        rate(tally, method="elo")


def test_elo_continues_from_given_ratings() -> None:
    games = [solo("a", "b", "c"), solo("c", "a"), solo("b", "c", "a"), solo("a", "c")]
    whole = incremental_elo(games)
    first = incremental_elo(games[:2])
    rest = incremental_elo(games[2:], start=first.ratings)
    assert rest.ratings == whole.ratings
    assert {b: first.history.get(b, []) + h for b, h in rest.history.items()} == whole.history
