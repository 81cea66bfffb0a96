"""The league's tables (sqlmodel models), their statuses, and the value objects the store
returns: :class:`GameOutcome` (what a played game stores), :class:`SeasonProgress`."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlmodel import JSON, Column, Field, SQLModel

if TYPE_CHECKING:
    from hegemon.referee.rules import RuleSet
    from hegemon.referee.timecontrol import TimeControl

# Season status
CREATED, RUNNING, FINISHED = "created", "running", "finished"
# Match status
PENDING, CLAIMED, DONE, VOID = "pending", "claimed", "done", "void"
UNFINISHED_SQL = "status IN ('pending', 'claimed')"
"""The matches not finished yet, as SQL (the claims' partial index and their query)."""
# Season kind: a season plays its fixed schedule and finishes; a ladder never ends (its
# matchmaker, hegemon.leaderboard.ladder, keeps adding matches as games finish)
SEASON, LADDER = "season", "ladder"
EVENT = "event"  # a final event: its rounds are made as rounds finish (hegemon.leaderboard.events)
# a member's unrated test games (hegemon.leaderboard.challenges): a small season of its own,
# played like any other but kept off the public boards and out of every rating
CHALLENGE = "challenge"

FAULT_POLICIES = {
    "forfeit": "a bot's fault (start-up failure, crash, timeout, too many strikes) disqualifies "
    "its seat: it ranks below every player still in, the game goes on; an arena fault "
    "voids the game, which is played again",
}
"""What a season does about faults (``SeasonRow.fault_policy``). One policy so far."""


SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """Now, as the timezone-aware UTC datetime the store keeps."""
    return datetime.now(UTC)


class Seed(sa.types.TypeDecorator[int]):
    """A seed of up to 129 bits (a fresh one is 128 random bits with the bit above them set):
    too wide for any integer column, so stored as its decimal text and read back as ``int``."""

    impl = sa.String(40)
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: sa.Dialect) -> str | None:
        return None if value is None else str(value)

    def process_result_value(self, value: str | None, dialect: sa.Dialect) -> int | None:
        return None if value is None else int(value)


class UTCDateTime(sa.types.TypeDecorator[datetime]):
    """A moment in UTC: stored as ``TIMESTAMP WITH TIME ZONE`` (PostgreSQL) or UTC text without
    an offset (SQLite); read back timezone-aware in UTC on both. Naive values are taken as UTC."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class BotRow(SQLModel, table=True):
    """One registered version of a bot. Its files are in ``paths.bot_dir(content_hash)``, which
    is its working folder; ``command`` is the argv run there (see
    ``hegemon.leaderboard.registry``)."""

    __tablename__ = "bots"
    __table_args__ = (sa.UniqueConstraint("name", "version"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_type=sa.String(64), index=True)
    # the name's look-alike form (store.names): a new name may not share an existing one's
    name_skeleton: str | None = Field(default=None, sa_type=sa.String(64), index=True)
    version: int  # 1, 2, … per name
    command: list[str] = Field(sa_column=Column(JSON, nullable=False))
    content_hash: str = Field(sa_type=sa.String(64), index=True)  # sha256 hex of its files
    language: str = Field(sa_type=sa.String(32))  # python, javascript, … or the program's name
    source: str = Field(default="", sa_type=sa.Text)  # where it was added from (for people)
    added_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    # the user who owns it (sees its logs, faults and files); None: the organiser's (admins')
    owner_id: int | None = Field(default=None, foreign_key="users.id", index=True)
    # the team that owns it (every member may act on it: accounts.ownership); None: its owner's
    team_id: int | None = Field(default=None, foreign_key="teams.id", index=True)
    # where the version stands (store.versions): queued → checking → active | refused, …
    state: str = Field(default="active", sa_type=sa.String(16), index=True)
    reason: str = Field(default="", sa_type=sa.Text)  # why refused or disabled; the check's line
    check_log: str | None = Field(default=None, sa_type=sa.Text)  # what it wrote in its check
    checker: str | None = Field(default=None, sa_type=sa.String(200))  # the runner checking it
    check_claimed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)

    @property
    def label(self) -> str:
        """``name@vN``."""
        return f"{self.name}@v{self.version}"


class SeasonRow(SQLModel, table=True):
    """A league season: rule set, players per game, games, time control, seed and policies."""

    __tablename__ = "seasons"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_type=sa.String(100), unique=True)
    preset: str = Field(sa_type=sa.String(64))
    options: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))  # every option's value
    players: int  # seats per game
    games: int  # matches scheduled (a ladder: so far; it never ends)
    startup_time: float  # seconds: process start to Hello
    decision_time: float  # seconds per decision
    time_bank: float  # seconds per seat per game
    time_increment: float = 0.0  # seconds added to the bank after every answered decision
    time_clock: str = Field(default="cpu", sa_type=sa.String(8))  # "cpu" or "wall": timecontrol
    max_strikes: int  # late/illegal answers tolerated per game; one more forfeits
    seed: int = Field(sa_type=Seed)  # the season's secret (match seeds derive from it)
    fault_policy: str = Field(default="forfeit", sa_type=sa.String(32))  # see FAULT_POLICIES
    keep_memory: bool = True  # bot processes are reused between games (so may keep memory)
    duplicate: bool = False  # each dice seed replayed with the same table in rotated seats
    status: str = Field(default=CREATED, sa_type=sa.String(16))  # created | running | finished
    kind: str = Field(default=SEASON, sa_type=sa.String(16))  # season | ladder (never finishes)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)

    def seed_shown(self) -> str:
        """How the season's seed may be shown: a public one (``--seed 1``: anyone can recompute
        its games) as itself; a secret one only once the season is finished (before, it would
        tell every bot the dice of every game to come)."""
        from hegemon.referee.record import seed_is_public

        if seed_is_public(self.seed):
            return f"{self.seed} (public)"
        return str(self.seed) if self.status == FINISHED else "secret"

    @property
    def is_ladder(self) -> bool:
        """A ladder: a season that never ends (its matches are made as games finish)."""
        return self.kind == LADDER

    @property
    def is_event(self) -> bool:
        """A final event's season (its page is the event's: /event/NAME)."""
        return self.kind == EVENT

    @property
    def is_challenge(self) -> bool:
        """A member's unrated test games (off the boards, out of every rating)."""
        return self.kind == CHALLENGE

    def rule_set(self) -> RuleSet:
        """The season's rule set (preset and every option)."""
        from hegemon.referee.rules import make_rules

        return make_rules(self.preset, self.options)

    def time_control(self) -> TimeControl:
        from hegemon.referee.timecontrol import TimeControl

        return TimeControl(
            startup=self.startup_time,
            decision=self.decision_time,
            bank=self.time_bank,
            increment=self.time_increment,
            max_strikes=self.max_strikes,
            clock=self.time_clock,
        )


