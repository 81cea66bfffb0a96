"""How much one member may submit: versions per hour, live bots (a version queued, checking or
active), and the bytes of their stored files. Admins have no quotas.

The arena sets them in the environment its web server runs with (defaults in brackets):
``HEGEMON_QUOTA_SUBMISSIONS`` versions per hour [20], ``HEGEMON_QUOTA_BOTS`` live bots [5],
``HEGEMON_QUOTA_STORAGE`` bytes (suffixes ``K``, ``M``, ``G``) [256M]. A submission over one
is refused with :class:`QuotaError`, one line saying which and how to get under it.

The counts are read in the transaction that adds the version (:meth:`Quotas.check_in`, as the
store's guard), so concurrent submissions cannot all pass a quota only some fit in.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session

from ..store import Store, utcnow
from ..store.versions import live_bot_names, storage_used, submissions_since
from .errors import RegistryError
from .limits import _human, _parse

SUBMISSIONS_ENV = "HEGEMON_QUOTA_SUBMISSIONS"
BOTS_ENV = "HEGEMON_QUOTA_BOTS"
STORAGE_ENV = "HEGEMON_QUOTA_STORAGE"


class QuotaError(RegistryError):
    """A submission over its owner's quota; ``status`` is the HTTP answer's."""

    def __init__(self, message: str, status: int = 403):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Quotas:
    """One member's limits."""

    submissions_per_hour: int = 20
    live_bots: int = 5
    storage_bytes: int = 256 * 1024**2

    @classmethod
    def from_env(cls) -> Quotas:
        """The arena's quotas: the environment's, else the defaults."""

        def read(name: str, default: int, units: bool = False) -> int:
            raw = os.environ.get(name, "").strip()
            return _parse(name, raw, units) if raw else default

        return cls(
            submissions_per_hour=read(SUBMISSIONS_ENV, cls.submissions_per_hour),
            live_bots=read(BOTS_ENV, cls.live_bots),
            storage_bytes=read(STORAGE_ENV, cls.storage_bytes, units=True),
        )

    def check(
        self, store: Store, owner_id: int, name: str, new_bytes: int, team_id: int | None = None
    ) -> None:
        """Refuse (:class:`QuotaError`) a new version of ``name`` by ``owner_id`` whose files
        add ``new_bytes`` to what the owner stores: a quick look, before the files are kept
        (the check that counts is :meth:`check_in`, when the version is added). A team's bot
        (``team_id``) counts against the team's quotas, whichever member submits it."""
        with store.session() as s:
            self.check_in(s, owner_id, name, new_bytes, team_id)

    def check_in(
        self, s: Session, owner_id: int, name: str, new_bytes: int, team_id: int | None = None
    ) -> None:
        """:meth:`check` inside the transaction ``s`` that adds the version."""
        hour_ago = utcnow() - timedelta(hours=1)
        whose, has = ("your", "you have") if team_id is None else ("the team's", "the team has")
        if submissions_since(s, owner_id, hour_ago, team_id) >= self.submissions_per_hour:
            raise QuotaError(
                f"refused: at most {self.submissions_per_hour} submissions an hour; "
                "try again later",
                429,
            )
        live = live_bot_names(s, owner_id, team_id)
        if name not in live and len(live) >= self.live_bots:
            raise QuotaError(
                f"refused: {has} {len(live)} live bots, the most allowed "
                f"({self.live_bots}); submit a new version of one of them instead"
            )
        used = storage_used(s, owner_id, team_id)
        if used + new_bytes > self.storage_bytes:
            raise QuotaError(
                f"refused: {whose} bots would store {used + new_bytes} bytes, more than {whose} "
                f"{_human(self.storage_bytes)}",
                413,
            )
