"""Leaderboard rows: the fit with its intervals (or Elo), games, wins, mean place."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .elo import incremental_elo
from .games import FinishingOrder, Tally, canonical, compile_games
from .groups import groups
from .plackett_luce import order_of, posterior_intervals
from .provisional import PROVISIONAL_GAMES


@dataclass(frozen=True)
class Rating:
    """One leaderboard row."""

    bot: str
    rating: float
    low: float | None
    """Lower end of the posterior interval (``None`` for Elo or without draws)."""
    high: float | None
    """Upper end of the posterior interval (``None`` for Elo or without draws)."""
    games: int
    wins: int
    """Games in which the bot had (or shared) first place."""
    mean_place: float
    """Mean place; a tied group takes the best place of its span (1, 2, 2, 4)."""
    p_stronger_than_next: float | None
    """Posterior probability of being stronger than the next row (``None`` for the last row
    of its group, for Elo, or without draws)."""
    group: int = 1
    """The bot's group (:mod:`.groups`): rows of different groups never met, directly or
    through others, and are not comparable; rows are ranked within their group."""

    @property
    def provisional(self) -> bool:
        """Fewer than :data:`PROVISIONAL_GAMES` games."""
        return self.games < PROVISIONAL_GAMES


def place_counts(
    games: Sequence[FinishingOrder] | Tally,
) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """Per bot: games played, games won (first place, alone or shared) and the sum of its
    places (a tied group takes the best place of its span: 1, 2, 2, 4)."""
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    places: Counter[str] = Counter()
    counted = games.items() if isinstance(games, Tally) else ((g, 1) for g in games)
    for game, count in counted:
        place = 1
        for group in canonical(game):
            for name in group:
                played[name] += count
                places[name] += place * count
                if place == 1:
                    won[name] += count
            place += len(group)
    return played, won, places


def rate(
    games: Sequence[FinishingOrder] | Tally,
    method: Literal["pl", "elo"] = "pl",
    bootstrap_samples: int = 200,
    seed: int = 0,
    *,
    confidence: float = 0.95,
    prior: float | None = None,
    k: float = 32.0,
) -> list[Rating]:
    """Leaderboard rows sorted best first (ties broken by bot name).

    ``method="pl"``: Plackett–Luce fit with intervals and P(stronger than next) from
    ``bootstrap_samples`` draws of its posterior (:func:`posterior_intervals`; 0 disables
    them).  ``method="elo"``: :func:`incremental_elo` in the given game order, without
    intervals (not from a :class:`~.games.Tally`, which has none). Either way rows come
    group by group (:mod:`.groups`), best first within each.
    """
    played, won, places = place_counts(games)

    low: dict[str, float] = {}
    high: dict[str, float] = {}
    p_next: dict[str, float | None] = {}
    if method == "pl":
        if bootstrap_samples > 0:
            result = posterior_intervals(games, bootstrap_samples, seed, confidence, prior=prior)
            ratings, group = result.ratings, result.group
            low = {bot: lo for bot, (lo, _) in result.intervals.items()}
            high = {bot: hi for bot, (_, hi) in result.intervals.items()}
            p_next = result.p_stronger_than_next
        else:
            result = posterior_intervals(games, 0, prior=prior)
            ratings, group = result.ratings, result.group
    elif method == "elo":
        if isinstance(games, Tally):
            raise ValueError("method 'elo' needs the games in order, not their counts")
        ratings = incremental_elo(games, k=k).ratings
        group = groups(compile_games(games))
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
            group=group[bot],
        )
        for bot in order_of(ratings, group)
    ]
