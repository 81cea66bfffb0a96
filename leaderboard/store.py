"""The league's database: bots, seasons, their scheduled matches and the games played.

One code path for a SQLite file (the default, ``$HEGEMON_HOME/arena.db``) and PostgreSQL (a
``postgresql://…`` URL, driven by psycopg 3)::

    store = Store("arena.db")                 # or Store("postgresql://me@host/league"), Store()
    with store.session() as s:                # a sqlmodel Session, committed at the end
        bots = s.exec(select(Bot)).all()

Opening a store brings its schema up to date (alembic, scripts in ``leaderboard/migrations``),
so a newer hegemon opens an older database. Every failure of the database itself — a URL that
cannot connect, a corrupt file, a lost connection — surfaces as :class:`StoreError` with one
readable line; nothing is written by a failed call.

Tables (see the models below): ``bots`` (name, version, command, content hash, …), ``seasons``
(rule set, players, games, time control, seed, …), ``season_bots``, ``matches`` (the schedule:
seats and seed of every game to play, and the claim of the worker playing it) and ``games`` (the
result of a finished match; at most one per match).

Work distribution (what ``hegemon season run`` uses; safe with any number of workers, on one
machine or many sharing PostgreSQL):

* :meth:`Store.claim_match` hands a pending match to a worker (``SELECT … FOR UPDATE SKIP
  LOCKED`` on PostgreSQL, a ``BEGIN IMMEDIATE`` write transaction on SQLite); a claim older than
  ``stale_after_s`` is taken over, so a crashed worker's matches get played. A worker still
  playing renews its claim with :meth:`Store.renew_claim`.
* :meth:`Store.finish_match` writes the game and marks the match done in one transaction, and
  only for the worker that still holds the claim: a result is never doubled.
* :meth:`Store.void_match` gives a match back after a fault of the arena (never the bot's).
* :meth:`Store.release_claims` gives back a worker's unfinished claims (on interrupt).

Times are timezone-aware UTC datetimes (:func:`utcnow`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import event, func
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError
from sqlmodel import JSON, Column, Field, Session, SQLModel, select

from . import paths

if TYPE_CHECKING:
    from hegemon.referee.rules import RuleSet
    from hegemon.referee.runner.link import TimeControl

__all__ = [
    "CLAIMED",
    "CREATED",
    "DONE",
    "FAULT_POLICIES",
    "FINISHED",
    "INITIAL_REVISION",
    "MATCH_STATUSES",
    "PENDING",
    "RUNNING",
    "SEASON_STATUSES",
    "VOID",
    "Bot",
    "Game",
    "GameOutcome",
    "Match",
    "Season",
    "SeasonBot",
    "SeasonProgress",
    "Store",
    "StoreError",
    "database_url",
    "utcnow",
]

# Season status
CREATED, RUNNING, FINISHED = "created", "running", "finished"
SEASON_STATUSES = (CREATED, RUNNING, FINISHED)
# Match status
PENDING, CLAIMED, DONE, VOID = "pending", "claimed", "done", "void"
MATCH_STATUSES = (PENDING, CLAIMED, DONE, VOID)

FAULT_POLICIES = {
    "forfeit": "a bot's fault (start-up failure, crash, timeout, too many strikes) disqualifies its "
    "seat: it ranks below every player still in, the game goes on; an arena fault "
    "voids the game, which is played again",
}
"""What a season does about faults (``Season.fault_policy``). One policy so far."""

INITIAL_REVISION = "0001"
"""The alembic revision that creates the whole schema."""

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class StoreError(Exception):
    """A database problem, said in one line (``str(exc)``) fit for the user."""


def utcnow() -> datetime:
    """Now, as the timezone-aware UTC datetime the store keeps."""
    return datetime.now(UTC)


class UTCDateTime(sa.types.TypeDecorator[datetime]):
    """A moment in UTC: stored as ``TIMESTAMP WITH TIME ZONE`` (PostgreSQL) or UTC text without
    an offset (SQLite); read back timezone-aware in UTC on both. Naive values are taken as UTC."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


