"""The one place a board's ratings are fitted, and where a failed fit is caught.

A fit that raises (whatever the reason: a singular system, a solver that does not converge, a
bug) never takes a board down, nor the page, API route or command showing it: the board is
shown without intervals — the point fit alone — and, should that fail too, with the games,
wins and mean places but no ratings; :attr:`Fitted.unrated` says why, and the error is logged
(one line; its traceback at debug level).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..ratings import FinishingOrder, Rating, Tally
    from .model import Method

log = logging.getLogger(__name__)

Rate = Callable[..., "list[Rating]"]


@dataclass(frozen=True)
class Fitted:
    """A fit's rows (best first) and, if it failed, why the rows have no intervals."""

    ratings: list[Any]
    unrated: str | None = None


@dataclass(frozen=True)
class Unrated:
    """A bot's row when no fit could be made: its counts, no rating (the fields of
    :class:`~hegemon.leaderboard.ratings.Rating`)."""

    bot: str
    games: int
    wins: int
    mean_place: float
    rating: float | None = None
    low: float | None = None
    high: float | None = None
    p_stronger_than_next: float | None = None


def fit(
    games: Sequence[FinishingOrder] | Tally,
    *,
    method: Method = "pl",
    samples: int = 0,
    seed: int = 0,
    rate: Rate | None = None,
) -> Fitted:
    """The rated rows of ``games`` (``samples`` bootstrap resamples for ``pl``); never raises
    for a failed fit. ``rate`` replaces :func:`hegemon.leaderboard.ratings.rate`."""
    if rate is None:
        from ..ratings import rate as default_rate  # numpy: only when fitting

        rate = default_rate
    if not games:
        return Fitted([])
    try:
        return Fitted(rate(games, method=method, bootstrap_samples=samples, seed=seed))
    except Exception as exc:
        failure = f"{type(exc).__name__}: {exc}"
        log.error("hegemon: the rating fit failed (%s)", failure)
        log.debug("the failed fit", exc_info=True)
    if method == "pl" and samples > 0:
        try:
            ratings = rate(games, method=method, bootstrap_samples=0, seed=seed)
            return Fitted(ratings, f"shown without intervals: the bootstrap failed ({failure})")
        except Exception as exc:
            log.error(
                "hegemon: the point fit failed too (%s: %s); no ratings", type(exc).__name__, exc
            )
            log.debug("the failed point fit", exc_info=True)
    return Fitted(counts_only(games), f"shown without ratings: the rating fit failed ({failure})")


def counts_only(games: Sequence[FinishingOrder] | Tally) -> list[Unrated]:
    """Each bot's games, wins and mean place (a tie takes the best place of its span), by
    mean place, then wins, then name."""
    from ..ratings.board import place_counts

    played, won, places = place_counts(games)
    rows = [Unrated(b, played[b], won[b], places[b] / played[b]) for b in played]
    return sorted(rows, key=lambda r: (r.mean_place, -r.wins, r.bot))
