"""An HTTP runner (``hegemon runner --arena URL --token T``): it claims a lease over the arena's
API, fetches its bots' archives (:mod:`.archives`), plays the game with the season runner's own
code (:func:`~hegemon.referee.runner.session.play_game` in a
:func:`~hegemon.referee.runner.session.link_pool`, the record and logs kept in the local cache
as :mod:`hegemon.leaderboard.seasons.records` keeps them), heartbeats while it plays, and posts
the result. It needs no database: the arena checks the lease, verifies the record and stores it.

A lease lost (the heartbeat refused: another runner has the match) abandons the game; a refused
token (revoked) stops the runner; a network error is retried with backoff (:mod:`.client`), a
post included (the arena answers a repeated post as the first). A game the referee cannot play
here is given back as a fault of the runner's (an attempt counted, as a local runner's arena
fault); one whose bots cannot start here, or one in play when the runner is stopped, is given
back to be played again (nothing counted).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import trio

from hegemon.referee.runner.botlog import logs_dir, write_seat_logs
from hegemon.referee.runner.session import LinkPool, link_pool, play_game

from ...seasons.commands import bot_command
from ...seasons.records import record_path, write_record
from ...seasons.state import RunnerError
from .archives import fetch_bot
from .client import ArenaClient, ArenaError, Unreachable
from .protocol import Lease, ProtocolError, Result, read_lease, result_body

POLL = 1.0
"""Seconds between claims while the arena has nothing to play and did not wait (an arena
without long-poll claims, or one with too many claims waiting already)."""

CLAIM_WAIT = 25.0
"""Seconds a claim asks the arena to wait for a match before it answers none (a long poll:
:mod:`.waiting`; the arena caps it); well inside the client's own timeout."""

GIVE_BACK_FOR = 20.0
"""Seconds a stopping runner spends telling the arena it gives its match back: long enough
for a busy arena to answer (5 s was not, at a load of 30 on two cores), short enough that a
runner told to stop does stop; if the arena never hears, the lease lapses all the same."""


class TokenRefused(Exception):
    """The arena refused the runner token (revoked, or never one): the runner stops."""


