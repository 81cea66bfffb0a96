"""Which season or ladder a runner serves next, so that members' challenges never starve a
ladder: competitions (seasons and ladders) take turns, the one served longest ago first, and a
challenge gets a turn only after :data:`COMPETITION_TURNS` competition turns since the last
challenge's (or since the runner started) — or whenever no competition has a match waiting.
With turns of equal games a ladder keeps at least ``COMPETITION_TURNS / (COMPETITION_TURNS +
1)`` of its games (75 %) over any stretch that ends with a challenge's turn, and challenges
take the whole runner when nothing else waits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..store import SeasonRow

COMPETITION_TURNS = 3
"""Competition turns a runner plays between two challenge turns while both have games."""


@dataclass
class Turns:
    """One runner's memory of its turns: each season's last, and the last challenge turn."""

    served: dict[int, int] = field(default_factory=dict)  # season id → its last turn
    turn: int = 0
    since_challenge: int = 0  # competition turns since the last challenge's

    def next(self, waiting: Sequence[SeasonRow]) -> SeasonRow | None:
        """The season to serve next of those with a match ``waiting`` (None: none), taken."""
        competitions = [s for s in waiting if not s.is_challenge]
        challenges = [s for s in waiting if s.is_challenge]
        due = challenges and (not competitions or self.since_challenge >= COMPETITION_TURNS)
        chosen = self._oldest(challenges if due else competitions)
        if chosen is None:
            return None
        self.turn += 1
        self.served[chosen.id or 0] = self.turn
        self.since_challenge = 0 if chosen.is_challenge else self.since_challenge + 1
        return chosen

    def _oldest(self, seasons: Sequence[SeasonRow]) -> SeasonRow | None:
        """The one served longest ago (never served first, the oldest first among equals)."""
        return min(seasons, key=lambda s: self.served.get(s.id or 0, -1), default=None)
