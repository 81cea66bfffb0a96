"""The league's database: bots, seasons, their scheduled matches and the games played.

One code path for a SQLite file (the default, ``$HEGEMON_HOME/arena.db``) and PostgreSQL (a
``postgresql://…`` URL, driven by psycopg 3)::

    store = Store("arena.db")                 # or Store("postgresql://me@host/league"), Store()
    with store.session() as s:                # a sqlmodel Session, committed at the end
        bots = s.exec(select(BotRow)).all()

Opening a store brings its schema up to date (alembic, scripts in ``leaderboard/migrations``),
so a newer hegemon opens an older database. Every failure of the database itself — a URL that
cannot connect, a corrupt file, a lost connection — surfaces as :class:`StoreError` with one
readable line; nothing is written by a failed call.

Tables (see the models below): ``bots`` (name, version, command, content hash, …), ``seasons``
(rule set, players, games, time control, seed, …), ``season_bots``, ``matches`` (the schedule:
seats and seed of every game to play, and the claim of the worker playing it) and ``games`` (the
result of a finished match; at most one per match); the accounts' ``users``, ``invitations``,
``user_sessions`` and ``api_tokens`` (:mod:`.accounts`; a bot's ``owner_id`` is its user);
the notifications' ``notices``, ``webhooks``, ``deliveries`` and ``notice_prefs`` (:mod:`.notices`);
the ``teams`` and their ``team_members`` (:mod:`.teams`; a team's bot has its ``team_id``); the
games in play's ``live_games`` (:mod:`.live`); the members' ``challenges`` (:mod:`.challenges`:
unrated test games, each a season of its own).

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

from .accounts import ADMIN, MEMBER, ROLES, ApiTokenRow, InvitationRow, SessionRow, UserRow
from .bots import BotStore
from .challenges import ChallengeRow
from .claims import ClaimStore
from .database import (
    INITIAL_REVISION,
    MIGRATIONS_DIR,
    StoreError,
    alembic_config,
    database_url,
    head_revision,
    upgrade,
)
from .events import EventRow
from .live import LiveGameRow
from .models import (
    CHALLENGE,
    CLAIMED,
    CREATED,
    DONE,
    EVENT,
    FAULT_POLICIES,
    FINISHED,
    LADDER,
    PENDING,
    RUNNING,
    SEASON,
    VOID,
    BotRow,
    GameOutcome,
    GameRow,
    MatchRow,
    SeasonBotRow,
    SeasonProgress,
    SeasonRow,
    utcnow,
)
from .notices import DeliveryRow, NoticePrefsRow, NoticeRow, WebhookRow
from .pins import PinRow
from .progress import SeasonProgressRow
from .rating_fits import RatingFitRow
from .records import StoredLogRow, StoredRecordRow
from .runner_tokens import RunnerTokenRow
from .seasons import SeasonStore
from .teams import TeamMemberRow, TeamRow
from .versions import VersionStore

__all__ = [
    "ADMIN",
    "CHALLENGE",
    "CLAIMED",
    "CREATED",
    "DONE",
    "EVENT",
    "FAULT_POLICIES",
    "FINISHED",
    "INITIAL_REVISION",
    "LADDER",
    "MEMBER",
    "MIGRATIONS_DIR",
    "PENDING",
    "ROLES",
    "RUNNING",
    "SEASON",
    "VOID",
    "ApiTokenRow",
    "BotRow",
    "ChallengeRow",
    "DeliveryRow",
    "EventRow",
    "GameOutcome",
    "GameRow",
    "InvitationRow",
    "LiveGameRow",
    "MatchRow",
    "NoticePrefsRow",
    "NoticeRow",
    "PinRow",
    "RatingFitRow",
    "RunnerTokenRow",
    "SeasonBotRow",
    "SeasonProgress",
    "SeasonProgressRow",
    "SeasonRow",
    "SessionRow",
    "Store",
    "StoreError",
    "StoredLogRow",
    "StoredRecordRow",
    "TeamMemberRow",
    "TeamRow",
    "UserRow",
    "WebhookRow",
    "alembic_config",
    "database_url",
    "head_revision",
    "upgrade",
    "utcnow",
]


class Store(BotStore, VersionStore, SeasonStore, ClaimStore):
    """A hegemon database. ``Store()`` opens the default one (see :mod:`hegemon.leaderboard.paths`).

    ``target``: a file path or URL (``None``: ``$HEGEMON_DB``, else ``$HEGEMON_HOME/arena.db``).
    ``create=False`` refuses to create a SQLite file that does not exist yet (raises
    :class:`StoreError`). The schema is migrated to the current revision on open.

    Its jobs live in one module each: :mod:`.database` (URL, engine, sessions, migrations),
    :mod:`.bots`, :mod:`.versions` (versions' states, the check queue), :mod:`.seasons` and
    :mod:`.claims` (work distribution).
    """