class HttpRunner:
    """Plays the arena's matches one at a time until cancelled (or its token is refused)."""

    def __init__(
        self, client: ArenaClient, worker: str, say: Callable[[str], None], poll: float = POLL
    ):
        self.client, self.worker, self.say, self.poll = client, worker, say, poll
        self.played = 0
        self._pool: LinkPool | None = None
        self._pool_key: tuple[Any, ...] | None = None
        self._pools = contextlib.AsyncExitStack()
        self._refused: TokenRefused | None = None  # by a heartbeat, mid-game

    async def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A client call in a worker thread; a refused token is :class:`TokenRefused`."""
        try:
            return await trio.to_thread.run_sync(fn, *args, abandon_on_cancel=True)
        except ArenaError as exc:
            if exc.status == 401:
                raise TokenRefused(str(exc)) from None
            raise

    async def run(self) -> None:
        async with self._pools:
            while True:
                waited = False
                try:
                    body = await self._call(
                        self.client.post, "/api/runner/claim", self._me(wait=CLAIM_WAIT)
                    )
                    lease = read_lease(body)
                    waited = lease is None and body.get("waited") is True
                except (ArenaError, ProtocolError) as exc:
                    self.say(f"claim refused: {exc}")
                    lease = None
                if lease is None:
                    if not waited:  # the arena answered at once: no claim storm against it
                        await trio.sleep(self.poll)
                    continue
                await self.play(lease)

    def _me(self, **more: Any) -> dict[str, Any]:
        return {"worker": self.worker, **more}

    async def _pool_for(self, lease: Lease) -> LinkPool:
        """A pool of bot processes for the lease's season: the last one if the season is the
        same (its bots kept running between games, as a local runner keeps them)."""
        season = lease.season
        fresh = not season.keep_memory or season.duplicate
        key = (season.name, season.time_control(), fresh)
        if self._pool is None or key != self._pool_key:
            await self._pools.aclose()
            self._pools = contextlib.AsyncExitStack()
            await self._pools.__aenter__()
            self._pool = await self._pools.enter_async_context(
                link_pool(season.time_control(), restart_per_game=fresh)
            )
            self._pool_key = key
        return self._pool

    async def play(self, lease: Lease) -> None:
        """Play the leased match and post it (see the module's doc for what may go wrong);
        cancelled (the runner stopped), the match is given back to be played again."""
        try:
            await self._play(lease)
        except BaseException:
            # Cancelled reaches here alone or inside an ExceptionGroup (the game's nursery
            # wraps it), so not ``except trio.Cancelled``; a match already stored refuses it
            with trio.CancelScope(shield=True), trio.move_on_after(GIVE_BACK_FOR):
                await self._give_back(lease)
            raise

    async def _play(self, lease: Lease) -> None:
        name = f"{lease.season.name} #{lease.number}"
        try:
            for bot in lease.seats:
                await self._call(fetch_bot, self.client, bot)
            commands = [bot_command(bot) for bot in lease.seats]
        except (RunnerError, ArenaError) as exc:  # as a local runner: given back, waited
            self.say(f"{name}: cannot start its bots here ({exc}); given back")
            await self._give_back(lease)
            await trio.sleep(self.poll)
            return
        pool = await self._pool_for(lease)
        names = [bot.label for bot in lease.seats]
        rules = lease.season.rule_set()
        result: Any = None
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._heartbeat, lease, nursery.cancel_scope)
            try:
                result = await play_game(
                    pool, commands, rules, lease.seed, lease.game_id, None, names
                )
            except Exception as exc:  # the referee itself failed: not the bots' doing
                why = f"the referee failed: {type(exc).__name__}: {exc}"
                self.say(f"{name}: {why}; given back")
                await self._give_back(lease, why)
            nursery.cancel_scope.cancel()
        if self._refused is not None:
            raise self._refused
        if result is None:
            return
        await self._post(lease, name, result)

    async def _give_back(self, lease: Lease, reason: str = "") -> None:
        """Give the match back (``reason``: a fault of this runner's, counted as an attempt);
        if the arena cannot be told, its lease lapses all the same."""
        body = self._me(match_id=lease.match_id, reason=reason)
        try:
            await self._call(self.client.post, "/api/runner/release", body)
        except (ArenaError, TokenRefused, Unreachable):
            pass

    async def _heartbeat(self, lease: Lease, game: trio.CancelScope) -> None:
        """Renew the lease every ``lease.heartbeat`` seconds; a lost one stops the game."""
        while True:
            await trio.sleep(lease.heartbeat)
            try:
                await self._call(
                    self.client.post, "/api/runner/heartbeat", self._me(match_id=lease.match_id)
                )
            except (ArenaError, TokenRefused, Unreachable) as exc:
                self.say(f"{lease.season.name} #{lease.number}: {exc}; the game is abandoned")
                if isinstance(exc, TokenRefused):
                    self._refused = exc
                game.cancel()
                return

    async def _post(self, lease: Lease, name: str, result: Any) -> None:
        path = record_path(lease.season.name, lease.number)  # the local cache, as a runner's
        try:
            await trio.to_thread.run_sync(write_record, path, result.record)
            await trio.to_thread.run_sync(write_seat_logs, logs_dir(path), result.logs)
        except OSError as exc:  # the arena keeps the record; this copy is only a cache
            self.say(f"{name}: cannot keep a local copy: {exc.strerror or exc}")
        posted = Result(
            lease.match_id, result.record, result.logs, result.duration, result.decisions
        )
        try:
            await self._call(
                self.client.post, "/api/runner/result", result_body(self.worker, posted)
            )
        except ArenaError as exc:
            self.say(f"{name}: not stored: {exc}")
            return
        self.played += 1
        self.say(f"{name}: played and stored")
