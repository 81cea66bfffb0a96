"""How much one member may test on demand: games asked for in a day, challenges in flight at
once, and games in one challenge. Admins have no quotas but the last.

Set in the environment the arena's web server runs with (defaults in brackets):
``HEGEMON_QUOTA_CHALLENGE_GAMES`` games a day [200], ``HEGEMON_QUOTA_CHALLENGES`` challenges
not finished yet [2], ``HEGEMON_CHALLENGE_MAX_GAMES`` games in one challenge [100].

The counts are read in the transaction that stores the challenge (SQLite's write lock, the
user's row locked on PostgreSQL), so simultaneous requests cannot all pass a quota only some
fit in.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func
from sqlmodel import Session, col, select

from ..store import FINISHED, ChallengeRow, SeasonRow, UserRow, utcnow

GAMES_ENV = "HEGEMON_QUOTA_CHALLENGE_GAMES"
IN_FLIGHT_ENV = "HEGEMON_QUOTA_CHALLENGES"
MAX_GAMES_ENV = "HEGEMON_CHALLENGE_MAX_GAMES"


class ChallengeError(Exception):
    """A challenge refused: one line for its asker; ``status`` is the HTTP answer's."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class ChallengeQuotas:
    """One member's limits on challenges."""

    games_per_day: int = 200
    in_flight: int = 2
    max_games: int = 100

    @classmethod
    def from_env(cls) -> ChallengeQuotas:
        """The arena's limits: the environment's, else the defaults."""

        def read(name: str, default: int) -> int:
            raw = os.environ.get(name, "").strip()
            if not raw:
                return default
            if not raw.isdigit():
                raise ValueError(f"{name} must be a whole number, not {raw!r}")
            return int(raw)

        return cls(
            games_per_day=read(GAMES_ENV, cls.games_per_day),
            in_flight=read(IN_FLIGHT_ENV, cls.in_flight),
            max_games=read(MAX_GAMES_ENV, cls.max_games),
        )

    def check_games(self, games: int) -> None:
        """Refuse a challenge of fewer than one or more than :attr:`max_games` games."""
        if not 1 <= games <= self.max_games:
            raise ChallengeError(f"refused: ask for 1 to {self.max_games} games, not {games}")

    def check_in(self, s: Session, user: UserRow, games: int) -> None:
        """Refuse (:class:`ChallengeError`, 429) ``games`` more for ``user`` inside the
        transaction ``s`` that stores the challenge."""
        if user.is_admin:
            return
        locked = select(col(UserRow.id)).where(col(UserRow.id) == user.id)
        s.exec(locked.with_for_update() if s.get_bind().dialect.name == "postgresql" else locked)
        mine = select(ChallengeRow).where(col(ChallengeRow.owner_id) == user.id)
        running = s.exec(
            select(func.count())
            .select_from(ChallengeRow)
            .join(SeasonRow, col(SeasonRow.id) == col(ChallengeRow.season_id))
            .where(col(ChallengeRow.owner_id) == user.id, col(SeasonRow.status) != FINISHED)
        ).one()
        if running >= self.in_flight:
            raise ChallengeError(
                f"refused: you have {running} challenges still playing, the most allowed "
                f"({self.in_flight}); wait for one to finish",
                429,
            )
        day_ago = utcnow() - timedelta(days=1)
        recent = mine.where(col(ChallengeRow.created_at) >= day_ago)
        asked = sum(c.games for c in s.exec(recent).all())
        if asked + games > self.games_per_day:
            left = max(0, self.games_per_day - asked)
            raise ChallengeError(
                f"refused: at most {self.games_per_day} challenge games a day; {left} left for now",
                429,
            )
