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
   file renamed into place, so a record is whole or absent; a local cache);
4. **commits** the result in one transaction (:meth:`Store.finish_match`), which stores the
   game, its record and its seats' logs (:mod:`..store.records`: every machine's web server
   reads them) only if this runner still holds the claim — a result is never doubled.

Before its first game a runner **materialises** the season's bots: their files come from the
database's archives into this machine's ``$HEGEMON_HOME/bots`` (verified against their content
hash), so a runner needs nothing but the database URL. A database that cannot be reached (a
restart, a network cut) is retried with backoff for up to ``reconnect_for`` seconds while the
games in flight play on; a claim or a commit whose answer was lost is recognised afterwards
(released again, or counted as stored), so an outage loses and doubles nothing. ``hegemon
season run --workers N`` runs N such runners as processes
(:mod:`.pool`).

Faults of the arena (the referee raised, the record could not be written, the database failed
while committing) are not the bots': the match is voided (:meth:`Store.void_match`) and played
again, up to ``max_attempts`` plays, after which it stays void — never scored. Bot faults are
the referee's business (forfeits) and are stored with the result.

Stopping:

* cancellation (Ctrl-C / SIGTERM in ``hegemon season run``) abandons the games in flight: their
  claims are released, nothing of them is recorded, the bots are killed; a later run resumes;
* a runner killed outright (SIGKILL, a crash, a lost machine) leaves claims behind: another
  runner takes them over once they are ``stale_after`` seconds old, or at once if the dead
  runner was on the same machine (its process is gone — see :func:`.liveness.worker_is_dead`). What
  it had committed stays; what it had not is played again, once.

A runner ends when nothing is left to claim and no other worker holds a claim (it waits for
other workers' games, which may be given back, rather than leaving the season unfinished).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import trio

from hegemon.referee.runner.botlog import logs_dir, write_seat_logs
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.runner.session import link_pool, play_game

from ..live.feed import LiveFeed
from ..store import BotRow, MatchRow, SeasonProgress, SeasonRow, Store, StoreError
from ..store.claims import HEARTBEAT_MAX
from .commands import bot_command, materialise
from .limits import DEFAULT_MAX_ATTEMPTS, DEFAULT_STALE_AFTER
from .liveness import default_worker_id, worker_is_dead
from .records import outcome_of, record_path, write_record
from .retry import DEFAULT_RECONNECT_FOR, Retrying
from .state import Listener, Logger, RunnerError, RunState, count_faults

__all__ = ["PlayGame", "SeasonRunner", "run_season"]

PlayGame = Callable[..., Awaitable[Any]]
T = TypeVar("T")


class SeasonRunner:
    """Plays one season's pending matches: ``await SeasonRunner(store, season).run()``.

    ``on_change(state)`` is called whenever the counts move; ``log(line)`` for notable events
    (voided games, lost claims, waiting for other workers). ``play`` replaces
    :func:`play_game` (tests inject arena faults with it).
    """

    def __init__(
        self,
        store: Store,
        season: SeasonRow,
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
        stop_after: int | None = None,
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
        self.stop_after = stop_after  # games this runner claims before it stops (None: all)
        self._claimed = 0
        self._retrying = Retrying(self.log, reconnect_for)
        self._claiming = 0  # claim calls under way (their matches are not in flight yet)
        self.state = RunState(season.name, self.worker, concurrency)
        self.rules = season.rule_set()
        self.time_control = season.time_control()
        self._in_flight: dict[int, trio.CancelScope] = {}
        self._bots: dict[int, BotRow] = {}
        self._commands: dict[int, BotCommand] = {}

    async def _db(
        self, fn: Callable[..., T], *args: Any, retries: int = 2, reconnect: bool = True
    ) -> T:
        """A store call in a worker thread, retried through outages (:class:`.retry.Retrying`)."""
        return await self._retrying(fn, *args, retries=retries, reconnect=reconnect)

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
        await self._load_bots()
        self.state.faults = await self._db(count_faults, self.store, self.season_id)
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

    async def _load_bots(self) -> None:
        """The season's bots and their commands (a ladder's grow as new versions join)."""
        for bot in await self._db(self.store.season_bots, self.season_id):
            if bot.id is not None and bot.id not in self._bots:
                await self._db(materialise, self.store, bot)  # fetched on first use here
                self._bots[bot.id] = bot
                self._commands[bot.id] = bot_command(bot)

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
        while self.stop_after is None or self._claimed < self.stop_after:
            self._claiming += 1
            try:
                if self.season.is_ladder:  # its matchmaker queues the next tables
                    # imported here: a season's runner needn't load the ratings and accounts
                    from ..ladder.matchmaker import fill_queue

                    await self._db(fill_queue, self.store, self.season)
                match = await self._db(
                    self.store.claim_match, self.season_id, self.worker, self.stale_after
                )
                if match is not None:
                    self._claimed += 1
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

    async def _play(self, pool: Any, match: MatchRow) -> None:
        assert match.id is not None
        match_id = match.id
        seats = [int(b) for b in match.seats]
        if any(b not in self._commands for b in seats):
            await self._load_bots()
        unknown = [b for b in seats if b not in self._commands]
        if unknown:
            await self._void(match, f"match seats bot id {unknown[0]}, which is not in the season")
            return
        commands = [self._commands[b] for b in seats]
        names = [self._bots[b].label for b in seats]
        game_id = f"{self.season.name}-{match.number}"
        feed = self._live_feed(match, names)
        with trio.CancelScope() as scope:
            self._in_flight[match_id] = scope
            self._changed()
            try:
                await self._play_claimed(pool, match, commands, names, game_id, feed)
            finally:
                del self._in_flight[match_id]
                self._changed()
                if feed is not None:
                    feed.close()
        if scope.cancelled_caught:
            self.state.lost += 1
            self.log(
                f"game {match.number}: its claim was taken over by another runner; "
                "abandoned (the other runner plays it)"
            )

    def _live_feed(self, match: MatchRow, names: list[str]) -> LiveFeed | None:
        """The match's live row for spectators (:mod:`hegemon.leaderboard.live`), or None: a
        duplicate season's game is not shown until its table's rotations are all played."""
        if self.season.duplicate or match.id is None:
            return None
        feed = LiveFeed(self.store, match.id, worker=self.worker)
        feed.begin(self.season_id, f"{self.season.name} #{match.number}", names)
        return feed

    async def _play_claimed(
        self,
        pool: Any,
        match: MatchRow,
        commands: list[BotCommand],
        names: list[str],
        game_id: str,
        feed: LiveFeed | None = None,
    ) -> None:
        progress = feed.progress if feed is not None else None
        try:
            result = await self.play(
                pool, commands, self.rules, match.seed, game_id, progress, names
            )
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
            outcome = outcome_of(result, path)
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

    async def _void(self, match: MatchRow, reason: str) -> None:
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


async def run_season(store: Store, season: SeasonRow, **options: Any) -> RunState:
    """Play the season's pending matches (see :class:`SeasonRunner` for the options)."""
    return await SeasonRunner(store, season, **options).run()
