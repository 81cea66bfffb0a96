"""The store's bot versions' states and the queue of check games.

A version registered by ``hegemon bot add`` was checked in the organiser's shell: it is stored
``active``. A version *submitted* over HTTP is stored ``queued``; a runner claims it
(:meth:`VersionStore.claim_check`, the same discipline as :meth:`ClaimStore.claim_match`:
``FOR UPDATE SKIP LOCKED`` on PostgreSQL, one writer on SQLite, a stale claim taken over), plays
its check game and stores the outcome (:meth:`VersionStore.finish_check`): ``active`` or
``refused`` with the reason and the bot's log. A version becoming active retires the older
active versions of its name; an admin may disable a version.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy import func
from sqlmodel import Session, col, select

from .archives import BotArchiveRow
from .claims import claimable
from .database import Database
from .models import BotRow, utcnow

QUEUED, CHECKING, ACTIVE, REFUSED, RETIRED, DISABLED = (
    "queued",
    "checking",
    "active",
    "refused",
    "retired",
    "disabled",
)
STATES = (QUEUED, CHECKING, ACTIVE, REFUSED, RETIRED, DISABLED)
LIVE = (QUEUED, CHECKING, ACTIVE)
"""States of a version that counts towards its owner's active bots."""

LOG_CAP = 256 * 1024
"""The most characters of a check game's bot log kept (its tail)."""


class VersionStore(Database):
    """Bot versions' states and the queue of check games."""

    def claim_check(self, worker: str, stale_after_s: float = 600.0) -> BotRow | None:
        """Give ``worker`` the oldest queued version to check (or one whose check was claimed
        more than ``stale_after_s`` seconds ago by a runner that stopped); None if none."""
        now = utcnow()
        cutoff = now - timedelta(seconds=stale_after_s)
        with self.session(write=True) as s:
            query = (
                select(BotRow)
                .where(
                    claimable(
                        col(BotRow.state), col(BotRow.check_claimed_at), QUEUED, CHECKING, cutoff
                    )
                )
                .order_by(col(BotRow.id))
                .limit(1)
            )
            bot = s.exec(self._skip_locked(query)).first()
            if bot is None:
                return None
            bot.state = CHECKING
            bot.checker = worker
            bot.check_claimed_at = now
            s.flush()
            return bot

    def renew_check(self, bot_id: int, worker: str) -> bool:
        """Refresh the check's claim (a heartbeat); False if ``worker`` lost it."""
        with self.session(write=True) as s:
            result = s.exec(
                sa.update(BotRow)
                .where(
                    col(BotRow.id) == bot_id,
                    col(BotRow.checker) == worker,
                    col(BotRow.state) == CHECKING,
                )
                .values(check_claimed_at=utcnow())
            )
            return result.rowcount == 1

    def finish_check(
        self, bot_id: int, worker: str, passed: bool, reason: str, log: str | None
    ) -> BotRow | None:
        """Store the check's outcome if ``worker`` still holds it: ``active`` (retiring the older
        active versions of the name) or ``refused`` with ``reason``. None if the claim was lost."""
        with self.session(write=True) as s:
            bot = s.exec(self._lock(select(BotRow).where(col(BotRow.id) == bot_id))).first()
            if bot is None or bot.state != CHECKING or bot.checker != worker:
                return None
            bot.reason = reason[:2000]
            bot.check_log = None if log is None else log[-LOG_CAP:]
            bot.checker = None
            bot.check_claimed_at = None
            bot.state = ACTIVE if passed else REFUSED
            if passed:
                self._retire_others(s, bot)
            s.flush()
            return bot

    def release_checks(self, worker: str) -> int:
        """Put the checks ``worker`` holds back in the queue (interrupted); returns how many."""
        with self.session(write=True) as s:
            result = s.exec(
                sa.update(BotRow)
                .where(col(BotRow.checker) == worker, col(BotRow.state) == CHECKING)
                .values(state=QUEUED, checker=None, check_claimed_at=None)
            )
            return int(result.rowcount or 0)

    def set_state(self, bot_id: int, state: str, reason: str = "") -> BotRow | None:
        """Set a version's state by hand (an admin disabling or re-enabling it)."""
        if state not in STATES:
            raise ValueError(f"unknown state {state!r}")
        with self.session(write=True) as s:
            bot = s.get(BotRow, bot_id)
            if bot is None:
                return None
            bot.state, bot.reason = state, reason
            if state == ACTIVE:
                self._retire_others(s, bot)
            s.flush()
            return bot

    def _retire_others(self, s: Session, bot: BotRow) -> None:
        """``bot`` became active: older active versions of its name retire; if a newer one is
        active already (checks finished out of order), ``bot`` itself retires."""
        newer = s.exec(
            select(col(BotRow.id)).where(
                col(BotRow.name) == bot.name,
                col(BotRow.state) == ACTIVE,
                col(BotRow.version) > bot.version,
            )
        ).first()
        if newer is not None:
            bot.state = RETIRED
            return
        s.exec(
            sa.update(BotRow)
            .where(
                col(BotRow.name) == bot.name,
                col(BotRow.state) == ACTIVE,
                col(BotRow.version) < bot.version,
            )
            .values(state=RETIRED)
        )

    # ------------------------------------------------------------------ quotas
    def submissions_since(self, owner_id: int, since: datetime) -> int:
        """Versions ``owner_id`` submitted since ``since``."""
        with self.session() as s:
            return submissions_since(s, owner_id, since)

    def live_bot_names(self, owner_id: int) -> set[str]:
        """Names of ``owner_id``'s bots with a version queued, checking or active."""
        with self.session() as s:
            return live_bot_names(s, owner_id)

    def storage_used(self, owner_id: int) -> int:
        """Bytes of the distinct files ``owner_id``'s versions store (unpacked)."""
        with self.session() as s:
            return storage_used(s, owner_id)


