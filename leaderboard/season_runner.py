"""Playing a season's matches: ``hegemon season run``.

One runner (one process) plays up to ``concurrency`` games at once under trio, with one
:class:`~referee.runner.session.LinkPool` whose bot processes are reused between games (unless
the season restarts them per game, and a duplicate season always does: no process plays two
rotations of one deal). Any number of runners — on one machine, or on several
sharing one PostgreSQL database — may work on the same season: the database is the only
coordinator.

For each match a runner:

1. **claims** it (:meth:`Store.claim_match`: ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, a write
   transaction on SQLite), and renews the claim while the game runs (a heartbeat every quarter
   of ``stale_after``);
2. **plays** it (:func:`~referee.runner.session.play_game`; game id ``"<season>-<number>"``,
   the match's dice seed, the season's time control);
3. **writes the record** to ``$HEGEMON_HOME/records/<season>/<number>.jsonl`` (a temporary
   file renamed into place, so a record is whole or absent);
4. **commits** the result in one transaction (:meth:`Store.finish_match`), which stores the
   game only if this runner still holds the claim — a result is never doubled.

Before its first game a runner **materialises** the season's bots: their files come from the
database's archives into this machine's ``$HEGEMON_HOME/bots`` (verified against their content
hash), so a runner needs nothing but the database URL. A database that cannot be reached (a
restart, a network cut) is retried with backoff for up to ``reconnect_for`` seconds while the
games in flight play on; a claim or a commit whose answer was lost is recognised afterwards
(released again, or counted as stored), so an outage loses and doubles nothing. ``hegemon
season run --workers N`` runs N such runners as processes
(:mod:`hegemon.leaderboard.season_workers`).

Faults of the arena (the referee raised, the record could not be written, the database failed
while committing) are not the bots': the match is voided (:meth:`Store.void_match`) and played
again, up to ``max_attempts`` plays, after which it stays void — never scored. Bot faults are
the referee's business (forfeits) and are stored with the result.

Stopping:

* cancellation (Ctrl-C / SIGTERM in ``hegemon season run``) abandons the games in flight: their
  claims are released, nothing of them is recorded, the bots are killed; a later run resumes;
* a runner killed outright (SIGKILL, a crash, a lost machine) leaves claims behind: another
  runner takes them over once they are ``stale_after`` seconds old, or at once if the dead
  runner was on the same machine (its process is gone — see :func:`worker_is_dead`). What
  it had committed stays; what it had not is played again, once.

A runner ends when nothing is left to claim and no other worker holds a claim (it waits for
other workers' games, which may be given back, rather than leaving the season unfinished).
"""

from __future__ import annotations

import math
import os
import secrets
import signal
import socket
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

import trio
from sqlalchemy import exc as sa_exc
from sqlmodel import col, select

from hegemon.referee.runner.botlog import logs_dir, write_seat_logs
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.runner.session import link_pool, play_game

from . import paths
from .limits import DEFAULT_MAX_ATTEMPTS, DEFAULT_STALE_AFTER
from .paths import safe_name
from .store import (
    FINISHED,
    Bot,
    Game,
    GameOutcome,
    Match,
    Season,
    SeasonProgress,
    Store,
    StoreError,
)
from .store.claims import HEARTBEAT_MAX

__all__ = [
    "DEFAULT_MAX_ATTEMPTS",
    "DEFAULT_RECONNECT_FOR",
    "DEFAULT_STALE_AFTER",
    "RunState",
    "RunnerError",
    "SeasonRunner",
    "bot_command",
    "default_worker_id",
    "is_disconnect",
    "materialise",
    "record_path",
    "run_season",
    "run_until_signalled",
    "worker_is_dead",
]

T = TypeVar("T")

DEFAULT_RECONNECT_FOR = 600.0
"""Seconds a runner keeps retrying a database it cannot reach before it gives up."""


class RunnerError(Exception):
    """A reason the run cannot go on, in one line fit for the user."""


