"""What a season run has done so far (:class:`RunState`, for the live display and the final
summary), and :class:`RunnerError`, the one-line reason a run cannot go on."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import col, select

from ..store import FINISHED, GameRow, MatchRow, Store


class RunnerError(Exception):
    """A reason the run cannot go on, in one line fit for the user."""


@dataclass
class RunState:
    """What a run has done so far (for the progress display and the final summary)."""

    season: str
    worker: str
    concurrency: int
    total: int = 0
    done: int = 0  # matches of the season done (by any runner)
    done_at_start: int = 0
    void: int = 0  # matches given up after arena faults
    pending: int = 0
    claimed: int = 0
    others: int = 0  # matches other workers hold
    played: int = 0  # games this runner finished and committed
    faults: int = 0  # bot faults in the season's stored games
    arena_faults: int = 0  # plays this runner voided
    lost: int = 0  # games this runner played whose claim it had lost
    released: int = 0  # claims given back when the run stopped
    in_flight: int = 0
    started: float = field(default_factory=time.monotonic)
    interrupted: bool = False
    status: str = ""  # the season's status at the end

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    @property
    def games_per_minute(self) -> float:
        """Matches completed per minute during this run (by every runner of the season)."""
        minutes = self.elapsed / 60.0
        gained = self.done - self.done_at_start
        return gained / minutes if minutes > 0 and gained > 0 else 0.0

    @property
    def remaining(self) -> int:
        return max(0, self.total - self.done - self.void)

    @property
    def eta(self) -> float | None:
        """Seconds left at the current pace (None before the first game is done)."""
        rate = self.games_per_minute
        if rate <= 0:
            return None
        return self.remaining / rate * 60.0

    @property
    def complete(self) -> bool:
        return self.status == FINISHED or (self.total > 0 and self.remaining == 0)


Listener = Callable[[RunState], Any]
Logger = Callable[[str], Any]


def count_faults(store: Store, season_id: int) -> int:
    """Bot faults recorded in the season's stored games (:attr:`RunState.faults`)."""
    with store.session() as s:
        rows = s.exec(
            select(col(GameRow.faults))
            .join(MatchRow, col(MatchRow.id) == col(GameRow.match_id))
            .where(col(MatchRow.season_id) == season_id)
        ).all()
    return sum(len(f or ()) for f in rows)
