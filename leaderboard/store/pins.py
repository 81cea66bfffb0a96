"""Which version of a bot plays: a member may pin one (roll back to an earlier version, or keep
the current one when a newer passes its check); unpinned, the newest active version plays.

``bot_pins`` holds one row per pinned bot name. A pin only holds while its version may play
(:data:`PLAYABLE`: it passed its check — active, or retired by a newer one); a pinned version an
admin disabled stops playing and the newest active one plays instead, until the pin is changed.
A disabled user's bots do not play; a team's do while one of its members is enabled
(:class:`Benched`).
:func:`choose_playing` is the one rule the matchmaker (:mod:`hegemon.leaderboard.ladder`) and the
pages share.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import Field, Session, SQLModel, col, select

from .accounts import UserRow
from .database import Database, StoreError
from .models import BotRow, UTCDateTime, utcnow
from .teams import JOINED, TeamMemberRow
from .versions import ACTIVE, RETIRED

T = TypeVar("T")

ATTEMPTS = 3
"""Transactions a pin is tried in (another member's simultaneous first pin of the same name
makes one fail on the key; the next finds its row)."""

PLAYABLE = (ACTIVE, RETIRED)
"""States of a version that may be pinned and played: it passed its check."""


class PinRow(SQLModel, table=True):
    """The version of a bot name that plays (while :data:`PLAYABLE`), chosen by its owner."""

    __tablename__ = "bot_pins"

    name: str = Field(sa_type=sa.String(64), primary_key=True)
    bot_id: int = Field(foreign_key="bots.id")
    pinned_by: int | None = Field(default=None, foreign_key="users.id")
    pinned_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class PinError(Exception):
    """A pin refused: one line for the member, and the HTTP status that says why."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def not_yours(name: str) -> PinError:
    """The refusal of a pin of another member's bot."""
    return PinError(f"{name} is not your bot: only its owner may choose its version", 403)


@dataclass(frozen=True)
class Pinned:
    """The outcome of :func:`set_pin`: the bot's name, the version pinned (None: unpinned)
    and the version that plays now (None: none may play)."""

    name: str
    pinned: int | None
    playing: int | None

    def line(self) -> str:
        """What changed, in one line."""
        plays = f"{self.name} v{self.playing} plays" if self.playing else "no version may play"
        if self.pinned is None:
            return f"{self.name} is unpinned: its newest active version plays ({plays})"
        return f"{self.name} is pinned to v{self.pinned}: {plays} in new ladder games"


def pinned(session: Session) -> dict[str, int]:
    """Every pin: bot name → the pinned version's bot id."""
    return {
        str(name): int(bot_id) for name, bot_id in session.exec(select(PinRow.name, PinRow.bot_id))
    }


@dataclass(frozen=True)
class Benched:
    """Whose bots do not play: a disabled user's own bots, and a team's bots once no member of
    the team is enabled (whoever submitted them: a team bot stays while its team plays)."""

    users: frozenset[int]  # the disabled users
    teams: frozenset[int]  # the teams with an enabled member

    def sits_out(self, owner: int | None, team: int | None) -> bool:
        """Whether a bot of ``owner`` (and of ``team``, if it is a team's) is benched."""
        if team is not None:
            return team not in self.teams
        return owner in self.users


def choose_playing(
    rows: Iterable[tuple[str, str, int | None, int | None, int | None, T]],
    pins: dict[str, int],
    benched: Benched,
) -> list[T]:
    """Of (name, state, owner id, team id, bot id, item) rows by name then version: each name's
    version that plays — its pinned one if that may play, else its newest active one — leaving
    out the :class:`Benched`. Names come in the order of their first version that may play (so
    without pins, the order of each name's first active version, as before pins existed)."""
    found: dict[str, T] = {}
    held: set[str] = set()
    for name, state, owner, team, bot_id, item in rows:
        if benched.sits_out(owner, team):
            continue
        if pins.get(name) == bot_id and state in PLAYABLE:
            found[name] = item
            held.add(name)
        elif state == ACTIVE and name not in held:
            found[name] = item
    return list(found.values())


def drop_pins(session: Session, bot_id: int) -> None:
    """Forget the pins of the version ``bot_id`` (it is being removed)."""
    session.exec(sa.delete(PinRow).where(col(PinRow.bot_id) == bot_id))