# The quotas' counts inside a caller's transaction (the one adding a version: see
# BotStore.add_bot's guard), and through the store's methods above for a quick look.
def owned_by(owner_id: int, team_id: int | None = None) -> sa.ColumnElement[bool]:
    """The versions a quota counts: the team ``team_id``'s (whoever of it submitted them),
    else ``owner_id``'s own (not their teams')."""
    if team_id is not None:
        return col(BotRow.team_id) == team_id
    return (col(BotRow.owner_id) == owner_id) & col(BotRow.team_id).is_(None)


def submissions_since(
    s: Session, owner_id: int, since: datetime, team_id: int | None = None
) -> int:
    """Versions ``owner_id`` (or the team ``team_id``) submitted since ``since``."""
    return int(
        s.exec(
            select(func.count())
            .select_from(BotRow)
            .where(owned_by(owner_id, team_id), col(BotRow.added_at) >= since)
        ).one()
    )


def live_bot_names(s: Session, owner_id: int, team_id: int | None = None) -> set[str]:
    """Names of ``owner_id``'s (or the team ``team_id``'s) bots with a version queued,
    checking or active."""
    return set(
        s.exec(
            select(col(BotRow.name))
            .where(owned_by(owner_id, team_id), col(BotRow.state).in_(LIVE))
            .distinct()
        ).all()
    )


def storage_used(s: Session, owner_id: int, team_id: int | None = None) -> int:
    """Bytes of the distinct files ``owner_id``'s (or the team ``team_id``'s) versions store
    (unpacked)."""
    hashes = (
        select(col(BotRow.content_hash))
        .where(owned_by(owner_id, team_id))
        .distinct()
        .scalar_subquery()
    )
    total = s.exec(
        select(func.coalesce(func.sum(col(BotArchiveRow.size)), 0)).where(
            col(BotArchiveRow.content_hash).in_(hashes)
        )
    ).one()
    return int(total)