# ---------------------------------------------------------------------------------- helpers
def default_worker_id() -> str:
    """``host:pid:xxxx`` — unique among live runners (the random part covers containers that
    share a host name and pid numbers)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(2)}"


def record_path(season_name: str, number: int) -> Path:
    """Where match ``number`` of the season keeps its record."""
    return paths.records_dir() / safe_name(season_name) / f"{number}.jsonl"


def write_record(path: Path, text: str) -> None:
    """Write a record whole or not at all (temporary file, fsync, rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def materialise(store: Store, bot: Bot) -> Path:
    """The bot's files on this machine, fetched from the database's archive on first use
    (:func:`hegemon.leaderboard.registry.materialise`); raises :class:`RunnerError` if they
    cannot be had."""
    from .registry import RegistryError
    from .registry import materialise as fetch

    try:
        return fetch(store, bot)
    except RegistryError as exc:
        raise RunnerError(str(exc)) from None


def is_disconnect(exc: StoreError) -> bool:
    """Whether the database failed for want of a connection (worth retrying until it is
    back), rather than refusing the statement."""
    cause = exc.__cause__
    if isinstance(cause, sa_exc.DBAPIError) and cause.connection_invalidated:
        return True
    return isinstance(cause, (sa_exc.OperationalError, sa_exc.InterfaceError))


def bot_command(bot: Bot) -> BotCommand:
    """How to start a registered bot version (:func:`hegemon.leaderboard.registry.bot_command`);
    raises :class:`RunnerError` if it cannot run here."""
    from .registry import RegistryError
    from .registry import bot_command as registered_command

    try:
        command = registered_command(bot)
    except RegistryError as exc:
        raise RunnerError(str(exc)) from None
    assert isinstance(command, BotCommand)
    return command


def _boot_time() -> float | None:
    try:
        with open("/proc/stat", encoding="ascii") as f:
            for line in f:
                if line.startswith("btime "):
                    return float(line.split()[1])
    except OSError:
        pass
    return None


def _proc_stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after "pid (comm)" (state first), if readable."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _process_start(fields: list[str]) -> float | None:
    """When the process of these stat fields started (epoch seconds), if this system says."""
    boot = _boot_time()
    try:
        ticks = int(fields[19])  # field 22 of /proc/PID/stat
    except (IndexError, ValueError):
        return None
    if boot is None:
        return None
    return boot + ticks / os.sysconf("SC_CLK_TCK")


def worker_is_dead(worker: str, claimed_at: datetime | None) -> bool:
    """Whether ``worker`` (an id made by :func:`default_worker_id`) is a runner of this machine
    whose process is gone — or was replaced by a process started after the claim. Only ever
    True for this machine's default ids; any doubt says "alive" (the claim then waits for
    ``stale_after``)."""
    parts = worker.split(":")
    if len(parts) != 3 or parts[0] != socket.gethostname():
        return False
    try:
        pid = int(parts[1])
    except ValueError:
        return False
    if pid == os.getpid() or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass
    except OSError:
        return False
    fields = _proc_stat(pid)
    if fields is None:
        return False
    if fields and fields[0] in ("Z", "X"):
        return True  # killed, not yet reaped by its parent
    started = _process_start(fields)
    if started is None or claimed_at is None:
        return False
    return started > claimed_at.timestamp() + 2.0  # that pid is a newer process now


# ---------------------------------------------------------------------------------- state
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
PlayGame = Callable[..., Awaitable[Any]]


# ---------------------------------------------------------------------------------- runner
class SeasonRunner:
    """Plays one season's pending matches: ``await SeasonRunner(store, season).run()``.

    ``on_change(state)`` is called whenever the counts move; ``log(line)`` for notable events
    (voided games, lost claims, waiting for other workers). ``play`` replaces
    :func:`play_game` (tests inject arena faults with it).
    """

    def __init__(
        self,
        store: Store,
        season: Season,
        *,
        concurrency: int = 1,
        worker: str | None = None,
        stale_after: float = DEFAULT_STALE_AFTER,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        on_change: Listener | None = None,
        log: Logger | None = None,
        play: PlayGame | None = None,
        poll_interval: float | None = None,
        reconnect_for: float = DEFAULT_RECONNECT_FOR,
    ):
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        if stale_after <= 0:
            raise ValueError("stale_after must be positive")
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        assert season.id is not None
        self.store = store
        self.season = season
        self.season_id: int = season.id
        self.concurrency = concurrency
        self.worker = worker or default_worker_id()
        self.stale_after = stale_after
        self.max_attempts = max_attempts
        self.on_change = on_change
        self.log = log or (lambda line: None)
        self.play = play or play_game
        self.heartbeat = max(0.2, min(HEARTBEAT_MAX, stale_after / 4))
        self.poll = (
            poll_interval if poll_interval is not None else max(0.2, min(2.0, stale_after / 10))
        )
        self.reconnect_for = reconnect_for
        self._down_since: float | None = None
        self._claiming = 0  # claim calls under way (their matches are not in flight yet)
        self.state = RunState(season.name, self.worker, concurrency)
        self.rules = season.rule_set()
        self.time_control = season.time_control()
        self._in_flight: dict[int, trio.CancelScope] = {}
        self._bots: dict[int, Bot] = {}
        self._commands: dict[int, BotCommand] = {}

    # -------------------------------------------------------------- the database, off the loop
    async def _db(
        self, fn: Callable[..., T], *args: Any, retries: int = 2, reconnect: bool = True
    ) -> T:
        """Run a store call in a worker thread (so bots' clocks never wait for the database).

        A lost or refused connection (the server restarting, the network gone) is retried with
        backoff — 0.25 s doubling to 5 s — for up to ``reconnect_for`` seconds (with
        ``reconnect``; the games in flight play on meanwhile); any other database error is
        retried ``retries`` times after a short pause. Every store call is safe to repeat:
        a commit whose answer was lost is recognised on the retry, never doubled."""
        delay, pause, attempt = 0.25, 0.5, 0
        began: float | None = None
        while True:
            try:
                result = await trio.to_thread.run_sync(fn, *args)
            except StoreError as exc:
                if reconnect and is_disconnect(exc):
                    now = trio.current_time()
                    began = now if began is None else began
                    if self._down_since is None:
                        self._down_since = now
                        self.log(
                            f"database unreachable ({exc}); retrying for up to "
                            f"{self.reconnect_for:g} s"
                        )
                    if now - began >= self.reconnect_for:
                        raise
                    await trio.sleep(delay)
                    delay = min(delay * 2, 5.0)
                    continue
                if attempt >= retries:
                    raise
                attempt += 1
                await trio.sleep(pause)
                pause *= 4
                continue
            if self._down_since is not None:
                self.log(
                    f"database reachable again after {trio.current_time() - self._down_since:.0f} s"
                )
                self._down_since = None
            return result

    def _changed(self) -> None:
        self.state.in_flight = len(self._in_flight)
        if self.on_change is not None:
            self.on_change(self.state)

    def _apply_progress(self, progress: SeasonProgress) -> None:
        s = self.state
        s.total, s.done, s.void = progress.total, progress.done, progress.void
        s.pending, s.claimed = progress.pending, progress.claimed
        s.others = sum(n for w, n in progress.workers.items() if w != self.worker)
        self._changed()

    async def refresh(self) -> SeasonProgress:
        progress = await self._db(self.store.progress, self.season_id)
        self._apply_progress(progress)
        return progress

    # -------------------------------------------------------------- the run
    async def run(self) -> RunState:
        """Play until the season has nothing left for this runner; returns the final state.
        Cancelling it abandons the games in flight and releases every claim it holds."""
        self._bots = {
            b.id: b
            for b in await self._db(self.store.season_bots, self.season_id)
            if b.id is not None
        }
        for bot in self._bots.values():  # fetched from the database on first use here
            await self._db(materialise, self.store, bot)
        self._commands = {bot_id: bot_command(bot) for bot_id, bot in self._bots.items()}
        self.state.faults = await self._db(_count_faults, self.store, self.season_id)
        # Claims under our own id can only be left over from a dead process with the same
        # --worker id; claims of dead runners of this machine are free at once.
        await self._db(self.store.release_claims, self.worker, self.season_id)
        await self._release_dead_workers()
        progress = await self.refresh()
        self.state.done_at_start = progress.done
        self.state.started = time.monotonic()
        try:
            # duplicate: rotations of one deal never meet the same process (nor its /tmp)
            fresh = not self.season.keep_memory or self.season.duplicate
            async with link_pool(self.time_control, restart_per_game=fresh) as pool:
                async with trio.open_nursery() as helpers:
                    helpers.start_soon(self._heartbeat)
                    helpers.start_soon(self._refresh_loop)
                    async with trio.open_nursery() as workers:
                        for _ in range(self.concurrency):
                            workers.start_soon(self._worker, pool)
                    helpers.cancel_scope.cancel()
        except BaseExceptionGroup as group:
            # A task's database or runner error stops the run: raise it as itself.
            reason = _user_error(group)
            if reason is None:
                raise
            raise reason from None
        finally:
            with trio.CancelScope(shield=True):
                await self._release_own_claims()
        season = await self._db(self.store.get_season, self.season_id)
        self.state.status = season.status if season is not None else ""
        await self.refresh()
        return self.state

    async def _release_own_claims(self) -> None:
        try:
            self.state.released += await self._db(
                self.store.release_claims, self.worker, self.season_id, retries=1
            )
        except StoreError as exc:
            self.log(
                f"could not give back this runner's claims ({exc}); other runners take "
                f"them over after {self.stale_after:g} s"
            )
        self._changed()

    async def _release_dead_workers(self) -> int:
        holders = await self._db(self.store.claim_holders, self.season_id)
        freed = 0
        for worker, (_, claimed_at) in holders.items():
            if worker != self.worker and worker_is_dead(worker, claimed_at):
                n = await self._db(self.store.release_claims, worker, self.season_id)
                if n:
                    self.log(
                        f"took back {n} game(s) from runner {worker}, which is no longer running"
                    )
                freed += n
        return freed

    async def _worker(self, pool: Any) -> None:
        waiting_said = False
        while True:
            self._claiming += 1
            try:
                match = await self._db(
                    self.store.claim_match, self.season_id, self.worker, self.stale_after
                )
            finally:
                self._claiming -= 1
            if match is not None:
                waiting_said = False
                await self._play(pool, match)
                continue
            progress = await self.refresh()
            others = self.state.others
            if not self._claiming and progress.workers.get(self.worker, 0) > len(self._in_flight):
                # a claim whose commit answer the database lost (an outage): not being played
                await self._db(
                    self.store.release_claims, self.worker, self.season_id, list(self._in_flight)
                )
                continue
            if progress.pending == 0 and others == 0:
                return
            if others and await self._release_dead_workers():
                continue
            if others and not waiting_said:
                self.log(
                    f"waiting for {others} game(s) held by other runners "
                    f"(taken over if not finished within {self.stale_after:g} s)"
                )
                waiting_said = True
            await trio.sleep(self.poll)

    async def _play(self, pool: Any, match: Match) -> None:
        assert match.id is not None
        match_id = match.id
        seats = [int(b) for b in match.seats]
        unknown = [b for b in seats if b not in self._commands]
        if unknown:
            await self._void(match, f"match seats bot id {unknown[0]}, which is not in the season")
            return
        commands = [self._commands[b] for b in seats]
        names = [self._bots[b].label for b in seats]
        game_id = f"{self.season.name}-{match.number}"
        with trio.CancelScope() as scope:
            self._in_flight[match_id] = scope
            self._changed()
            try:
                await self._play_claimed(pool, match, commands, names, game_id)
            finally:
                del self._in_flight[match_id]
                self._changed()
        if scope.cancelled_caught:
            self.state.lost += 1
            self.log(
                f"game {match.number}: its claim was taken over by another runner; "
                "abandoned (the other runner plays it)"
            )

    async def _play_claimed(
        self, pool: Any, match: Match, commands: list[BotCommand], names: list[str], game_id: str
    ) -> None:
        try:
            result = await self.play(pool, commands, self.rules, match.seed, game_id, None, names)
        except Exception as exc:  # the referee itself failed: not the bots' doing
            await self._void(match, f"the referee failed: {type(exc).__name__}: {exc}")
            return
        path = record_path(self.season.name, match.number)
        try:
            await trio.to_thread.run_sync(write_record, path, result.record)
        except OSError as exc:
            await self._void(match, f"cannot write the record {path}: {exc.strerror or exc}")
            return
        try:  # each seat's log beside the record (a bot's own output: losing it voids nothing)
            await trio.to_thread.run_sync(write_seat_logs, logs_dir(path), result.logs)
        except OSError as exc:
            self.log(f"game {match.number}: cannot keep the bots' logs: {exc.strerror or exc}")
        try:
            outcome = GameOutcome.from_result(result, path)
        except Exception as exc:
            await self._void(
                match, f"the referee's result is unusable: {type(exc).__name__}: {exc}"
            )
            return
        try:
            stored = await self._db(self.store.finish_match, match.id, self.worker, outcome)
        except StoreError as exc:
            await self._void(match, f"the database failed while storing the result: {exc}")
            return
        if not stored:  # a commit retried after an outage may have landed the first time
            stored = await self._db(self.store.stored_by, match.id, self.worker)
        if stored:
            self.state.played += 1
            self.state.faults += len(outcome.faults)
            self.state.done += 1
            self._changed()
        else:
            self.state.lost += 1
            self.log(
                f"game {match.number}: another runner took it over and stored it first; "
                "this play is not counted"
            )

    async def _void(self, match: Match, reason: str) -> None:
        assert match.id is not None
        attempt = match.attempts + 1
        try:
            gave_back = await self._db(
                self.store.void_match, match.id, self.worker, reason, self.max_attempts
            )
        except StoreError as exc:
            raise RunnerError(f"the database failed: {exc}") from exc
        self.state.arena_faults += 1
        if not gave_back:
            self.log(f"game {match.number}: arena fault ({reason}); the claim was lost already")
        elif attempt >= self.max_attempts:
            self.log(
                f"game {match.number}: arena fault ({reason}); given up after "
                f"{attempt} attempt(s): the match is void"
            )
        else:
            self.log(
                f"game {match.number}: arena fault ({reason}); voided, it will be played "
                f"again (attempt {attempt} of {self.max_attempts})"
            )
        self._changed()

    async def _heartbeat(self) -> None:
        """Renew the claims of the games in flight; abandon a game whose claim was lost."""
        while True:
            await trio.sleep(self.heartbeat)
            for match_id, scope in list(self._in_flight.items()):
                try:
                    held = await self._db(
                        self.store.renew_claim, match_id, self.worker, retries=0, reconnect=False
                    )
                except StoreError:
                    continue  # the database may come back; the commit will tell
                if not held and match_id in self._in_flight:
                    scope.cancel()

    async def _refresh_loop(self) -> None:
        while True:
            await trio.sleep(2.0)
            try:
                progress = await self._db(self.store.progress, self.season_id, reconnect=False)
            except StoreError:
                continue
            self._apply_progress(progress)


def _user_error(group: BaseExceptionGroup) -> Exception | None:
    """The first StoreError/RunnerError in ``group`` if it holds nothing but those (and
    cancellations), else None."""
    found: list[Exception] = []

    def walk(exc: BaseException) -> bool:
        if isinstance(exc, BaseExceptionGroup):
            return all(walk(e) for e in exc.exceptions)
        if isinstance(exc, (StoreError, RunnerError)):
            found.append(exc)
            return True
        return isinstance(exc, trio.Cancelled)

    return found[0] if walk(group) and found else None


# ---------------------------------------------------------------------------------- queries
def _count_faults(store: Store, season_id: int) -> int:
    """Bot faults recorded in the season's stored games."""
    with store.session() as s:
        rows = s.exec(
            select(col(Game.faults))
            .join(Match, col(Match.id) == col(Game.match_id))
            .where(col(Match.season_id) == season_id)
        ).all()
    return sum(len(f or ()) for f in rows)


# ---------------------------------------------------------------------------------- entry
async def run_season(store: Store, season: Season, **options: Any) -> RunState:
    """Play the season's pending matches (see :class:`SeasonRunner` for the options)."""
    return await SeasonRunner(store, season, **options).run()


class Stoppable(Protocol):
    """A season runner or a set of worker processes: ``run()`` and its ``state``."""

    state: RunState

    async def run(self) -> RunState: ...


async def run_until_signalled(
    runner: Stoppable, on_signal: Callable[[int], Any] | None = None
) -> str | None:
    """Run ``runner`` until it ends or SIGINT/SIGTERM arrives (then it is cancelled: games in
    flight are abandoned, claims given back, ``state.interrupted`` set, ``on_signal(signum)``
    told). Returns the one-line error that stopped the run, if a database or runner error did."""
    failure: list[str] = []
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:

            async def body() -> None:
                try:
                    await runner.run()
                except (StoreError, RunnerError) as exc:
                    failure.append(str(exc))
                finally:
                    nursery.cancel_scope.cancel()

            async def watch() -> None:
                async for signum in signals:
                    runner.state.interrupted = True
                    if on_signal is not None:
                        on_signal(signum)
                    nursery.cancel_scope.cancel()
                    return

            nursery.start_soon(body)
            nursery.start_soon(watch)
    return failure[0] if failure else None


def format_duration(seconds: float | None) -> str:
    if seconds is None or math.isinf(seconds) or math.isnan(seconds):
        return "–"
    seconds = round(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"