def benched(session: Session) -> Benched:
    """Who is :class:`Benched` now: the disabled users, and the teams with an enabled member."""
    users = session.exec(select(col(UserRow.id)).where(col(UserRow.disabled))).all()
    teams = session.exec(
        select(col(TeamMemberRow.team_id))
        .join(UserRow, col(UserRow.id) == col(TeamMemberRow.user_id))
        .where(col(TeamMemberRow.state) == JOINED, sa.not_(col(UserRow.disabled)))
        .distinct()
    ).all()
    return Benched(frozenset(u for u in users if u is not None), frozenset(teams))


def playing_ids(session: Session) -> dict[str, int]:
    """Bot name → the id of the version that plays now (:func:`choose_playing`)."""
    rows = session.exec(
        select(col(BotRow.name), col(BotRow.state), col(BotRow.owner_id), col(BotRow.id)).order_by(
            col(BotRow.name), col(BotRow.version)
        )
    ).all()
    teams = dict(
        session.exec(
            select(col(BotRow.id), col(BotRow.team_id)).where(col(BotRow.team_id).is_not(None))
        ).all()
    )
    chosen = choose_playing(
        ((n, s, o, teams.get(i), i, (n, i)) for n, s, o, i in rows),
        pinned(session),
        benched(session),
    )
    return {name: bot_id for name, bot_id in chosen if bot_id is not None}


def playing_now(db: Database) -> dict[str, int]:
    """Bot name → the id of the version that plays now (one read, for the pages)."""
    with db.session() as s:
        return playing_ids(s)


def pins_now(db: Database) -> dict[str, int]:
    """Every pin: bot name → the pinned version's bot id (one read, for the pages)."""
    with db.session() as s:
        return pinned(s)


def set_pin(
    db: Database, user_id: int | None, name: str, version: int | None, may_manage: bool
) -> Pinned:
    """Pin ``name`` to ``version`` (None: unpin) for the user ``user_id``, who must own the bot
    (``may_manage``: whether they may manage a bot of its owner, which the caller judges).
    Raises :class:`PinError` with one line: no such bot, not theirs, no such version, or a
    version that may not play (queued, checking, refused or disabled).

    Two simultaneous first pins of a name both find no row and both insert one: the second to
    commit fails on the key (PostgreSQL; SQLite has one writer at a time) and is tried again in
    a new transaction, which finds the first's row and changes it."""
    for _ in range(ATTEMPTS - 1):
        try:
            return _set_pin(db, user_id, name, version, may_manage)
        except StoreError as exc:
            if not isinstance(exc.__cause__, IntegrityError):
                raise
    return _set_pin(db, user_id, name, version, may_manage)


def _set_pin(
    db: Database, user_id: int | None, name: str, version: int | None, may_manage: bool
) -> Pinned:
    """:func:`set_pin` in one transaction."""
    with db.session(write=True) as s:
        versions = list(
            s.exec(select(BotRow).where(col(BotRow.name) == name).order_by(col(BotRow.version)))
        )
        if not versions:
            raise PinError(f"no bot named {name[:70]!r}", 404)
        if not may_manage:
            raise not_yours(name)
        row = s.get(PinRow, name)
        if version is None:
            if row is not None:
                s.delete(row)
        else:
            chosen = next((v for v in versions if v.version == version), None)
            if chosen is None or chosen.id is None:
                raise PinError(f"{name} has no version {version} (its versions: "
                               f"1 to {versions[-1].version})", 404)  # fmt: skip
            if chosen.state not in PLAYABLE:
                why = f": {chosen.reason}" if chosen.reason else ""
                raise PinError(
                    f"{chosen.label} is {chosen.state}{why}; only a version that passed its "
                    "check (active or retired) can play",
                    409,
                )
            if row is None:
                row = PinRow(name=name, bot_id=chosen.id)
            row.bot_id, row.pinned_by, row.pinned_at = chosen.id, user_id, utcnow()
            s.add(row)
        s.flush()
        playing = playing_ids(s).get(name)
    number = next((v.version for v in versions if v.id == playing), None)
    return Pinned(name, version, number)