# ---------------------------------------------------------------------------------- models
class Bot(SQLModel, table=True):
    """One registered version of a bot. Its files are in ``paths.bot_dir(content_hash)``, which
    is its working folder; ``command`` is the argv run there (see ``hegemon.leaderboard.registry``)."""

    __tablename__ = "bots"
    __table_args__ = (sa.UniqueConstraint("name", "version"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_type=sa.String(64), index=True)
    version: int  # 1, 2, … per name
    command: list[str] = Field(sa_column=Column(JSON, nullable=False))
    content_hash: str = Field(sa_type=sa.String(64), index=True)  # sha256 hex of its files
    language: str = Field(sa_type=sa.String(32))  # python, javascript, … or the program's name
    source: str = Field(default="", sa_type=sa.Text)  # where it was added from (for people)
    added_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)

    @property
    def label(self) -> str:
        """``name@vN``."""
        return f"{self.name}@v{self.version}"


class Season(SQLModel, table=True):
    """A league season: rule set, players per game, games, time control, seed and policies."""

    __tablename__ = "seasons"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_type=sa.String(100), unique=True)
    preset: str = Field(sa_type=sa.String(64))
    options: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))  # every option's value
    players: int  # seats per game
    games: int  # matches scheduled
    startup_time: float  # seconds: process start to Hello
    decision_time: float  # seconds per decision
    time_bank: float  # seconds per seat per game
    max_strikes: int  # late/illegal answers tolerated per game; one more forfeits
    seed: int = Field(sa_type=sa.BigInteger)  # the season seed (match seeds derive from it)
    fault_policy: str = Field(default="forfeit", sa_type=sa.String(32))  # see FAULT_POLICIES
    keep_memory: bool = True  # bot processes are reused between games (so may keep memory)
    duplicate: bool = False  # each dice seed replayed with the same table in rotated seats
    status: str = Field(default=CREATED, sa_type=sa.String(16))  # created | running | finished
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)

    def rule_set(self) -> RuleSet:
        """The season's rule set (preset and every option)."""
        from hegemon.referee.rules import make_rules

        return make_rules(self.preset, self.options)

    def time_control(self) -> TimeControl:
        from hegemon.referee.runner.link import TimeControl

        return TimeControl(
            startup=self.startup_time,
            decision=self.decision_time,
            bank=self.time_bank,
            max_strikes=self.max_strikes,
        )


class SeasonBot(SQLModel, table=True):
    """A bot version taking part in a season (``position``: the order given at creation)."""

    __tablename__ = "season_bots"

    season_id: int = Field(foreign_key="seasons.id", primary_key=True)
    bot_id: int = Field(foreign_key="bots.id", primary_key=True, index=True)
    position: int = 0