class SeasonBotRow(SQLModel, table=True):
    """A bot version taking part in a season (``position``: the order given at creation)."""

    __tablename__ = "season_bots"

    season_id: int = Field(foreign_key="seasons.id", primary_key=True)
    bot_id: int = Field(foreign_key="bots.id", primary_key=True, index=True)
    position: int = 0


class MatchRow(SQLModel, table=True):
    """One scheduled game of a season: who sits where, the dice seed, and its progress.

    ``status``: pending → claimed (a worker plays it) → done (its :class:`GameRow` is stored);
    an arena fault puts it back to pending with ``attempts`` + 1, or to void (given up) when
    :meth:`Store.void_match` is told a maximum of attempts.
    """

    __tablename__ = "matches"
    __table_args__ = (
        sa.UniqueConstraint("season_id", "number"),
        sa.Index("ix_matches_season_id_status", "season_id", "status"),
        # the next match to claim, in order, over the unfinished ones only (migration 0019)
        sa.Index(
            "ix_matches_unfinished",
            "season_id",
            "number",
            sqlite_where=sa.text(UNFINISHED_SQL),
            postgresql_where=sa.text(UNFINISHED_SQL),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="seasons.id")
    number: int  # 1, 2, … in schedule order
    table_number: int = 0  # duplicate seasons: the rotations of one table share it (and the seed)
    seats: list[int] = Field(sa_column=Column(JSON, nullable=False))  # bot ids in seat order
    seed: int = Field(sa_type=Seed)
    status: str = Field(default=PENDING, sa_type=sa.String(16))
    attempts: int = 0  # plays voided by arena faults
    worker: str | None = Field(default=None, sa_type=sa.String(200))
    claimed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_error: str | None = Field(default=None, sa_type=sa.Text)  # why it was last voided


class GameRow(SQLModel, table=True):
    """The result of a finished match (at most one per match)."""

    __tablename__ = "games"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", unique=True)
    record_path: str = Field(sa_type=sa.Text)
    places: list[int] = Field(sa_column=Column(JSON, nullable=False))  # place of each seat, 1 = won
    faults: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))
    finish_reason: str = Field(default="", sa_type=sa.String(200))
    duration: float = 0.0  # seconds
    decisions: int = 0
    worker: str | None = Field(default=None, sa_type=sa.String(200))
    finished_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


@dataclass(frozen=True)
class GameOutcome:
    """What :meth:`Store.finish_match` stores about a played game.

    ``places[i]`` is seat i's place (1 = winner; ties share a place); ``faults`` are dicts with
    ``seat``, ``bot``, ``kind`` (startup, crash, timeout, illegal, protocol), ``detail`` and
    ``decision``. ``record`` and ``logs`` (the game's record and each seat's log) are stored
    in the database with it (:mod:`.records`); ``record_path`` is the local cache's copy.
    """

    record_path: str
    places: Sequence[int]
    faults: Sequence[dict[str, Any]] = ()
    finish_reason: str = ""
    duration: float = 0.0
    decisions: int = 0
    # the record's text and each seat's log, stored with the result (None / (): not stored)
    record: str | None = field(default=None, repr=False, compare=False)
    logs: Sequence[bytes | None] = field(default=(), repr=False, compare=False)

    @classmethod
    def from_result(cls, result: Any, record_path: str | os.PathLike[str]) -> GameOutcome:
        """From a ``hegemon.referee.runner.match.GameResult``."""
        faults = [
            {
                "seat": f.seat,
                "bot": f.bot,
                "kind": f.kind,
                "detail": f.detail,
                "decision": f.decision,
            }
            for f in result.faults
        ]
        return cls(
            str(record_path),
            tuple(result.places),
            faults,
            result.reason,
            float(result.duration),
            int(result.decisions),
        )


@dataclass(frozen=True)
class SeasonProgress:
    """Match counts of a season by status, and who is playing what."""

    season_id: int
    total: int
    pending: int
    claimed: int
    done: int
    void: int
    attempts: int  # arena faults so far (voided plays)
    workers: dict[str, int] = field(default_factory=dict)  # worker → matches it holds

    @property
    def remaining(self) -> int:
        return self.pending + self.claimed

    @property
    def complete(self) -> bool:
        return self.remaining == 0
