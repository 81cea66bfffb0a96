"""What a board is: :class:`Leaderboard` and its :class:`LeaderboardRow` s, the crosstable, and the
bootstrap's seed and sample count — the same whether a board was fitted afresh or read from
its stored fit."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..ratings import PROVISIONAL_GAMES
from ..store import BotRow, SeasonRow
from .games import PlayedGame

BOOTSTRAP_SAMPLES = 1000
"""Bootstrap resamples behind the intervals (fewer for very large boards, see
:func:`bootstrap_samples`)."""

Method = Literal["pl", "elo"]


def finishing_order(seats: Sequence[str], places: Sequence[int]) -> list[list[str]]:
    """Place groups, best first, for the ratings module (equal places are a tie)."""
    groups: dict[int, list[str]] = {}
    for name, place in zip(seats, places, strict=False):
        groups.setdefault(place, []).append(name)
    return [sorted(groups[p]) for p in sorted(groups)]


def board_seed(text: str) -> int:
    """A bootstrap seed derived from a text (for boards that are not one season's)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def season_board_seed(season: SeasonRow) -> int:
    """The bootstrap seed of a season's board: derived from the season's seed one way, since
    a board shows its bootstrap seed and the season's own stays secret until it is finished."""
    return board_seed(f"hegemon season:{season.seed}")


def bootstrap_samples(games: int) -> int:
    """Resamples for a board of ``games`` games: 1000, fewer past 2000 games (the intervals
    are then narrow and each resample costs more), never below 200."""
    if games <= 2000:
        return BOOTSTRAP_SAMPLES
    return max(200, BOOTSTRAP_SAMPLES * 2000 // games)


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    bot_id: int
    name: str
    version: int
    rating: float | None  # None: no fit could be made (see Leaderboard.unrated)
    low: float | None
    high: float | None
    games: int
    wins: int
    mean_place: float
    faults: int
    p_next: float | None
    group: int = 1
    """Rows of different groups never met, directly or through others: their ratings are not
    comparable, and ``rank`` counts within the group (see ``ratings.groups``)."""

    @property
    def label(self) -> str:
        return f"{self.name}@v{self.version}"

    @property
    def provisional(self) -> bool:
        """Too few games for the rating to say much yet (under ``PROVISIONAL_GAMES``)."""
        return self.games < PROVISIONAL_GAMES


@dataclass
class Leaderboard:
    """A leaderboard: rows best first, and optionally the crosstable."""

    title: str
    preset: str
    method: str
    season: str | None
    games: int
    rows: list[LeaderboardRow]
    cross: dict[tuple[int, int], tuple[float, int]] | None = None  # (row, col) → (ahead, met)
    seed: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    unrated: str | None = None
    """Why the board has no intervals (the rating fit failed; see :mod:`.fit`), else None."""

    @property
    def groups(self) -> int:
        """How many groups of bots that never met the board holds (1 when all are comparable)."""
        return max((r.group for r in self.rows), default=1)


def group_ranks(groups: Sequence[int]) -> list[int]:
    """Each row's rank within its group (rows come group by group, best first)."""
    seen: Counter[int] = Counter()
    ranks = []
    for group in groups:
        seen[group] += 1
        ranks.append(seen[group])
    return ranks


def crosstable(games: Sequence[PlayedGame]) -> dict[tuple[int, int], tuple[float, int]]:
    """For each ordered pair of bots (a, b) that met: (times a finished ahead of b — a tie
    counts one half —, games they played together)."""
    ahead: dict[tuple[int, int], float] = {}
    met: Counter[tuple[int, int]] = Counter()
    for g in games:
        for i, a in enumerate(g.seats):
            for j, b in enumerate(g.seats):
                if i == j:
                    continue
                met[a, b] += 1
                if g.places[i] < g.places[j]:
                    ahead[a, b] = ahead.get((a, b), 0) + 1.0
                elif g.places[i] == g.places[j]:
                    ahead[a, b] = ahead.get((a, b), 0) + 0.5
    return {pair: (ahead.get(pair, 0), n) for pair, n in met.items()}


def board_rows(
    ratings: Sequence[Any], by_label: dict[str, int], bots: dict[int, BotRow], faults: Any
) -> list[LeaderboardRow]:
    """The rows of rated bots (``ratings``: :class:`hegemon.leaderboard.ratings.Rating`, best
    first), with their bots' names and ``faults`` (a mapping bot id → faults)."""
    rows = []
    groups = [getattr(r, "group", 1) for r in ratings]  # an unrated row has none
    for rank, group, r in zip(group_ranks(groups), groups, ratings, strict=True):
        bot_id = by_label[r.bot]
        bot = bots.get(bot_id)
        name, version = (bot.name, bot.version) if bot is not None else (r.bot, 0)
        rows.append(
            LeaderboardRow(rank, bot_id, name, version, r.rating, r.low, r.high, r.games, r.wins,
                     r.mean_place, faults.get(bot_id, 0), r.p_stronger_than_next, group)
        )  # fmt: skip
    return rows