class Match(SQLModel, table=True):
    """One scheduled game of a season: who sits where, the dice seed, and its progress.

    ``status``: pending → claimed (a worker plays it) → done (its :class:`Game` is stored);
    an arena fault puts it back to pending with ``attempts`` + 1, or to void (given up) when
    :meth:`Store.void_match` is told a maximum of attempts.
    """

    __tablename__ = "matches"
    __table_args__ = (
        sa.UniqueConstraint("season_id", "number"),
        sa.Index("ix_matches_season_id_status", "season_id", "status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="seasons.id")
    number: int  # 1, 2, … in schedule order
    table_number: int = 0  # duplicate seasons: the rotations of one table share it (and the seed)
    seats: list[int] = Field(sa_column=Column(JSON, nullable=False))  # bot ids in seat order
    seed: int = Field(sa_type=sa.BigInteger)
    status: str = Field(default=PENDING, sa_type=sa.String(16))
    attempts: int = 0  # plays voided by arena faults
    worker: str | None = Field(default=None, sa_type=sa.String(200))
    claimed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_error: str | None = Field(default=None, sa_type=sa.Text)  # why it was last voided


class Game(SQLModel, table=True):
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
    ``decision``.
    """

    record_path: str
    places: Sequence[int]
    faults: Sequence[dict[str, Any]] = ()
    finish_reason: str = ""
    duration: float = 0.0
    decisions: int = 0

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


# ---------------------------------------------------------------------------------- URLs
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def database_url(target: str | os.PathLike[str] | None = None) -> URL:
    """The SQLAlchemy URL for ``--db`` / ``HEGEMON_DB`` / the default file.

    A file path (relative to the current folder) means SQLite; ``sqlite:///FILE`` likewise;
    ``postgresql://…`` (or ``postgres://…``) uses the psycopg 3 driver.
    """
    text = paths.db_target(target)
    if not _SCHEME.match(text):
        return URL.create("sqlite", database=str(Path(text).expanduser().absolute()))
    try:
        url = make_url(text)
    except ArgumentError:
        raise StoreError(f"not a database URL or file path: {text}") from None
    backend = url.get_backend_name()
    if backend in ("postgresql", "postgres"):
        if url.drivername in ("postgresql", "postgres"):
            url = url.set(drivername="postgresql+psycopg")
        return url
    if backend == "sqlite":
        return url
    scheme = text.split("://", 1)[0]
    raise StoreError(
        f"unsupported database '{scheme}://': give a file path, sqlite:///FILE "
        "or postgresql://USER@HOST/DATABASE"
    )


def _display(url: URL) -> str:
    shown = (
        url.set(drivername=url.get_backend_name())
        if url.get_backend_name() == "postgresql"
        else url
    )
    return shown.render_as_string(hide_password=True)


def _one_line(exc: BaseException) -> str:
    """The driver's message of a database error, on one line."""
    inner = getattr(exc, "orig", None) or exc
    text = str(inner) or type(inner).__name__
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    # SQLAlchemy appends "(Background on this error at: …)" and the SQL; keep the message.
    lines = [
        ln
        for ln in lines
        if not ln.startswith(("(Background on this error", "[SQL:", "[parameters:"))
    ]
    line = " ".join(lines) or type(inner).__name__
    line = re.sub(r"^\([\w.]+\)\s*", "", line)
    return line if len(line) <= 300 else line[:297] + "..."


# ---------------------------------------------------------------------------------- the store
class Store:
    """A hegemon database. ``Store()`` opens the default one (see :mod:`hegemon.leaderboard.paths`).

    ``target``: a file path or URL (``None``: ``$HEGEMON_DB``, else ``$HEGEMON_HOME/arena.db``).
    ``create=False`` refuses to create a SQLite file that does not exist yet (raises
    :class:`StoreError`). The schema is migrated to the current revision on open.
    """

    def __init__(
        self,
        target: str | os.PathLike[str] | None = None,
        *,
        create: bool = True,
        echo: bool = False,
    ):
        self.url = database_url(target)
        self.display = _display(self.url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        self.is_postgres = self.url.get_backend_name() == "postgresql"
        if self.is_sqlite:
            self._prepare_sqlite_file(create)
        self.engine = self._make_engine(echo)
        try:
            upgrade(self.engine, "head")
        except StoreError:
            self.engine.dispose()
            raise
        except Exception as exc:
            self.engine.dispose()
            raise StoreError(f"cannot open database {self.display}: {_one_line(exc)}") from exc

    # ------------------------------------------------------------------ plumbing
    def _prepare_sqlite_file(self, create: bool) -> None:
        database = self.url.database or ""
        if database in ("", ":memory:") or database.startswith("file:"):
            return
        path = Path(database)
        if path.exists():
            if path.is_dir():
                raise StoreError(f"cannot open database {self.display}: it is a folder")
            return
        if not create:
            raise StoreError(f"no database at {path}")
        if path.parent.resolve() == paths.home().resolve():
            path.parent.mkdir(parents=True, exist_ok=True)

    def _make_engine(self, echo: bool) -> Engine:
        if self.is_sqlite:
            kwargs: dict[str, Any] = {"connect_args": {"timeout": 30}}
            if (self.url.database or ":memory:") == ":memory:":
                kwargs["poolclass"] = sa.pool.StaticPool
                kwargs["connect_args"]["check_same_thread"] = False
            engine = sa.create_engine(self.url, echo=echo, **kwargs)
            _sqlite_transactions(engine)
            return engine
        connect_args = {"connect_timeout": 10} if self.is_postgres else {}
        try:
            return sa.create_engine(
                self.url, echo=echo, pool_pre_ping=True, connect_args=connect_args
            )
        except ModuleNotFoundError as exc:
            raise StoreError(
                f"cannot open database {self.display}: the driver is not installed "
                f"({exc.name}); for PostgreSQL: pip install 'hegemon[postgres]'"
            ) from None

    def _error(self, exc: BaseException) -> StoreError:
        return StoreError(f"database {self.display}: {_one_line(exc)}")

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.display!r})"

    @contextmanager
    def session(self, write: bool = False) -> Iterator[Session]:
        """A sqlmodel Session in one transaction: committed when the block ends, rolled back if
        it raises. Objects stay usable after the block (not expired on commit).

        ``write=True`` takes the write lock at the start (SQLite ``BEGIN IMMEDIATE``), which a
        transaction that reads and then writes should do, so concurrent writers wait their turn
        instead of failing. Database errors raise :class:`StoreError`.
        """
        session = Session(
            self.engine,
            expire_on_commit=False,
            execution_options={"hegemon_write": True} if write else {},
        )
        try:
            with session.begin():
                yield session
        except StoreError:
            raise
        except SQLAlchemyError as exc:
            raise self._error(exc) from exc
        finally:
            session.close()

    def _lock(self, query: Any) -> Any:
        return query.with_for_update() if self.is_postgres else query

    def revision(self) -> str | None:
        """The database's schema revision (alembic)."""
        from alembic.runtime.migration import MigrationContext

        try:
            with self.engine.connect() as conn:
                return MigrationContext.configure(conn).get_current_revision()
        except SQLAlchemyError as exc:
            raise self._error(exc) from exc

    # ------------------------------------------------------------------ bots
    def add_bot(
        self, name: str, command: Sequence[str], content_hash: str, language: str, source: str = ""
    ) -> Bot:
        """Register the next version of ``name`` (v1 for a new name)."""
        for _ in range(5):
            try:
                with self.session(write=True) as s:
                    last = s.exec(select(func.max(Bot.version)).where(Bot.name == name)).one()
                    bot = Bot(
                        name=name,
                        version=(last or 0) + 1,
                        command=list(command),
                        content_hash=content_hash,
                        language=language,
                        source=source,
                    )
                    s.add(bot)
                    s.flush()
                    return bot
            except StoreError as exc:
                if not isinstance(exc.__cause__, IntegrityError):
                    raise
        raise StoreError(f"could not register {name}: other registrations kept getting in the way")

    def get_bot(self, bot_id: int) -> Bot | None:
        with self.session() as s:
            return s.get(Bot, bot_id)

    def find_bot(self, name: str, version: int | None = None) -> Bot | None:
        """``name`` at ``version``, or its latest version."""
        with self.session() as s:
            query = select(Bot).where(Bot.name == name)
            if version is not None:
                query = query.where(Bot.version == version)
            return s.exec(query.order_by(Bot.version.desc()).limit(1)).first()

    def find_bot_by_hash(self, name: str, content_hash: str) -> Bot | None:
        """The version of ``name`` with exactly these files, if registered."""
        with self.session() as s:
            return s.exec(
                select(Bot)
                .where(Bot.name == name, Bot.content_hash == content_hash)
                .order_by(Bot.version)
                .limit(1)
            ).first()

    def bots(self, name: str | None = None, latest_only: bool = False) -> list[Bot]:
        """Registered bots by name, then version (only each name's newest with ``latest_only``)."""
        with self.session() as s:
            query = select(Bot)
            if name is not None:
                query = query.where(Bot.name == name)
            found = list(s.exec(query.order_by(Bot.name, Bot.version)).all())
        if latest_only:
            newest: dict[str, Bot] = {}
            for bot in found:
                newest[bot.name] = bot
            found = list(newest.values())
        return found

    def bots_by_id(self, ids: Iterable[int]) -> dict[int, Bot]:
        wanted = set(ids)
        if not wanted:
            return {}
        with self.session() as s:
            return {b.id: b for b in s.exec(select(Bot).where(Bot.id.in_(wanted))).all()}

    def seasons_using_bot(self, bot_id: int) -> list[Season]:
        with self.session() as s:
            return list(
                s.exec(
                    select(Season)
                    .join(SeasonBot, SeasonBot.season_id == Season.id)
                    .where(SeasonBot.bot_id == bot_id)
                    .order_by(Season.id)
                ).all()
            )

    def remove_bot(self, bot_id: int) -> Bot:
        """Delete a bot version that no season uses (raises :class:`StoreError` otherwise).
        Its stored files are the caller's business (other versions may share them)."""
        with self.session(write=True) as s:
            bot = s.get(Bot, bot_id)
            if bot is None:
                raise StoreError(f"no bot with id {bot_id}")
            used = s.exec(
                select(Season.name)
                .join(SeasonBot, SeasonBot.season_id == Season.id)
                .where(SeasonBot.bot_id == bot_id)
                .order_by(Season.id)
            ).all()
            if used:
                raise StoreError(
                    f"{bot.label} plays in season(s) {', '.join(used)}; "
                    "a bot with a season cannot be removed"
                )
            s.delete(bot)
            return bot

    def hash_in_use(self, content_hash: str) -> bool:
        """Whether any registered bot version uses the files with this hash."""
        with self.session() as s:
            return (
                s.exec(select(Bot.id).where(Bot.content_hash == content_hash).limit(1)).first()
                is not None
            )

    # ------------------------------------------------------------------ seasons
    def create_season(
        self, season: Season, bot_ids: Sequence[int], schedule: Iterable[Any]
    ) -> Season:
        """Store a new season, its bots and its matches in one transaction.

        ``schedule``: objects with ``number``, ``table``, ``seats`` (bot ids) and ``seed``
        (see :func:`hegemon.leaderboard.schedule.make_schedule`). Raises :class:`StoreError` if the
        name is taken or a bot is unknown; then nothing is written.
        """
        with self.session(write=True) as s:
            if s.exec(select(Season.id).where(Season.name == season.name)).first() is not None:
                raise StoreError(f"a season named '{season.name}' already exists")
            known = set(s.exec(select(Bot.id).where(Bot.id.in_(list(bot_ids)))).all())
            missing = [b for b in bot_ids if b not in known]
            if missing:
                raise StoreError(f"no bot with id {missing[0]}")
            row = Season.model_validate(season.model_dump(exclude={"id"}))
            s.add(row)
            s.flush()
            for position, bot_id in enumerate(bot_ids):
                s.add(SeasonBot(season_id=row.id, bot_id=bot_id, position=position))
            count = 0
            for m in schedule:
                seats = [int(b) for b in m.seats]
                if not set(seats) <= known:
                    raise StoreError(f"match {m.number} seats a bot that is not in the season")
                s.add(
                    Match(
                        season_id=row.id,
                        number=m.number,
                        table_number=m.table,
                        seats=seats,
                        seed=m.seed,
                    )
                )
                count += 1
            row.games = count
            try:
                s.flush()
            except IntegrityError as exc:
                raise StoreError(f"cannot create season '{season.name}': {_one_line(exc)}") from exc
            return row

    def get_season(self, season_id: int) -> Season | None:
        with self.session() as s:
            return s.get(Season, season_id)

    def season_by_name(self, name: str) -> Season | None:
        with self.session() as s:
            return s.exec(select(Season).where(Season.name == name)).first()

    def seasons(self) -> list[Season]:
        with self.session() as s:
            return list(s.exec(select(Season).order_by(Season.id)).all())

    def season_bots(self, season_id: int) -> list[Bot]:
        """The season's bot versions, in the order they were given."""
        with self.session() as s:
            return list(
                s.exec(
                    select(Bot)
                    .join(SeasonBot, SeasonBot.bot_id == Bot.id)
                    .where(SeasonBot.season_id == season_id)
                    .order_by(SeasonBot.position)
                ).all()
            )

    def set_season_status(self, season_id: int, status: str) -> None:
        if status not in SEASON_STATUSES:
            raise ValueError(f"unknown season status {status!r}")
        with self.session(write=True) as s:
            season = s.get(Season, season_id)
            if season is None:
                raise StoreError(f"no season with id {season_id}")
            season.status = status
            season.finished_at = utcnow() if status == FINISHED else None

    def matches(self, season_id: int, status: str | None = None) -> list[Match]:
        """The season's matches in schedule order (optionally only those with ``status``)."""
        with self.session() as s:
            query = select(Match).where(Match.season_id == season_id)
            if status is not None:
                query = query.where(Match.status == status)
            return list(s.exec(query.order_by(Match.number)).all())

    def get_match(self, match_id: int) -> Match | None:
        with self.session() as s:
            return s.get(Match, match_id)

    def games(self, season_id: int) -> list[tuple[Match, Game]]:
        """Every finished game of the season with its match, in schedule order."""
        with self.session() as s:
            rows = s.exec(
                select(Match, Game)
                .join(Game, Game.match_id == Match.id)
                .where(Match.season_id == season_id)
                .order_by(Match.number)
            ).all()
            return [(m, g) for m, g in rows]

    def all_games(self) -> list[tuple[Match, Game]]:
        """Every finished game of every season (by season, then schedule order)."""
        with self.session() as s:
            rows = s.exec(
                select(Match, Game)
                .join(Game, Game.match_id == Match.id)
                .order_by(Match.season_id, Match.number)
            ).all()
            return [(m, g) for m, g in rows]

    def progress(self, season_id: int) -> SeasonProgress:
        """How far the season is: match counts by status, attempts, current claims."""
        with self.session() as s:
            counts = dict(
                s.exec(
                    select(Match.status, func.count())
                    .where(Match.season_id == season_id)
                    .group_by(Match.status)
                ).all()
            )
            attempts = s.exec(
                select(func.coalesce(func.sum(Match.attempts), 0)).where(
                    Match.season_id == season_id
                )
            ).one()
            workers = dict(
                s.exec(
                    select(Match.worker, func.count())
                    .where(Match.season_id == season_id, Match.status == CLAIMED)
                    .group_by(Match.worker)
                ).all()
            )
        return SeasonProgress(
            season_id,
            sum(counts.values()),
            counts.get(PENDING, 0),
            counts.get(CLAIMED, 0),
            counts.get(DONE, 0),
            counts.get(VOID, 0),
            int(attempts or 0),
            {str(k): int(v) for k, v in workers.items()},
        )

    # ------------------------------------------------------------------ work distribution
    def claim_match(
        self, season_id: int, worker: str, stale_after_s: float = 3600.0
    ) -> Match | None:
        """Give ``worker`` the next match to play (lowest number first), or None when nothing is
        left to claim. A match claimed more than ``stale_after_s`` seconds ago (by a worker that
        died, or one that forgot to :meth:`renew_claim`) is claimed again. The season becomes
        ``running``. Safe under concurrency: two workers never hold the same match.
        """
        now = utcnow()
        cutoff = now - timedelta(seconds=stale_after_s)
        with self.session(write=True) as s:
            query = (
                select(Match)
                .where(
                    Match.season_id == season_id,
                    sa.or_(
                        Match.status == PENDING,
                        sa.and_(Match.status == CLAIMED, Match.claimed_at <= cutoff),
                    ),
                )
                .order_by(Match.number)
                .limit(1)
            )
            if self.is_postgres:
                query = query.with_for_update(skip_locked=True)
            match = s.exec(query).first()
            if match is None:
                return None
            match.status = CLAIMED
            match.worker = worker
            match.claimed_at = now
            s.exec(
                sa.update(Season)
                .where(Season.id == season_id, Season.status == CREATED)
                .values(status=RUNNING)
            )
            s.flush()
            return match

    def renew_claim(self, match_id: int, worker: str) -> bool:
        """Refresh the claim's time (a heartbeat for long games); False if the claim was lost."""
        with self.session(write=True) as s:
            result = s.exec(
                sa.update(Match)
                .where(Match.id == match_id, Match.worker == worker, Match.status == CLAIMED)
                .values(claimed_at=utcnow())
            )
            return result.rowcount == 1

    def _held_claim(self, s: Session, match_id: int, worker: str) -> Match | None:
        """The match, locked with its season, if ``worker`` holds its claim; else None."""
        match = s.exec(self._lock(select(Match).where(Match.id == match_id))).first()
        if match is None:
            return None
        self._lock_season(s, match.season_id)
        if match.status != CLAIMED or match.worker != worker:
            return None
        return match

    def finish_match(self, match_id: int, worker: str, outcome: GameOutcome) -> bool:
        """Store the game and mark the match done, in one transaction — only if ``worker`` still
        holds the claim. Returns False (writing nothing) if the match is done already or now
        claimed by someone else. The season becomes ``finished`` with its last match."""
        try:
            with self.session(write=True) as s:
                match = self._held_claim(s, match_id, worker)
                if match is None:
                    return False
                s.add(
                    Game(
                        match_id=match.id,
                        record_path=str(outcome.record_path),
                        places=[int(p) for p in outcome.places],
                        faults=[dict(f) for f in outcome.faults],
                        finish_reason=outcome.finish_reason,
                        duration=float(outcome.duration),
                        decisions=int(outcome.decisions),
                        worker=worker,
                    )
                )
                match.status = DONE
                s.flush()
                self._finish_season_if_complete(s, match.season_id)
                return True
        except StoreError as exc:
            if isinstance(exc.__cause__, IntegrityError):
                return False  # a game for this match exists already
            raise

    def void_match(
        self, match_id: int, worker: str, reason: str, max_attempts: int | None = None
    ) -> bool:
        """An arena fault spoiled the game (not the bots' doing): give the match back to
        pending with ``attempts`` + 1 and the reason; with ``max_attempts`` reached it becomes
        void instead (never played, never scored). False if ``worker`` no longer holds it."""
        with self.session(write=True) as s:
            match = self._held_claim(s, match_id, worker)
            if match is None:
                return False
            match.attempts += 1
            match.last_error = reason[:2000]
            match.worker = None
            match.claimed_at = None
            give_up = max_attempts is not None and match.attempts >= max_attempts
            match.status = VOID if give_up else PENDING
            s.flush()
            if give_up:
                self._finish_season_if_complete(s, match.season_id)
            return True

    def release_claims(self, worker: str, season_id: int | None = None) -> int:
        """Put the matches ``worker`` holds back to pending (interrupted, nothing counted);
        returns how many."""
        with self.session(write=True) as s:
            query = sa.update(Match).where(Match.worker == worker, Match.status == CLAIMED)
            if season_id is not None:
                query = query.where(Match.season_id == season_id)
            result = s.exec(query.values(status=PENDING, worker=None, claimed_at=None))
            return int(result.rowcount or 0)

    def _lock_season(self, s: Session, season_id: int) -> None:
        # Serialises the finishers of one season on PostgreSQL, so that the one finishing the
        # last match sees every other and marks the season finished (SQLite: one writer anyway).
        if self.is_postgres:
            s.exec(select(Season.id).where(Season.id == season_id).with_for_update()).first()

    def _finish_season_if_complete(self, s: Session, season_id: int) -> None:
        left = s.exec(
            select(func.count())
            .select_from(Match)
            .where(Match.season_id == season_id, Match.status.in_((PENDING, CLAIMED)))
        ).one()
        if left == 0:
            s.exec(
                sa.update(Season)
                .where(Season.id == season_id)
                .values(status=FINISHED, finished_at=utcnow())
            )


# ---------------------------------------------------------------------------------- SQLite
def _sqlite_transactions(engine: Engine) -> None:
    """Real transactions on SQLite: we emit BEGIN ourselves (BEGIN IMMEDIATE for writers), turn
    on foreign keys, and use write-ahead logging so readers never wait for the runner."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA foreign_keys=ON")
            database = engine.url.database or ""
            if database and database != ":memory:":
                cursor.execute("PRAGMA journal_mode=WAL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        write = conn.get_execution_options().get("hegemon_write")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


# ---------------------------------------------------------------------------------- migrations
def alembic_config() -> Any:
    """The alembic configuration of hegemon's migrations (no alembic.ini needed)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database to ``revision`` in one transaction (concurrent openers wait)."""
    from alembic import command
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    config = alembic_config()
    script = ScriptDirectory.from_config(config)
    with engine.connect() as conn:
        conn = conn.execution_options(hegemon_write=True)
        with conn.begin():
            if engine.dialect.name == "postgresql":
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(4851563265)")  # "hegemon"
            current = MigrationContext.configure(conn).get_current_revision()
            if current is not None:
                try:
                    script.get_revision(current)
                except Exception:
                    raise StoreError(
                        f"cannot open database {_display(engine.url)}: it was written "
                        f"by a newer hegemon (schema revision {current}); upgrade "
                        "hegemon to open it"
                    ) from None
            if current == revision or (revision == "head" and current == script.get_current_head()):
                return
            config.attributes["connection"] = conn
            command.upgrade(config, revision)
